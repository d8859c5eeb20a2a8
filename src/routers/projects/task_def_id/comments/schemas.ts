import { z } from 'zod';
import { formBool, formInt, formString, idField, notGivenIfBlank, preprocess } from '../../../../trpc/fields.ts';
import { projectTaskIds } from '../schemas.ts';
import { uploadedFile } from '../../../../lib/files.ts';

// `/api/projects/{project_id}/task_def_id/{task_definition_id}/comments`
const commentTaskIds = projectTaskIds;
const given = notGivenIfBlank;

export const listCommentsInput = z.object(commentTaskIds);

export const createCommentInput = z.object({
  ...commentTaskIds,
  comment: preprocess((v) => (v === null ? undefined : v), formString().optional()).describe('The text; ignored when an attachment is given'),
  attachment: given(uploadedFile()).describe('An image, PDF, or audio or video recording (checked by content), under 30 MB'),
  reply_to_id: given(formInt()).describe('A comment of the same task this one answers'),
});

export const commentInput = z.object({ ...commentTaskIds, id: idField() });

export const commentAttachmentInput = z.object({
  ...commentTaskIds,
  id: idField(),
  as_attachment: formBool().default(false),
});
