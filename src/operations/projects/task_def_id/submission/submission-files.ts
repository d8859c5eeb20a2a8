// Where a task's submitted files and PDF are: the history entry that holds the latest upload (for
// group work, the latest of any member's), whether it waits for its PDF, and the PDF itself.
import { sql } from 'kysely';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';
import { forbidden } from '../../../../lib/errors.ts';

/** A history entry that holds uploaded files. */
export interface FilesEntry {
  id: number;
  taskId: number;
  submittedAt: Date;
  processing: boolean;
}

/** The tasks whose uploads `taskId` shares: its group submission's (uploads of any member), else itself. */
export async function sharingTaskIds(em: Em, taskId: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    select s.id from tasks t join tasks s on s.group_submission_id = t.group_submission_id where t.id = ${taskId}
    union select ${taskId}::int`.execute(db(em));
  return rows.rows.map((r) => r.id);
}

/** The latest entries of these tasks' history that hold files, newest first. */
export async function filesEntries(em: Em, taskIds: number[], limit: number): Promise<FilesEntry[]> {
  const rows = await db(em)
    .selectFrom('task_submissions as s')
    .select(['s.id', 's.task_id', 's.submitted_at', 's.processing'])
    .where('s.task_id', 'in', taskIds)
    .where(({ exists, selectFrom }) => exists(selectFrom('submission_files as f').select('f.id').whereRef('f.submission_id', '=', 's.id')))
    .orderBy('s.submitted_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, taskId: r.task_id, submittedAt: timestamp(r.submitted_at)!, processing: r.processing }));
}

export async function countFilesEntries(em: Em, taskIds: number[]): Promise<number> {
  const row = await sql<{ n: number }>`
    select count(*)::int as n from task_submissions s
    where s.task_id in (${sql.join(taskIds)}) and exists (select 1 from submission_files f where f.submission_id = s.id)`.execute(db(em));
  return row.rows[0].n;
}

export interface SubmissionState {
  /** The entry of the latest upload, if any. */
  entry: FilesEntry | undefined;
  processing: boolean;
  /** The stored PDF's key when it exists and no upload waits for a new one. */
  pdfKey: string | null;
}

/** Where the task's PDF stands: waiting for an upload to be processed, stored, or neither. */
export async function submissionState(em: Em, storage: Storage, taskId: number): Promise<SubmissionState> {
  const [entry] = await filesEntries(em, await sharingTaskIds(em, taskId), 1);
  const processing = entry?.processing ?? false;
  if (processing) return { entry, processing, pdfKey: null };
  const task = await db(em).selectFrom('tasks').select('pdf_path').where('id', '=', taskId).executeTakeFirst();
  const key = task?.pdf_path ?? (entry ? storageKeys.submissionPdf(entry.id) : null);
  return { entry, processing, pdfKey: key && (await storage.exists(key)) ? key : null };
}

/**
 * The caller's group in the definition's group set, locked for the rest of the transaction so
 * that members submitting at once take turns (and in the order changeTask locks: group, then tasks).
 */
export async function lockGroupOf(em: Em, projectId: number, groupSetId: number): Promise<number> {
  const found = await sql<{ id: number }>`
    select g.id from groups g join group_memberships gm on gm.group_id = g.id
    where gm.project_id = ${projectId} and gm.active and g.group_set_id = ${groupSetId}
    order by g.id limit 1 for update of g`.execute(db(em));
  if (!found.rows[0]) {
    const set = await db(em).selectFrom('group_sets').select('name').where('id', '=', groupSetId).executeTakeFirst();
    throw forbidden(`This task requires a group. Ensure you are in a group for the unit's ${set?.name ?? 'group set'}`);
  }
  return found.rows[0].id;
}

/**
 * Refuses a member's upload while another member's submission for the group still waits for its
 * PDF (only one member needs to submit).
 */
export async function refuseWhileAnotherMemberProcessing(em: Em, taskId: number): Promise<void> {
  const [entry] = await filesEntries(em, await sharingTaskIds(em, taskId), 1);
  if (!entry?.processing || entry.taskId === taskId) return;
  const submitter = entry.taskId;
  const who = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['u.first_name', 'u.last_name'])
    .where('t.id', '=', submitter)
    .executeTakeFirstOrThrow();
  throw forbidden(
    `${who.first_name} ${who.last_name} has just submitted this task. ` +
      'Only one team member needs to submit this task, so check back soon to see what was uploaded.',
  );
}
