import { z } from 'zod';
import { idField, requiredString } from '../../../trpc/fields.ts';

// The output shape is written beside the operations that produce it.
export { overseerImageOut } from '../../../operations/admin/overseer_images/overseer-images.ts';

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
