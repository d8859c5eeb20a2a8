import { saveRubric } from '../../../../operations/units/task_definitions/rubric/save-rubric.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { saveRubricInput, savedRubricOut } from './schemas.ts';

export const saveRubricProcedure = unitMutation(saveRubricInput, { action: 'manage_rubrics', refused: 'Not authorised to change rubrics of this unit' })
  .meta(
    route('PUT', '/api/units/{unit_id}/task_definitions/{task_def_id}/rubric', 'Rubrics', "Create or replace a task definition's rubric", {
      description:
        'The whole rubric: criteria and levels with their `id` are kept, without are added, left out are removed (400 if a mark chose them). ' +
        'Every marked task is re-scored and mapped again in the same transaction. Unit Convenor or Admin.',
    }),
  )
  .output(savedRubricOut)
  .mutation(({ ctx, input }) => saveRubric(ctx.em, ctx.unit.id, input.task_def_id, input, ctx.user.id, ctx.clock.now()));
