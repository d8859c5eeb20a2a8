// Queues the automated assessment of an upload (behaviour.md §6 "Trigger"): a record per
// (task, submission time) and a run_overseer_assessment job, in the caller's transaction, and the
// "Automated Assessment Started" comment.
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { storageKeys, type Storage } from '../../storage/index.ts';
import { insertComments } from '../tasks/comments.ts';
import { tutorFor } from '../tasks/people.ts';

export const STARTED_COMMENT = 'Automated Assessment Started';
/** A run that cannot reach the engine is tried this often before it is recorded as failed. */
export const ASSESSMENT_ATTEMPTS = 3;

export interface AssessmentSetup {
  /** The image reference to run: the definition's image, else the unit's. */
  image: string;
  resourcesKey: string;
}

/** Why the definition's uploads are not assessed, or its setup when they are. */
export async function assessmentSetup(
  em: Em,
  storage: Storage,
  config: Pick<Config, 'overseerEnabled'>,
  taskDefinitionId: number,
): Promise<AssessmentSetup | { off: string }> {
  if (!config.overseerEnabled) return { off: 'Overseer is not enabled' };
  const row = await db(em)
    .selectFrom('task_definitions as d')
    .innerJoin('units as u', 'u.id', 'd.unit_id')
    .leftJoin('overseer_images as i', (j) => j.on(sql<boolean>`i.id = coalesce(d.overseer_image_id, u.overseer_image_id)`))
    .select(['d.assessment_enabled as td_enabled', 'u.assessment_enabled as unit_enabled', 'i.tag'])
    .where('d.id', '=', taskDefinitionId)
    .executeTakeFirst();
  if (!row) return { off: 'No such task definition' };
  if (!row.unit_enabled || !row.td_enabled) return { off: 'Automated assessment is not enabled for this task' };
  if (!row.tag) return { off: 'No overseer image is set for this task or its unit' };
  const resourcesKey = storageKeys.taskAssessmentResources(taskDefinitionId);
  if (!(await storage.exists(resourcesKey))) return { off: 'This task has no assessment resources' };
  return { image: row.tag, resourcesKey };
}

/**
 * Marks the record queued and enqueues its run (one job per record: a re-trigger before the run
 * started replaces it), then adds the started comment, from the student's tutor to the student.
 * Returns the comment's id.
 */
export async function queueRun(em: Em, jobs: JobQueue, assessmentId: number, now: Date): Promise<number> {
  const k = db(em);
  const record = await k
    .updateTable('overseer_assessments')
    .set({ status: 'queued', updated_at: now.toISOString() })
    .where('id', '=', assessmentId)
    .returning('task_id')
    .executeTakeFirstOrThrow();
  await jobs.add('run_overseer_assessment', { assessmentId }, { jobKey: `run_overseer_assessment:${assessmentId}`, maxAttempts: ASSESSMENT_ATTEMPTS });
  const task = await k
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.project_id', 't.task_definition_id', 'p.user_id'])
    .where('t.id', '=', record.task_id)
    .executeTakeFirstOrThrow();
  const tutor = (await tutorFor(em, task.project_id, task.task_definition_id)) ?? task.user_id;
  const [commentId] = await insertComments(
    em,
    [{ taskId: record.task_id, authorId: tutor, recipientId: task.user_id, kind: 'assessment', comment: STARTED_COMMENT }],
    now,
  );
  await k.updateTable('task_comments').set({ overseer_assessment_id: assessmentId }).where('id', '=', commentId).execute();
  return commentId;
}

/**
 * The assessment of the upload recorded at `submittedAt` on `taskId`, when the definition is set up
 * for it: creates (or, for a re-dated entry, reuses) the record and queues its run.
 */
export async function queueAssessmentOfUpload(
  em: Em,
  storage: Storage,
  config: Pick<Config, 'overseerEnabled'>,
  jobs: JobQueue,
  upload: { taskId: number; taskDefinitionId: number; submittedAt: Date },
  now: Date,
): Promise<{ assessmentId: number; commentId: number } | { off: string }> {
  const setup = await assessmentSetup(em, storage, config, upload.taskDefinitionId);
  if ('off' in setup) return setup;
  const at = upload.submittedAt.toISOString();
  // An upload within the hour re-dates its history entry: a record still waiting for the entry's
  // old time follows it, so the upload is assessed once, with its latest files.
  await sql`update overseer_assessments a set submission_timestamp = ${at}::timestamptz
    where a.task_id = ${upload.taskId} and a.status in ('pre_queued', 'queued') and a.submission_timestamp <> ${at}::timestamptz
      and not exists (select 1 from task_submissions s where s.task_id = a.task_id and s.submitted_at = a.submission_timestamp)
      and not exists (select 1 from overseer_assessments b where b.task_id = a.task_id and b.submission_timestamp = ${at}::timestamptz)`.execute(db(em));
  const row = await db(em)
    .insertInto('overseer_assessments')
    .values({ task_id: upload.taskId, submission_timestamp: at, status: 'pre_queued', created_at: now.toISOString(), updated_at: now.toISOString() })
    .onConflict((c) => c.columns(['task_id', 'submission_timestamp']).doUpdateSet({ status: 'pre_queued', output_path: null, result_task_status: null }))
    .returning('id')
    .executeTakeFirstOrThrow();
  const commentId = await queueRun(em, jobs, row.id, now);
  return { assessmentId: row.id, commentId };
}
