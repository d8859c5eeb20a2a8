import { z } from 'zod';
import { projectPrompts } from '../../../operations/projects/discussion_prompts/project-prompts.ts';
import { route } from '../../../trpc/route.ts';
import { projectQuery } from '../../../trpc/scopes/index.ts';
import { projectPromptOut, projectPromptsInput } from '../../task_definitions/discussion_prompts/schemas.ts';

export const listProjectDiscussionPrompts = projectQuery(projectPromptsInput, {
  action: 'discussion_prompts',
  refused: 'Not authorised to see the discussion prompts of this project',
  field: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/discussion_prompts', 'Discussion prompts', 'The prompts to ask about the tasks now in discuss or demonstrate', {
      description:
        'One row per prompt of each task of the project in discuss or demonstrate, by task abbreviation, then priority, then id. ' +
        'Staff of the unit only: the questions are for the tutor. See docs/discussion-prompts.md.',
    }),
  )
  .output(z.array(projectPromptOut))
  .query(({ ctx }) => projectPrompts(ctx.em, ctx.project.id));
