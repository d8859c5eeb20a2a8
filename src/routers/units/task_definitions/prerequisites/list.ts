import { z } from 'zod';
import { listPrerequisites } from '../../../../operations/units/task_definitions/prerequisites/prerequisite-rows.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { prerequisiteOut, prerequisitesPath } from './schemas.ts';

export const listTaskPrerequisites = unitQuery(prerequisitesPath, { action: 'get_unit', refused: 'Not authorised to see the prerequisites of this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/task_definitions/{task_def_id}/prerequisites', 'Task prerequisites', "A task definition's prerequisites", {
      description: 'The definitions whose task must reach a status before this one may be handed in. Anyone who may read the unit. See docs/prerequisites.md.',
    }),
  )
  .output(z.array(prerequisiteOut))
  .query(({ ctx, input }) => listPrerequisites(ctx.em, ctx.unit.id, input.task_def_id));
