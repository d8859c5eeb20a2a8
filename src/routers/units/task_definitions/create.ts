import { createDefinitionFromWire } from '../../../operations/units/task_definitions/save-task-definition.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createTaskDefinitionInput, taskDefinitionOut } from './schemas.ts';

export const createTaskDefinitionProcedure = unitMutation(createTaskDefinitionInput, {
  action: 'add_task_def',
  refused: 'Not authorised to create a task definition of this unit',
})
  .meta(
    route('POST', '/api/units/{unit_id}/task_definitions', 'Task definitions', 'Create a task definition', {
      description:
        'Fields under `task_def`. `upload_requirements` and `plagiarism_checks` are JSON arrays sent as strings. Name and ' +
        'abbreviation are unique in the unit; ' +
        'target grade 0..3; max quality points 0..100; start ≤ target ≤ due date; a unit with tutorial streams needs ' +
        '`tutorial_stream_abbr`. Unit Convenor or Admin.',
    }),
  )
  .output(taskDefinitionOut)
  .mutation(({ ctx, input }) => createDefinitionFromWire(ctx.em, ctx.storage, ctx.unit, input.task_def));
