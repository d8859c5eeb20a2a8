import { z } from 'zod';
import type { OverseerPullStatus } from '../../../../schema/enums.ts';
import type { IOverseerImage } from '../../../../schema/index.ts';
import { toTimestamp } from '../../../domain/dates.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { idField, requiredString } from '../../../trpc/fields.ts';
import type { Config } from '../../../config.ts';

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

// A Docker image reference, [registry[:port]/]repo[/path][:tag][@digest], written from the
// grammar of the reference format: the registry host may use capitals, the repository path may not.
const DOMAIN_PART = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const REGISTRY = `(?:${DOMAIN_PART}(?:\\.${DOMAIN_PART})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_PART = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const TAG = '[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const IMAGE_REFERENCE = new RegExp(`^(?:${REGISTRY}/)?${PATH_PART}(?:/${PATH_PART})*(?::${TAG})?(?:@${DIGEST})?$`);

export function isImageReference(value: string): boolean {
  return value.length <= 255 && IMAGE_REFERENCE.test(value);
}

const nameField = () => requiredString().pipe(z.string().max(255));
const tagField = () => requiredString().pipe(z.string().refine(isImageReference, { message: 'is invalid' }));

export const overseerImageIdInput = z.object({ id: idField() });

export const createOverseerImageInput = z.object({
  overseer_image: z.object({ name: nameField(), tag: tagField() }),
});

// The web client sends only the changed fields (and may echo read-only keys, which are dropped).
export const updateOverseerImageInput = z.object({
  id: idField(),
  overseer_image: z.object({ name: nameField().optional(), tag: tagField().optional() }).default({}),
});

export const OVERSEER_DISABLED = 'Overseer is not enabled. Enable Overseer before updating settings.';

/** Changes to images are refused while Overseer is switched off, as in the original. */
export function requireOverseerEnabled(config: Pick<Config, 'overseerEnabled'>): void {
  if (!config.overseerEnabled) throw forbidden(OVERSEER_DISABLED);
}
