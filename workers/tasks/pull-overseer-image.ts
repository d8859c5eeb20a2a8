import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { OverseerImage } from '../../schema/index.ts';
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
    const image = await em.findOne(OverseerImage, { id: imageId });
    if (!image) {
      helpers.logger.info(`overseer image ${imageId} no longer exists; nothing to pull`);
      return;
    }
    const tag = image.tag;
    let outcome: Pick<typeof image, 'pullStatus' | 'pullOutput'> & { lastPulledAt?: Date };
    try {
      const log = await services.docker.pull(tag, helpers.abortSignal);
      outcome = { pullStatus: 'pulled', pullOutput: log || `Pulled ${tag}`, lastPulledAt: services.clock.now() };
    } catch (error) {
      // Cut short by a stopping worker: not the pull's fault, so the job is retried, not recorded as failed.
      if (helpers.abortSignal?.aborted) throw error;
      const message = (error instanceof Error ? error.message : String(error)).trim();
      outcome = { pullStatus: 'failed', pullOutput: message || `Pulling ${tag} failed` };
    }
    // Recorded only if the row still names the image that was pulled: an admin may have changed
    // the tag (which clears the result) or deleted the image while the engine was working.
    const recorded = await em.nativeUpdate(OverseerImage, { id: imageId, tag }, outcome);
    if (!recorded) helpers.logger.info(`overseer image ${imageId} changed during the pull of ${tag}; result dropped`);
  };
}
