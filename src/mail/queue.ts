// Queueing notification e-mails. Each is a `send_email` job added through the caller's entity
// manager, so it commits or rolls back with the change that caused it; the job reads the content
// and the recipient's preferences when it runs. The mails that name tasks are queued by
// src/operations/mail/queue-task-mails.ts, which looks the tasks up.
import type { Em } from '../db/orm.ts';
import { jobQueue, type JobQueue } from '../db/jobs.ts';
import type { MailPayload } from './payload.ts';

/** A down mail server is retried with graphile-worker's backoff for about an hour before the mail is given up. */
const MAIL_ATTEMPTS = 8;

export async function queueMail(jobs: JobQueue, mail: MailPayload, jobKey?: string): Promise<void> {
  await jobs.add('send_email', mail, { jobKey, maxAttempts: MAIL_ATTEMPTS });
}

/** Many mails (bulk imports): a fixed number of statements however many rows (JobQueue.addMany). */
export async function queueMails(em: Em, mails: MailPayload[]): Promise<void> {
  await jobQueue(em).addMany(
    'send_email',
    mails.map((payload) => ({ payload, maxAttempts: MAIL_ATTEMPTS })),
  );
}

/** The portfolio compile finished (`ok`) or failed (the portfolio job, at completion). */
export async function queuePortfolioMail(em: Em, outcome: { projectId: number; ok: boolean }): Promise<void> {
  await queueMail(jobQueue(em), { kind: outcome.ok ? 'portfolio_ready' : 'portfolio_failed', projectId: outcome.projectId });
}
