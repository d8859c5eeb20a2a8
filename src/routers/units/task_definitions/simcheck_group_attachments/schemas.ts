import { z } from 'zod';
import { idField } from '../../../../trpc/fields.ts';

export { groupAttachmentOut } from '../../../../operations/units/task_definitions/group-attachments.ts';

export const GROUP_ATTACHMENTS_REFUSED = 'Not authorised access group attachments for this unit';

export const groupAttachmentsInput = z.object({ unit_id: idField(), task_def_id: idField() });
export const groupAttachmentInput = groupAttachmentsInput.extend({ id: idField() });
export const groupAttachmentActionInput = groupAttachmentInput.extend({ action: z.string().trim().min(1) });
