import { z } from 'zod';
import { formBool, formInt, formString, idField, preprocess } from '../../../../trpc/fields.ts';
import { uploadedFile } from '../../../../trpc/files.ts';

/** The comment routes name the project `{project_id}`: `/api/projects/{project_id}/task_def_id/{task_definition_id}/comments`. */
export const commentTaskIds = { project_id: idField(), task_definition_id: idField() };

/** Blank, null and the web client's `"null"`/`"undefined"` form values all mean "not given". */
const given = <T extends z.ZodType>(schema: T) =>
  preprocess((v) => (v === null || v === '' || v === 'null' || v === 'undefined' ? undefined : v), schema.optional());

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
