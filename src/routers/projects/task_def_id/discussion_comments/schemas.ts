import { z } from 'zod';
import { preprocess } from '../../../../trpc/fields.ts';
import { uploadedFile } from '../../../../lib/files.ts';
import { projectTaskIds } from '../schemas.ts';

/** One file or several: the web client sends `attachments[]` (an array), a form may repeat `attachments`. */
const files = preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(uploadedFile()).optional());

export const createDiscussionInput = z.object({
  ...projectTaskIds,
  attachments: files.describe('The audio prompts, in order (`attachments[]`); each audio by its content, under 30 MB'),
});
