// Mails about tasks, queued in the caller's transaction: the tasks are looked up here (a group's
// members each get theirs), then each mail is queued as src/mail/queue.ts queues every mail.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { jobQueue, type JobQueue } from '../../db/jobs.ts';
import { queueMail } from '../../mail/queue.ts';

/**
 * A submission could not be converted (the PDF job's failure path, in its transaction): one mail
 * to each student whose task shares the submission (the group's members, or the one student).
 */
export async function queuePdfFailedMail(em: Em, failed: { taskId: number; reason?: string }): Promise<void> {
  const k = db(em);
  const task = await k.selectFrom('tasks').select(['id', 'group_submission_id']).where('id', '=', failed.taskId).executeTakeFirst();
  if (!task) return;
  const ids =
    task.group_submission_id === null
      ? [task.id]
      : (await k.selectFrom('tasks').select('id').where('group_submission_id', '=', task.group_submission_id).orderBy('id').execute()).map((t) => t.id);
  const jobs = jobQueue(em);
  for (const taskId of ids) await queueMail(jobs, { kind: 'task_pdf_failed', taskId, ...(failed.reason ? { reason: failed.reason.slice(0, 2000) } : {}) });
}

/** Batch marking changed these tasks: one mail per student listing their tasks (group members each get theirs). */
export async function queueFeedbackMails(em: Em, jobs: JobQueue, feedback: { taskIds: Iterable<number>; markerId: number }): Promise<void> {
  const ids = [...new Set(feedback.taskIds)];
  if (ids.length === 0) return;
  const rows = await db(em).selectFrom('tasks').select(['id', 'project_id']).where('id', 'in', ids).orderBy('project_id').orderBy('id').execute();
  const byProject = new Map<number, number[]>();
  for (const row of rows) byProject.set(row.project_id, [...(byProject.get(row.project_id) ?? []), row.id]);
  for (const [projectId, taskIds] of byProject) await queueMail(jobs, { kind: 'task_feedback_ready', projectId, taskIds, markerId: feedback.markerId });
}
