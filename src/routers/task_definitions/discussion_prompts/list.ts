import { z } from 'zod';
import { definitionAndUnit, listPrompts } from '../../../operations/task_definitions/discussion_prompts/prompt-rows.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { promptOut, promptsPath } from './schemas.ts';

export const listDiscussionPrompts = unitQuery(promptsPath, {
  action: 'see_staff_fields',
  refused: 'Not authorised to see the discussion prompts of this unit',
  unitOf: definitionAndUnit,
  recordField: 'td_id',
})
  .meta(
    route('GET', '/api/task_definitions/{td_id}/discussion_prompts', 'Discussion prompts', "A task definition's discussion prompts", {
      description: 'By priority (lower first), then id. Staff of the unit. See docs/discussion-prompts.md.',
    }),
  )
  .output(z.array(promptOut))
  .query(({ ctx }) => listPrompts(ctx.em, [ctx.record.id]));
