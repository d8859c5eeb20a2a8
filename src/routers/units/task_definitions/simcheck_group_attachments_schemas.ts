import { z } from 'zod';
import { SimcheckGroupAttachment, type ISimcheckGroupAttachment } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../trpc/errors.ts';
import { idField } from '../../../trpc/fields.ts';

export const GROUP_ATTACHMENTS_REFUSED = 'Not authorised access group attachments for this unit';

export const groupAttachmentsInput = z.object({ unit_id: idField(), task_def_id: idField() });
export const groupAttachmentInput = groupAttachmentsInput.extend({ id: idField() });
export const groupAttachmentActionInput = groupAttachmentInput.extend({ action: z.string().trim().min(1) });

/** The spec's `id, name, status`, and the original's `group_attachment_id` and `filename`. */
export const groupAttachmentOut = z.object({
  id: z.number().int(),
  name: z.string(),
  filename: z.string(),
  group_attachment_id: z.string().nullable(),
  status: z.string(),
});

export function toGroupAttachment(a: ISimcheckGroupAttachment): z.infer<typeof groupAttachmentOut> {
  return { id: a.id, name: a.filename, filename: a.filename, group_attachment_id: a.remoteId ?? null, status: a.status };
}

export async function findGroupAttachment(em: Em, definitionId: number, id: number): Promise<ISimcheckGroupAttachment> {
  const found = await em.findOne(SimcheckGroupAttachment, { id, taskDefinition: definitionId });
  if (!found) throw notFound('Unable to find requested Simcheck Group Attachment');
  return found;
}
