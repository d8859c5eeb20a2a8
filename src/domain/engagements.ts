// Check-ins (docs/check-ins.md): what an engagement may hold, when it may be deleted, and the
// report of engagements per teaching week. Pure: no clock, no database.
import { MAX_ATTACHMENT_BYTES } from './comment-attachments.ts';
import { weekNumber, type PeriodCalendar } from './weeks.ts';

export const MAX_ENGAGEMENT_TYPE_CHARS = 255;
export const MAX_ENGAGEMENT_NOTE_CHARS = 10_000;
export const MAX_EVIDENCE_URL_CHARS = 2048;
/** As a comment's attachment: under 30,000,000 bytes. */
export const MAX_EVIDENCE_BYTES = MAX_ATTACHMENT_BYTES;

const HOUR_MS = 60 * 60 * 1000;
/** How far ahead of now an engagement may be dated (a check-in in another time zone, a clock a little fast). */
export const OCCURRED_AT_MAX_AHEAD_MS = 24 * HOUR_MS;
/** The earliest date an engagement may carry: anything before is a typing mistake. */
export const OCCURRED_AT_EARLIEST = new Date('2000-01-01T00:00:00.000Z');
/** Its author may delete an engagement for an hour after recording it (a slip); the unit's convenor for a week. */
export const AUTHOR_DELETE_WINDOW_MS = HOUR_MS;
export const CONVENOR_DELETE_WINDOW_MS = 7 * 24 * HOUR_MS;

/** Why this URL cannot be evidence (http or https only, with a host), or null. */
export function evidenceUrlProblem(text: string): string | null {
  if (text.length > MAX_EVIDENCE_URL_CHARS) return `evidence_url: is too long (maximum is ${MAX_EVIDENCE_URL_CHARS} characters)`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'evidence_url: is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'evidence_url: must be an http or https URL';
  if (url.hostname === '') return 'evidence_url: has no host';
  return null;
}

/** Why an engagement cannot have happened then, or null: not before 2000, not more than a day ahead of now. */
export function occurredAtProblem(occurredAt: Date, now: Date): string | null {
  if (occurredAt.getTime() < OCCURRED_AT_EARLIEST.getTime()) return 'occurred_at: is before 2000';
  if (occurredAt.getTime() > now.getTime() + OCCURRED_AT_MAX_AHEAD_MS) return 'occurred_at: is more than a day in the future';
  return null;
}

/**
 * Why the caller may not delete this engagement (the message of a 403), or null. Its author may
 * within an hour of recording it; whoever may delete others' (the unit's convenor, an Admin) within
 * a week, theirs included.
 */
export function deleteRefusal(e: { createdAt: Date; isAuthor: boolean; mayDeleteOthers: boolean }, now: Date): string | null {
  const age = now.getTime() - e.createdAt.getTime();
  if (e.mayDeleteOthers) return age <= CONVENOR_DELETE_WINDOW_MS ? null : 'An engagement can no longer be deleted a week after it was recorded';
  if (!e.isAuthor) return "Only the engagement's author (within an hour) or the unit's convenor (within a week) may delete it";
  return age <= AUTHOR_DELETE_WINDOW_MS ? null : "Its author may delete an engagement only within an hour of recording it; ask the unit's convenor";
}

/** The evidence a request asks for: both at once is a 400 (null: no problem). */
export function evidenceConflict(input: { evidence_url?: string; hasAttachment: boolean; remove_evidence?: boolean }): string | null {
  if (input.evidence_url !== undefined && input.hasAttachment) return 'Give either evidence_url or an attachment, not both';
  if (input.remove_evidence && (input.evidence_url !== undefined || input.hasAttachment))
    return 'remove_evidence cannot be sent with new evidence (new evidence replaces the old)';
  return null;
}

/**
 * How an accepted image is stored after re-encoding: JPEG and WebP keep their format, every other
 * image (PNG, GIF's first frame, TIFF, AVIF, HEIF) becomes a PNG. Null: not an image we take.
 */
export function reencodedImageType(detectedMime: string): { format: 'jpeg' | 'webp' | 'png'; mime: string; ext: string } | null {
  if (detectedMime === 'image/jpeg') return { format: 'jpeg', mime: 'image/jpeg', ext: 'jpg' };
  if (detectedMime === 'image/webp') return { format: 'webp', mime: 'image/webp', ext: 'webp' };
  if (['image/png', 'image/gif', 'image/tiff', 'image/avif', 'image/heif', 'image/heic'].includes(detectedMime))
    return { format: 'png', mime: 'image/png', ext: 'png' };
  return null;
}

