// The deadline bench's rules, apart from its processes so that they can be tested: when to send
// each upload, how answers are tallied, when an attempt counts as held (and what to try instead
// when it does not), and reading a sum out of a Prometheus scrape.

/** Offsets in ms from the start at which each of `count` uploads is sent: evenly spread over `windowMs`. */
export function steadySchedule(count: number, windowMs: number): number[] {
  return Array.from({ length: count }, (_, i) => (i * windowMs) / count);
}

/** How an upload ended: an HTTP status, or the socket error's code (`timeout` when no answer came in time). */
export type UploadOutcome = number | string;

/** Outcomes other than `ok`, counted by outcome, largest first: `{ "503": 12, "ECONNRESET": 1 }`. */
export function tallyErrors(outcomes: UploadOutcome[], ok = 201): [string, number][] {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) if (outcome !== ok) counts.set(String(outcome), (counts.get(String(outcome)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** What the bench tolerates before it calls an attempt not held by this machine. */
export interface DeadlineBounds {
  /** Failed uploads, as a fraction of those sent. */
  maxErrorRate: number;
  /** How long after the last upload every PDF must exist. */
  drainLimitMs: number;
  /** Below this many students the bench gives up rather than halve again. */
  minStudents: number;
}

export interface AttemptOutcome {
  students: number;
  failedUploads: number;
  /** Time from the last upload's answer to the last PDF; undefined when the PDFs were not all built within the limit. */
  drainMs: number | undefined;
}

export type Verdict = { held: true } | { held: false; why: string; next: number | undefined };

/**
 * An attempt is held when at most `maxErrorRate` of the uploads failed and every PDF was built
 * within `drainLimitMs` of the last upload. Otherwise the machine could not hold that many
 * students in the window: the next attempt halves the students (the same window, so half the
 * rate), unless that falls below `minStudents`.
 */
export function judge(outcome: AttemptOutcome, bounds: DeadlineBounds): Verdict {
  const reasons: string[] = [];
  const rate = outcome.failedUploads / outcome.students;
  if (rate > bounds.maxErrorRate) reasons.push(`${(rate * 100).toFixed(1)}% of the uploads failed (bound ${(bounds.maxErrorRate * 100).toFixed(1)}%)`);
  if (outcome.drainMs === undefined) reasons.push(`the PDFs were not all built ${(bounds.drainLimitMs / 1000).toFixed(0)} s after the last upload`);
  if (reasons.length === 0) return { held: true };
  const half = Math.floor(outcome.students / 2);
  return { held: false, why: reasons.join('; '), next: half >= bounds.minStudents ? half : undefined };
}

/**
 * The sum of every sample of `name` whose labels match `labels` (a string equals, a RegExp
 * matches), in a Prometheus text exposition (`name{a="x",b="y"} 12.5`); 0 when none matches.
 */
export function metricSum(exposition: string, name: string, labels: Record<string, string | RegExp> = {}): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const matches = ([key, want]: [string, string | RegExp]) => {
      const value = present.get(key);
      return value !== undefined && (typeof want === 'string' ? value === want : want.test(value));
    };
    if (Object.entries(labels).every(matches)) sum += Number(match[3]);
  }
  return sum;
}
