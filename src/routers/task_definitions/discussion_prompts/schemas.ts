import { z } from 'zod';
import { PROMPT_CONTENT_MAX, PROMPT_PRIORITY } from '../../../domain/discussion-prompts.ts';
import { TASK_STATUSES } from '../../../domain/vocabulary.ts';
import { formInt, idField, requiredString } from '../../../trpc/fields.ts';

// ---- Input --------------------------------------------------------------------------------------

const content = () =>
  requiredString()
    .pipe(z.string().max(PROMPT_CONTENT_MAX, { message: `is too long (maximum is ${PROMPT_CONTENT_MAX} characters)` }))
    .meta({ description: `The question, 1 to ${PROMPT_CONTENT_MAX} characters once trimmed.` });

const priority = () =>
  formInt().pipe(z.number().int().min(PROMPT_PRIORITY.min).max(PROMPT_PRIORITY.max)).meta({ description: 'A whole number; lower comes first (default 0).' });

export const promptsPath = z.object({ td_id: idField() });

export const createPromptInput = promptsPath.extend({ content: content(), priority: priority().optional() });

export const updatePromptInput = promptsPath.extend({
  id: idField(),
  content: content().optional(),
  priority: priority().optional(),
});

export const promptIdInput = promptsPath.extend({ id: idField() });

export const projectPromptsInput = z.object({ project_id: idField() });

// ---- Output -------------------------------------------------------------------------------------

export const promptOut = z.object({
  id: z.number(),
  task_definition_id: z.number(),
  content: z.string(),
  priority: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const deletedPromptOut = z.object({ id: z.number(), deleted: z.literal(true) });

/** GET /api/projects/{project_id}/discussion_prompts: a prompt with the task it is asked about. */
export const projectPromptOut = z.object({
  id: z.number(),
  task_definition_id: z.number(),
  task_id: z.number(),
  abbreviation: z.string(),
  task_status: z.enum(TASK_STATUSES),
  content: z.string(),
  priority: z.number(),
});
