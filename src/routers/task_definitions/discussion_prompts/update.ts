import { definitionAndUnit } from '../../../operations/task_definitions/discussion_prompts/prompt-rows.ts';
import { updatePrompt } from '../../../operations/task_definitions/discussion_prompts/save-prompt.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { PROMPTS_REFUSED } from './create.ts';
import { promptOut, updatePromptInput } from './schemas.ts';

export const updateDiscussionPrompt = unitMutation(updatePromptInput, {
  action: 'manage_discussion_prompts',
  refused: PROMPTS_REFUSED,
  unitOf: definitionAndUnit,
  recordField: 'td_id',
})
  .meta(
    route('PUT', '/api/task_definitions/{td_id}/discussion_prompts/{id}', 'Discussion prompts', 'Change a discussion prompt', {
      description: '`content` and `priority`; those left out keep their values. 404 for a prompt of another definition. Unit Tutor, Convenor or Admin.',
    }),
  )
  .output(promptOut)
  .mutation(({ ctx, input }) => updatePrompt(ctx.em, ctx.record.id, input.id, input, ctx.clock.now()));
