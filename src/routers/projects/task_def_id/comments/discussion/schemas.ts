import { z } from 'zod';
import { formInt, idField, notGivenIfBlank, preprocess } from '../../../../../trpc/fields.ts';
import { uploadedFile, type UploadedFile } from '../../../../../trpc/files.ts';
import { projectTaskIds } from '../../schemas.ts';

/** One file or several: the web client sends `attachments[]` (an array), a form may repeat `attachments`. */
const files = preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(uploadedFile()).optional());

export const createDiscussionInput = z.object({
  ...projectTaskIds,
  attachments: files.describe('The audio prompts, in order (`attachments[]`); each audio by its content, under 30 MB'),
});

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
