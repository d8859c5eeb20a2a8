import { definitionAndUnit } from '../../../operations/task_definitions/discussion_prompts/prompt-rows.ts';
import { createPrompt } from '../../../operations/task_definitions/discussion_prompts/save-prompt.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createPromptInput, promptOut } from './schemas.ts';

export const PROMPTS_REFUSED = 'Not authorised to change the discussion prompts of this unit';

export const createDiscussionPrompt = unitMutation(createPromptInput, {
  action: 'manage_discussion_prompts',
  refused: PROMPTS_REFUSED,
  unitOf: definitionAndUnit,
  recordField: 'td_id',
})
  .meta(
    route('POST', '/api/task_definitions/{td_id}/discussion_prompts', 'Discussion prompts', 'Add a discussion prompt to a task definition', {
      description: '`content` (required) and `priority` (default 0), as JSON or form fields. Unit Tutor, Convenor or Admin. See docs/discussion-prompts.md.',
      rest: { status: 201 },
    }),
  )
  .output(promptOut)
  .mutation(({ ctx, input }) => createPrompt(ctx.em, ctx.record.id, input, ctx.clock.now()));