// ---- The report: engagements per tutorial per teaching week ------------------------------------

export interface ReportStudent {
  project_id: number;
  tutorial_id: number | null;
  tutorial: string | null;
  tutor_name: string | null;
  username: string;
  name: string;
}

/** Engagements of a project on one UTC day. */
export interface DayCount {
  project_id: number;
  day: string;
  count: number;
}

export interface StudentReportRow {
  project_id: number;
  username: string;
  name: string;
  /** Engagements in teaching weeks 1..current week (index 0 is week 1). */
  weeks: number[];
  total: number;
  last_engagement_at: string | null;
  /** Teaching weeks since the week of the last engagement (0: this week); every week so far when none. */
  weeks_quiet: number;
}

export interface TutorialReportRow {
  tutorial_id: number | null;
  abbreviation: string | null;
  tutor_name: string | null;
  weeks: number[];
  total: number;
  /** Students without an engagement this week or last. */
  quiet_students: number;
  students: StudentReportRow[];
}

/** A student is quiet once two teaching weeks have passed without an engagement. */
export const QUIET_AFTER_WEEKS = 2;

/**
 * Rows per tutorial (a student in tutorials of two streams is under both; one in none under a row
 * without a tutorial), with counts per teaching week 1..`currentWeek`. A day's week follows the
 * unit's calendar, so weeks pause over breaks; engagements before week 1 or after the current week
 * count in the totals only. `lastDay` holds each project's latest engagement time.
 */
export function engagementReport(
  cal: PeriodCalendar,
  currentWeek: number,
  students: readonly ReportStudent[],
  days: readonly DayCount[],
  last: ReadonlyMap<number, string>,
): TutorialReportRow[] {
  const weeksShown = Math.max(0, currentWeek);
  const perProject = new Map<number, { weeks: number[]; total: number }>();
  for (const d of days) {
    const row = perProject.get(d.project_id) ?? { weeks: Array(weeksShown).fill(0), total: 0 };
    perProject.set(d.project_id, row);
    row.total += d.count;
    const week = weekNumber(cal, d.day);
    if (week >= 1 && week <= weeksShown) row.weeks[week - 1]! += d.count;
  }
  const tutorials = new Map<string, TutorialReportRow>();
  for (const s of students) {
    const key = String(s.tutorial_id);
    let tutorial = tutorials.get(key);
    if (!tutorial) {
      tutorial = {
        tutorial_id: s.tutorial_id,
        abbreviation: s.tutorial,
        tutor_name: s.tutor_name,
        weeks: Array(weeksShown).fill(0),
        total: 0,
        quiet_students: 0,
        students: [],
      };
      tutorials.set(key, tutorial);
    }
    const counts = perProject.get(s.project_id) ?? { weeks: Array(weeksShown).fill(0), total: 0 };
    const lastAt = last.get(s.project_id) ?? null;
    const lastWeek = lastAt === null ? null : weekNumber(cal, lastAt.slice(0, 10));
    const weeksQuiet = lastWeek === null ? weeksShown : Math.max(0, weeksShown - Math.max(lastWeek, 0));
    tutorial.students.push({
      project_id: s.project_id,
      username: s.username,
      name: s.name,
      weeks: counts.weeks,
      total: counts.total,
      last_engagement_at: lastAt,
      weeks_quiet: weeksQuiet,
    });
    for (const [i, n] of counts.weeks.entries()) tutorial.weeks[i]! += n;
    tutorial.total += counts.total;
    if (weeksQuiet >= QUIET_AFTER_WEEKS) tutorial.quiet_students++;
  }
  return [...tutorials.values()];
}

/** The report as one table, a row per student per tutorial: what the CSV download holds. */
export function engagementReportTable(weekCount: number, tutorials: readonly TutorialReportRow[]): { header: string[]; rows: (string | number)[][] } {
  const header = [
    'tutorial',
    'tutor',
    'username',
    'name',
    ...Array.from({ length: weekCount }, (_, i) => `week_${i + 1}`),
    'total',
    'last_engagement_at',
    'weeks_quiet',
  ];
  const rows = tutorials.flatMap((t) =>
    t.students.map((s) => [t.abbreviation ?? '', t.tutor_name ?? '', s.username, s.name, ...s.weeks, s.total, s.last_engagement_at ?? '', s.weeks_quiet]),
  );
  return { header, rows };
}
