import { z } from 'zod';
import { formInt, idField, notGivenIfBlank } from '../../../../../trpc/fields.ts';
import { uploadedFile, type UploadedFile } from '../../../../../lib/files.ts';
import { projectTaskIds } from '../../schemas.ts';

export const discussionInput = z.object({ ...projectTaskIds, task_comment_id: idField() });

export const promptInput = z.object({
  ...projectTaskIds,
  task_comment_id: idField(),
  number: formInt().pipe(z.number().int().min(1)).describe('Which prompt, from 1'),
});

export const replyInput = z.object({
  ...projectTaskIds,
  task_comment_id: idField(),
  attachment: notGivenIfBlank(uploadedFile()).describe("The student's recorded reply (audio, checked by content), under 30 MB"),
});

export type Uploads = UploadedFile[] | undefined;
