import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { sendSubmissionForChecks } from '../../src/operations/similarity/simcheck.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ taskId: z.number().int().positive(), submissionId: z.number().int().positive() });

/**
 * Sends each document of a converted submission whose upload requirement asks for a check to the
 * similarity service: one simcheck submission and one upload action per document, then its first
 * steps at once (the webhook and the poll cron do the rest). Idempotent: a document already
 * recorded for this submission is not sent again, only moved on.
 */
export function simcheckSubmit(services: WorkerServices): Task {
  return async (rawPayload) => {
    const { taskId, submissionId } = payloadSchema.parse(rawPayload);
    await sendSubmissionForChecks(services.orm.em.fork(), services, taskId, submissionId);
  };
}
