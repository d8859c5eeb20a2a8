// GET .../submissions/timestamps/{timestamp} and .../submissions/latest: the text an upload's
// automated assessment wrote (workers/tasks/run-overseer-assessment.ts stores it); until a run has
// written its output there is nothing to show, and the answer says so (404).
import { sql } from 'kysely';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { parseSubmissionTimestamp } from '../../../../domain/submission-files.ts';
import { readHead, StorageKeyError, storageKeys, type Storage } from '../../../../storage/index.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { filesEntries, sharingTaskIds, type FilesEntry } from '../submission/submission-files.ts';

const NO_SUBMISSION = 'No submission was made for this task';
const NO_SUCH_SUBMISSION = 'No submission was made for this task at that time';
const NO_OUTPUT = 'No automated assessment output for this submission';

/**
 * The most of one stored output file sent. The runner keeps 1 MiB of each script's file and 64 KiB
 * of each step's logs, so a run's output is far below this; the bound keeps memory to it whatever
 * the store holds (the answer is one text, not a stream).
 */
const MAX_TEXT_BYTES = 8 * 1024 * 1024;

/** A stored output's text, cut at MAX_TEXT_BYTES with a line saying so; null when it is not there. */
async function storedText(storage: Storage, key: string): Promise<string | null> {
  const head = await readHead(storage, key, { maxLines: Number.POSITIVE_INFINITY, maxBytes: MAX_TEXT_BYTES });
  if (!head) return null;
  const text = head.bytes.toString('utf8');
  return head.size > head.bytes.length ? `${text}\n[output cut at ${MAX_TEXT_BYTES} bytes of ${head.size}]\n` : text;
}

/**
 * The output text of the assessment of `entry`: its run's `output_path` names the stored text.
 * Staff also get the file-system changes of each step (`docker diff`), after it.
 */
async function assessmentOutput(em: Em, storage: Storage, entry: FilesEntry, staff: boolean): Promise<string> {
  const run = await db(em)
    .selectFrom('overseer_assessments')
    .select(['id', 'output_path'])
    .where('task_id', '=', entry.taskId)
    .where('submission_timestamp', '=', entry.submittedAt.toISOString())
    .where('output_path', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  let text: string | null = null;
  try {
    text = run?.output_path ? await storedText(storage, run.output_path) : null;
  } catch (error) {
    if (!(error instanceof StorageKeyError)) throw error;
  }
  if (text === null) throw notFound(NO_OUTPUT);
  let out = text;
  if (staff && run) {
    for (const file of ['build-diff.txt', 'run-diff.txt'] as const) {
      const diff = await storedText(storage, storageKeys.assessmentOutput(run.id, file));
      if (diff !== null) out += `\n==> ${file}\n${diff}`;
    }
  }
  return out;
}

/** The output of the upload made at `at` (ISO 8601, or unix seconds); `staff` also get the steps' file-system changes. */
export async function assessmentOutputAt(em: Em, storage: Storage, taskId: number | null, at: string, staff: boolean): Promise<string> {
  const parsed = parseSubmissionTimestamp(at);
  if (!parsed) throw badRequest('timestamp must be an ISO 8601 date-time such as 2026-03-02T09:00:00.000Z');
  if (taskId === null) throw notFound(NO_SUBMISSION);
  const taskIds = await sharingTaskIds(em, taskId);
  const row = await sql<{ id: number; task_id: number; submitted_at: string }>`
    select s.id, s.task_id, s.submitted_at from task_submissions s
    where s.task_id in (${sql.join(taskIds)}) and date_trunc(${parsed.precision}, s.submitted_at) = ${parsed.at.toISOString()}::timestamptz
      and exists (select 1 from submission_files f where f.submission_id = s.id)
    order by s.submitted_at desc, s.id desc limit 1`.execute(db(em));
  const found = row.rows[0];
  if (!found) throw notFound(NO_SUCH_SUBMISSION);
  const entry: FilesEntry = { id: found.id, taskId: found.task_id, submittedAt: timestamp(found.submitted_at), processing: false };
  return assessmentOutput(em, storage, entry, staff);
}

/** The output of the task's latest upload (the group's, for group work). */
export async function latestAssessmentOutput(em: Em, storage: Storage, taskId: number | null, staff: boolean): Promise<string> {
  if (taskId === null) throw notFound(NO_SUBMISSION);
  const [entry] = await filesEntries(em, await sharingTaskIds(em, taskId), 1);
  if (!entry) throw notFound(NO_SUBMISSION);
  return assessmentOutput(em, storage, entry, staff);
}
