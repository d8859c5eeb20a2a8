import { unitMutation } from '../../../trpc/scopes/index.ts';
import { definitionFields } from './input.ts';
import { createTaskDefinition, type TaskDefinitionFields } from './operations.ts';
import { definitionForStaff } from './respond.ts';
import { createTaskDefinitionInput, taskDefinitionOut } from './schemas.ts';

export const createTaskDefinitionProcedure = unitMutation(createTaskDefinitionInput, {
  action: 'add_task_def',
  refused: 'Not authorised to create a task definition of this unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/task_definitions',
      tags: ['Task definitions'],
      summary: 'Create a task definition',
      description:
        'Fields under `task_def`. `upload_requirements` and `plagiarism_checks` are JSON arrays sent as strings. Name and abbreviation are unique in the unit; ' +
        'target grade 0..3; max quality points 0..100; start ≤ target ≤ due date; a unit with tutorial streams needs `tutorial_stream_abbr`. Unit Convenor or Admin.',
    },
  })
  .output(taskDefinitionOut)
  .mutation(async ({ ctx, input }) => {
    const td = await createTaskDefinition(ctx.em, ctx.unit, definitionFields(input.task_def) as TaskDefinitionFields);
    return definitionForStaff(ctx.em, ctx.unit, td.id, ctx.storage);
  });
