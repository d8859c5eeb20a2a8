// The container images automated assessments run in (Admin): adding, renaming or re-tagging,
// removing an unused one, and queueing a pull into the container engine.
import { z } from 'zod';
import type { OverseerPullStatus } from '../../../../schema/enums.ts';
import { OverseerImage, TaskDefinition, Unit, type IOverseerImage } from '../../../../schema/index.ts';
import type { Config } from '../../../config.ts';
import type { Em } from '../../../db/orm.ts';
import { toTimestamp } from '../../../domain/dates.ts';
import type { JobQueue } from '../../../db/jobs.ts';
import { forbidden, notFound } from '../../../lib/errors.ts';

// Wire names of the pull state. `status` is this service's own word for the row's state;
// `pulled_image_status` is the name and vocabulary the web client reads (the original's
// enum: success | failed), extended with `pending` while a pull is queued.
const STATUSES = ['pending', 'pulled', 'failed'] as const satisfies readonly OverseerPullStatus[];
const CLIENT_STATUS = { pending: 'pending', pulled: 'success', failed: 'failed' } as const;

export const overseerImageOut = z.object({
  id: z.number().int(),
  name: z.string(),
  tag: z.string(),
  status: z.enum(STATUSES).nullable(),
  pulled_image_status: z.enum(['pending', 'success', 'failed']).nullable(),
  pulled_image_text: z.string().nullable(),
  last_pulled_date: z.string().nullable(),
});
export type OverseerImageOut = z.infer<typeof overseerImageOut>;

export function toOverseerImage(i: IOverseerImage): OverseerImageOut {
  const status = i.pullStatus ?? null;
  return {
    id: i.id,
    name: i.name,
    tag: i.tag,
    status,
    pulled_image_status: status ? CLIENT_STATUS[status] : null,
    pulled_image_text: i.pullOutput ?? null,
    last_pulled_date: i.lastPulledAt ? toTimestamp(i.lastPulledAt) : null,
  };
}

export const OVERSEER_DISABLED = 'Overseer is not enabled. Enable Overseer before updating settings.';

/** Changes to images are refused while Overseer is switched off, as in the original. */
export function requireOverseerEnabled(config: Pick<Config, 'overseerEnabled'>): void {
  if (!config.overseerEnabled) throw forbidden(OVERSEER_DISABLED);
}

type Services = { em: Em; config: Pick<Config, 'overseerEnabled'> };

async function findImage(em: Em, id: number): Promise<IOverseerImage> {
  const found = await em.findOne(OverseerImage, { id });
  if (!found) throw notFound('Unable to find requested Overseer Image');
  return found as IOverseerImage;
}

/** Every image, oldest first; none while Overseer is off. */
export async function listOverseerImages(em: Em, config: Pick<Config, 'overseerEnabled'>): Promise<OverseerImageOut[]> {
  if (!config.overseerEnabled) return [];
  return (await em.find(OverseerImage, {}, { orderBy: { id: 'asc' } })).map(toOverseerImage);
}

export async function createOverseerImage({ em, config }: Services, fields: { name: string; tag: string }): Promise<OverseerImageOut> {
  requireOverseerEnabled(config);
  const image = em.create(OverseerImage, { ...fields, pullStatus: null, pullOutput: null, pullRequestedAt: null, lastPulledAt: null });
  await em.flush();
  return toOverseerImage(image as IOverseerImage);
}

/** Renames or re-tags image `id`; a new tag forgets the previous pull. */
export async function updateOverseerImage({ em, config }: Services, id: number, changes: { name?: string; tag?: string }): Promise<OverseerImageOut> {
  requireOverseerEnabled(config);
  const image = await findImage(em, id);
  const { name, tag } = changes;
  if (name !== undefined) image.name = name;
  if (tag !== undefined && tag !== image.tag) {
    // Another image: the previous pull says nothing about it. (A rename keeps the result, so the
    // web client's routine PUT after a pull does not wipe the state the pull produced.)
    image.tag = tag;
    image.pullStatus = null;
    image.pullOutput = null;
    image.pullRequestedAt = null;
    image.lastPulledAt = null;
  }
  await em.flush();
  return toOverseerImage(image);
}

/** Deletes image `id`, refused (403) while a unit or task definition uses it. */
export async function deleteOverseerImage(em: Em, id: number): Promise<true> {
  const image = await findImage(em, id);
  const units = await em.count(Unit, { overseerImage: image.id });
  const taskDefinitions = await em.count(TaskDefinition, { overseerImage: image.id });
  if (units > 0 || taskDefinitions > 0) throw forbidden('Cannot delete overseer image with associated units and/or task definitions');
  em.remove(image);
  await em.flush();
  return true;
}

/** Marks image `id` pending and queues its pull. */
export async function pullOverseerImage(services: Services & { jobs: JobQueue; clock: { now(): Date } }, id: number): Promise<OverseerImageOut> {
  const { em, jobs } = services;
  requireOverseerEnabled(services.config);
  const image = await findImage(em, id);
  image.pullStatus = 'pending';
  image.pullRequestedAt = services.clock.now();
  await em.flush();
  // Same transaction as the status change; the key folds repeated requests into one queued pull.
  await jobs.add('pull_overseer_image', { imageId: image.id }, { jobKey: `pull_overseer_image:${image.id}` });
  return toOverseerImage(image);
}

/** The tag to pull for the `pull_overseer_image` job; null when the image is gone. */
export async function overseerImageToPull(em: Em, imageId: number): Promise<{ tag: string } | null> {
  const image = await em.findOne(OverseerImage, { id: imageId });
  return image ? { tag: image.tag } : null;
}

export type OverseerPullOutcome = Pick<IOverseerImage, 'pullStatus' | 'pullOutput'> & { lastPulledAt?: Date };

/**
 * Records a pull's outcome only if the row still names the image that was pulled: an admin may
 * have changed the tag (which clears the result) or deleted the image while the engine was
 * working. False when the result was dropped.
 */
export async function recordOverseerPull(em: Em, imageId: number, tag: string, outcome: OverseerPullOutcome): Promise<boolean> {
  return (await em.nativeUpdate(OverseerImage, { id: imageId, tag }, outcome)) > 0;
}
