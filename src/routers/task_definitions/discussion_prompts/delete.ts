import { definitionAndUnit } from '../../../operations/task_definitions/discussion_prompts/prompt-rows.ts';
import { deletePrompt } from '../../../operations/task_definitions/discussion_prompts/save-prompt.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { PROMPTS_REFUSED } from './create.ts';
import { deletedPromptOut, promptIdInput } from './schemas.ts';

export const deleteDiscussionPrompt = unitMutation(promptIdInput, {
  action: 'manage_discussion_prompts',
  refused: PROMPTS_REFUSED,
  unitOf: definitionAndUnit,
  recordField: 'td_id',
})
  .meta(
    route('DELETE', '/api/task_definitions/{td_id}/discussion_prompts/{id}', 'Discussion prompts', 'Delete a discussion prompt', {
      description: '404 for a prompt of another definition. Unit Tutor, Convenor or Admin.',
    }),
  )
  .output(deletedPromptOut)
  .mutation(({ ctx, input }) => deletePrompt(ctx.em, ctx.record.id, input.id));
