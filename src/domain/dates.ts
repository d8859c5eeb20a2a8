// Date arithmetic and wire formats. `date` values are 'YYYY-MM-DD' strings (UTC calendar days);
// timestamps are Date objects sent as ISO 8601 with milliseconds and 'Z'.

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** True when `s` is a real calendar day such as 2024-02-29 (and not 2023-02-29). */
export function isDay(s: string): boolean {
  const m = DAY_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Parses a day ('YYYY-MM-DD', taken as UTC midnight) or an ISO 8601 date-time; undefined if neither. */
export function parseTimestamp(s: string): Date | undefined {
  const text = s.trim();
  if (isDay(text)) return new Date(`${text}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The UTC calendar day of a date-time, or the day itself. */
export function parseDay(s: string): string | undefined {
  const text = s.trim();
  if (isDay(text)) return text;
  const d = parseTimestamp(text);
  return d ? toDay(d) : undefined;
}

export function toDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function toTimestamp(d: Date): string {
  return d.toISOString();
}

export function addDays(day: string, days: number): string {
  return toDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * MS_PER_DAY));
}

export function addWeeks(day: string, weeks: number): string {
  return addDays(day, weeks * 7);
}

/** The earlier of two days ('YYYY-MM-DD' strings compare as the days do; Math.min would make them NaN). */
export function earlierDay(a: string, b: string): string {
  return a < b ? a : b;
}

/** The later of two days. */
export function laterDay(a: string, b: string): string {
  return a > b ? a : b;
}
