// The offline marking package (behaviour.md §5.5): what marks.csv holds going out, how its rows
// and the PDFs beside it are read coming back, and the readme that explains it to a tutor. Pure:
// the queries and the task changes live in src/routers/submission/assess.
import { headerKey, writeCsv } from './csv.ts';

export const MARKS_HEADER = [
  'Username',
  'Name',
  'Tutorial',
  'Task',
  "Student's Last Comment",
  'Your Last Comment',
  'Status',
  'New Grade',
  'New Quality',
  'Max Quality',
  'New Comment',
] as const;

/** The columns an uploaded marks.csv must have (any case, any order), as keys readCsv gives them. */
export const REQUIRED_MARK_COLUMNS = ['Username', 'Name', 'Tutorial', 'Task', 'Status', 'New Grade', 'New Quality', 'New Comment'].map(headerKey);

/** One task (or one group submission) to mark. */
export interface MarkRow {
  /** The student's username, or `GRP_<group id>_<submission id>` for group work. */
  username: string;
  /** The student's or group's name. */
  name: string;
  tutorial: string;
  abbreviation: string;
  studentComment: string;
  markerComment: string;
  needHelp: boolean;
  maxQualityPts: number;
}

/** The group-work key of the Username column. */
export const groupUsername = (groupId: number, submissionId: number): string => `GRP_${groupId}_${submissionId}`;

/** The group and submission ids a `GRP_<group>_<submission>` username names, or null for a student's username. */
export function parseGroupUsername(username: string): { groupId: number; submissionId: number } | null {
  const match = /^GRP_(\d+)_(\d+)$/i.exec(username.trim());
  return match ? { groupId: Number(match[1]), submissionId: Number(match[2]) } : null;
}

/** marks.csv: the Status column says what the student asked for (`rff` or `need_help`); the New columns are the marker's. */
export function marksCsv(rows: readonly MarkRow[]): string {
  return writeCsv(
    MARKS_HEADER,
    rows.map((r) => [
      r.username,
      r.name,
      r.tutorial,
      r.abbreviation,
      r.studentComment,
      r.markerComment,
      r.needHelp ? 'need_help' : 'rff',
      '',
      '',
      r.maxQualityPts,
      '',
    ]),
  );
}

/** `<folder>/<ABBR>-<task id>.pdf`: the task id is what an upload matches the file back by. */
export const pdfEntryName = (folder: string, abbreviation: string, taskId: number): string => `${folder}/${abbreviation}-${taskId}.pdf`;

/**
 * The task id of a returned PDF named `*-<task id>.pdf` (in any folder), or null. Files macOS adds
 * to zips (`._name`, `__MACOSX/`) are not PDFs of tasks.
 */
export function taskIdOfPdf(entryName: string): number | null {
  if (entryName.split('/').some((part) => part === '__MACOSX' || part.startsWith('._'))) return null;
  const base = entryName.split('/').pop() ?? '';
  const match = /-(\d+)\.pdf$/i.exec(base);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** What one row of an uploaded marks.csv asks for; blank cells ask for nothing. */
export interface RowMarks {
  status?: string;
  grade?: string;
  quality?: number;
  comment?: string;
}

/** The row's marks, or the reason it cannot be read. */
export function rowMarks(row: Record<string, string>): { ok: true; marks: RowMarks } | { ok: false; error: string } {
  const cell = (key: string) => (row[headerKey(key)] ?? '').trim();
  const marks: RowMarks = {};
  if (cell('Status') !== '') marks.status = cell('Status');
  if (cell('New Grade') !== '') marks.grade = cell('New Grade');
  const quality = cell('New Quality');
  if (quality !== '') {
    if (!/^-?\d+$/.test(quality)) return { ok: false, error: `New Quality '${quality}' is not a whole number.` };
    marks.quality = Number(quality);
  }
  if (cell('New Comment') !== '') marks.comment = cell('New Comment');
  return { ok: true, marks };
}

/** readme.txt of the package. */
export const MARKING_README = `Offline marking package
=======================

This zip holds the work waiting for your feedback in your tutorials:

  marks.csv                  one row per task (group work: one row per group submission)
  <username>/<TASK>-<id>.pdf the submission of each task that has its PDF ready
  GRP_<group>_<submission>/  the same for group work

Tasks whose PDF is still being prepared have a row but no PDF yet.

How to mark
-----------
1. Open marks.csv in a spreadsheet or text editor. Keep the header row and the
   Username, Name, Tutorial and Task columns as they are: they say which task a
   row is.

2. Read each PDF. You may annotate it; a PDF you put back into the zip, under a
   name ending in -<id>.pdf, replaces the task's PDF for the student.

3. Status says what the student asked for: rff (ready for feedback) or need_help.
   Leave it to change nothing, or write the outcome:

     complete                  the work is complete
     discuss (or d)            complete; you will discuss it in class
     demonstrate (or demo)     complete; the student will show it working in class
     fix (or fix_and_resubmit) errors to fix, then resubmit
     redo                      start the task again
     do_not_resubmit           no more feedback; fix it for the portfolio
     fail                      failed, no more attempts
     working_on_it, need_help, not_started, time_exceeded are accepted too.

4. New Grade: for graded tasks, required with complete, discuss or demonstrate:
   P, C, D or HD (or 0, 1, 2, 3; F or -1 for a fail).

5. New Quality: for tasks with quality points, -1 (not rated) up to Max Quality.

6. New Comment: a comment to the student (to the group's submitter for group
   work), added as yours.

7. Upload marks.csv on its own, or the whole zip again with your PDFs, to
   POST /api/submission/assess with the unit's id. Each row is reported as
   applied, ignored (nothing to change) or an error; a row with an error
   changes nothing, and the other rows still apply.
`;
