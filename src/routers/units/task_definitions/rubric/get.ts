import { unitRubric } from '../../../../operations/units/task_definitions/rubric/load-rubric.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { rubricOut, rubricPath } from './schemas.ts';

export const getRubric = unitQuery(rubricPath, { action: 'get_unit', refused: 'Not authorised to see rubrics of this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/task_definitions/{task_def_id}/rubric', 'Rubrics', "A task definition's rubric", {
      description: 'Criteria and their levels in position order, the score mapping and the maximum score. Anyone in the unit. See docs/marking/rubrics.md.',
    }),
  )
  .output(rubricOut)
  .query(({ ctx, input }) => unitRubric(ctx.em, ctx.unit.id, input.task_def_id));
