import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { toDay } from '../../src/domain/dates.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { queueMail } from '../../src/mail/queue.ts';
import { weeklyRecipients } from '../../src/operations/mail/weekly-figures.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({
  weekEnd: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  // Added by graphile-worker's cron: the time the item was scheduled for.
  _cron: z.object({ ts: z.string() }).optional(),
});

/**
 * The weekly summaries (cron, Mondays 07:00 UTC): one send_email job per student and staff member,
 * all queued in one transaction. Each has a job key naming the week and the recipient, so running
 * this again for the same week while those mails wait replaces them instead of adding a second
 * copy. graphile-worker runs the cron item once per schedule however many workers run.
 */
export function weeklySummariesTask(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const payload = payloadSchema.parse(rawPayload ?? {});
    const weekEnd = payload.weekEnd ?? toDay(payload._cron ? new Date(payload._cron.ts) : services.clock.now());
    const queued = await services.orm.em.fork().transactional(async (em) => {
      const { projectIds, unitRoleIds } = await weeklyRecipients(em, weekEnd);
      const jobs = jobQueue(em);
      for (const projectId of projectIds) {
        await queueMail(jobs, { kind: 'weekly_student_summary', projectId, weekEnd }, `weekly_student_summary:${weekEnd}:${projectId}`);
      }
      for (const unitRoleId of unitRoleIds) {
        await queueMail(jobs, { kind: 'weekly_staff_summary', unitRoleId, weekEnd }, `weekly_staff_summary:${weekEnd}:${unitRoleId}`);
      }
      return projectIds.length + unitRoleIds.length;
    });
    helpers.logger.info(`queued ${queued} weekly summaries for the week to ${weekEnd}`);
  };
}
