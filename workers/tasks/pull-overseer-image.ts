import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { OverseerImage } from '../../schema/index.ts';
import type { WorkerServices } from '../index.ts';

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
    try {
      const log = await services.docker.pull(image.tag);
      image.pullStatus = 'pulled';
      image.pullOutput = log || `Pulled ${image.tag}`;
      image.lastPulledAt = services.clock.now();
    } catch (error) {
      image.pullStatus = 'failed';
      image.pullOutput = error instanceof Error ? error.message : String(error);
    }
    await em.flush();
  };
}
