import { deleteRubric } from '../../../../operations/units/task_definitions/rubric/delete-rubric.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { deletedRubricOut, deleteRubricInput } from './schemas.ts';

export const deleteRubricProcedure = unitMutation(deleteRubricInput, { action: 'manage_rubrics', refused: 'Not authorised to change rubrics of this unit' })
  .meta(
    route('DELETE', '/api/units/{unit_id}/task_definitions/{task_def_id}/rubric', 'Rubrics', "Delete a task definition's rubric", {
      description:
        'Refused with 400 while tasks are marked with it, unless `force=true`: then their marks are deleted too, the tasks keep the grade or ' +
        "quality points they have, and each marked task's history gets a comment. 404 when the definition has no rubric. Unit Convenor or Admin.",
      rest: { status: 200 },
    }),
  )
  .output(deletedRubricOut)
  .mutation(({ ctx, input }) => deleteRubric(ctx.em, ctx.unit.id, input.task_def_id, input.force, ctx.user.id, ctx.clock.now()));
