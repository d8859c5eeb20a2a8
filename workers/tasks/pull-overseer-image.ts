import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { overseerImageToPull, recordOverseerPull, type OverseerPullOutcome } from '../../src/operations/admin/overseer_images/overseer-images.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ imageId: z.number().int().positive() });

/**
 * Pulls an automated-assessment image and records the outcome on the image row.
 * Idempotent: a deleted image is skipped, and pulling again only refreshes the result.
 * A failed pull is recorded as `failed` rather than retried; an admin can pull again.
 */
export function pullOverseerImage(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const { imageId } = payloadSchema.parse(rawPayload);
    const em = services.orm.em.fork();
    const image = await overseerImageToPull(em, imageId);
    if (!image) {
      helpers.logger.info(`overseer image ${imageId} no longer exists; nothing to pull`);
      return;
    }
    const tag = image.tag;
    let outcome: OverseerPullOutcome;
    try {
      const log = await services.docker.pull(tag, helpers.abortSignal);
      outcome = { pullStatus: 'pulled', pullOutput: log || `Pulled ${tag}`, lastPulledAt: services.clock.now() };
    } catch (error) {
      // Cut short by a stopping worker: not the pull's fault, so the job is retried, not recorded as failed.
      if (helpers.abortSignal?.aborted) throw error;
      const message = (error instanceof Error ? error.message : String(error)).trim();
      outcome = { pullStatus: 'failed', pullOutput: message || `Pulling ${tag} failed` };
    }
    // Recorded only if the row still names the image that was pulled (an admin may have re-tagged or deleted it).
    const recorded = await recordOverseerPull(em, imageId, tag, outcome);
    if (!recorded) helpers.logger.info(`overseer image ${imageId} changed during the pull of ${tag}; result dropped`);
  };
}
