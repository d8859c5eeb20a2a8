// The PDF job's outcome (workers/tasks/accept-submission.ts), each in its own transaction under the
// submission row's lock: the stored PDF recorded on every task of the submission, or the task
// sent back to fix and resubmit. A submission a newer upload replaced meanwhile is left alone.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { Clock } from '../../../../lib/clock.ts';
import { jobQueue } from '../../../../db/jobs.ts';
import { ROLE } from '../../../../policy/index.ts';
import type { Storage } from '../../../../storage/index.ts';
import { publishTaskEvent } from '../../../live/publish-task-event.ts';
import { queuePdfFailedMail } from '../../../mail/queue-task-mails.ts';
import { afterSubmissionPdf } from '../../../similarity/hooks.ts';
import { useDraftAsSummaryReport } from '../../../submission/project/portfolio/portfolio-parts.ts';
import { changeTask } from '../../../tasks/change-task.ts';
import { insertComments } from '../../../tasks/comments.ts';
import { tutorFor } from '../../../tasks/people.ts';
import { sharingTaskIds } from './submission-files.ts';
import { submissionSuperseded } from './submission-to-build.ts';

/** The original's automated comment (behaviour.md §5.2 point 5), followed by what was wrong. */
export const failureComment = (reason: string) =>
  `**Automated Comment**: Something went wrong with your submission. Check the files and resubmit this task. ${reason}`;

/**
 * Unless a newer upload arrived meanwhile, every task of the submission points at the PDF stored
 * under `key`, processing ends, and the draft task's PDF becomes the learning summary report of
 * students who have none or still use the draft. False when the result was dropped.
 */
export async function recordSubmissionPdf(em: Em, storage: Storage, taskId: number, submissionId: number, key: string): Promise<boolean> {
  return em.transactional(async (tx) => record(tx as Em, storage, taskId, submissionId, key));
}

async function record(em: Em, storage: Storage, taskId: number, submissionId: number, key: string): Promise<boolean> {
  const k = db(em);
  const locked = await sql<{ id: number }>`select id from task_submissions where id = ${submissionId} for update`.execute(k);
  if (locked.rows.length === 0) return false;
  if (await submissionSuperseded(em, taskId, submissionId)) {
    await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
    return false;
  }
  const taskIds = await sharingTaskIds(em, taskId);
  await k.updateTable('tasks').set({ pdf_path: key }).where('id', 'in', taskIds).execute();
  await publishTaskEvent(em, 'pdf', taskIds);
  await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
  await useDraftAsSummaryReport(em, storage, taskIds, key);
  // Documents that ask for a similarity check go to the service now that the submission is converted.
  await afterSubmissionPdf(em, jobQueue(em), { taskId, submissionId });
  return true;
}

/** The task goes to fix and resubmit (by the student's tutor) with the automated comment; processing ends. */
export async function recordSubmissionFailure(em: Em, clock: Clock, taskId: number, submissionId: number, reason: string): Promise<void> {
  await em.transactional(async (tx) => {
    const t = tx as Em;
    const k = db(t);
    const locked = await sql<{ id: number }>`select id from task_submissions where id = ${submissionId} for update`.execute(k);
    if (locked.rows.length === 0 || (await submissionSuperseded(t, taskId, submissionId))) return;
    const task = await k
      .selectFrom('tasks as t')
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .select(['t.project_id', 't.task_definition_id', 'p.user_id'])
      .where('t.id', '=', taskId)
      .executeTakeFirstOrThrow();
    const now = clock.now();
    const tutorId = (await tutorFor(t, task.project_id, task.task_definition_id)) ?? task.user_id;
    await changeTask(t, taskId, { actor: { userId: tutorId, role: ROLE.tutor }, change: { kind: 'automated', target: 'fix_and_resubmit' } }, now);
    await insertComments(
      t,
      [{ taskId, authorId: tutorId, recipientId: task.user_id === tutorId ? null : task.user_id, kind: 'text', comment: failureComment(reason) }],
      now,
    );
    await queuePdfFailedMail(t, { taskId, reason });
    await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
  });
}
