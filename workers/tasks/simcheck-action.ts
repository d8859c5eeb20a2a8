import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { runActionById } from '../../src/operations/similarity/simcheck.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ actionId: z.number().int().positive() });

/**
 * Runs the next step of one similarity-service action (an upload, an EULA acceptance, an admin's
 * retry). Idempotent: each step looks at the recorded state first, and a complete action is left alone.
 */
export function simcheckAction(services: WorkerServices): Task {
  return async (rawPayload) => {
    const { actionId } = payloadSchema.parse(rawPayload);
    await runActionById(services.orm.em.fork(), services, actionId);
  };
}
