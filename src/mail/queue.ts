// Queueing notification e-mails. Each is a `send_email` job added through the caller's entity
// manager, so it commits or rolls back with the change that caused it; the job reads the content
// and the recipient's preferences when it runs. The mails that name tasks are queued by
// src/operations/mail/queue-task-mails.ts, which looks the tasks up.
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

/** The portfolio compile finished (`ok`) or failed (the portfolio job, at completion). */
export async function queuePortfolioMail(em: Em, outcome: { projectId: number; ok: boolean }): Promise<void> {
  await queueMail(jobQueue(em), { kind: outcome.ok ? 'portfolio_ready' : 'portfolio_failed', projectId: outcome.projectId });
}
