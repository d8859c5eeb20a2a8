import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { sendScorePassback } from '../../src/operations/lti/score-passback.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ passbackId: z.number().int().positive() });

/**
 * Posts a task's current score to an LMS gradebook column (LTI AGS). Idempotent: it reads the task
 * as it is now, and the platform keeps the latest score. A platform outage, a 401 or a 429 fails the
 * job so graphile-worker retries it with its back-off; a refusal (other 4xx) is recorded and not retried.
 */
export function ltiScorePassback(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const { passbackId } = payloadSchema.parse(rawPayload);
    const outcome = await sendScorePassback(services.orm.em.fork(), services, passbackId, {
      attempt: helpers.job.attempts,
      maxAttempts: helpers.job.max_attempts,
    });
    if (outcome.kind === 'failed' && outcome.retry) throw new Error(outcome.error);
    if (outcome.kind === 'failed') helpers.logger.warn(`grade passback ${passbackId} failed for good: ${outcome.error}`);
  };
}
