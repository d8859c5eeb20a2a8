// Queueing notification e-mails. Each is a `send_email` job added through the caller's entity
// manager, so it commits or rolls back with the change that caused it; the job reads the content
// and the recipient's preferences when it runs.
import { db } from '../db/kysely.ts';
import type { Em } from '../db/orm.ts';
import { jobQueue, type JobQueue } from '../db/jobs.ts';
import { withRequestId } from '../lib/request-scope.ts';
import type { MailPayload } from './payload.ts';

/** A down mail server is retried with graphile-worker's backoff for about an hour before the mail is given up. */
const MAIL_ATTEMPTS = 8;

export async function queueMail(jobs: JobQueue, mail: MailPayload, jobKey?: string): Promise<void> {
  await jobs.add('send_email', mail, { jobKey, maxAttempts: MAIL_ATTEMPTS });
}

/** Many mails in one statement (bulk imports): a fixed number of statements however many rows. */
export async function queueMails(em: Em, mails: MailPayload[]): Promise<void> {
  if (mails.length === 0) return;
  // Each carries the queueing request's id, as jobQueue adds it (src/db/jobs.ts).
  const specs = mails.map((payload) => ({ identifier: 'send_email', payload: withRequestId(payload), max_attempts: MAIL_ATTEMPTS }));
  await em.execute('select count(*) from graphile_worker.add_jobs(array(select json_populate_recordset(null::graphile_worker.job_spec, ?::json)))', [
    JSON.stringify(specs),
  ]);
}

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

/** The portfolio compile finished (`ok`) or failed (the portfolio job, at completion). */
export async function queuePortfolioMail(em: Em, outcome: { projectId: number; ok: boolean }): Promise<void> {
  await queueMail(jobQueue(em), { kind: outcome.ok ? 'portfolio_ready' : 'portfolio_failed', projectId: outcome.projectId });
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
