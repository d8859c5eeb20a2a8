import { updateLevel } from '../../../../../operations/units/task_definitions/rubric/update-level.ts';
import { route } from '../../../../../trpc/route.ts';
import { unitMutation } from '../../../../../trpc/scopes/index.ts';
import { savedRubricOut, updateLevelInput } from '../schemas.ts';

export const updateRubricLevel = unitMutation(updateLevelInput, { action: 'manage_rubrics', refused: 'Not authorised to change rubrics of this unit' })
  .meta(
    route('PATCH', '/api/units/{unit_id}/task_definitions/{task_def_id}/rubric/levels/{level_id}', 'Rubrics', "Change one rubric level's points or text", {
      description:
        'New points re-score every task marked against the rubric in one transaction, in a fixed number of statements, with a comment in each ' +
        "re-scored task's history. Unit Convenor or Admin.",
    }),
  )
  .output(savedRubricOut)
  .mutation(({ ctx, input }) => updateLevel(ctx.em, ctx.unit.id, input.task_def_id, input.level_id, input, ctx.user.id, ctx.clock.now()));
