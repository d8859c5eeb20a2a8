import { listSteps } from '../../../../operations/units/task_definitions/overseer_steps/step-rows.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { stepOut, stepsPath } from './schemas.ts';
import { z } from 'zod';

export const listOverseerSteps = unitQuery(stepsPath, { action: 'see_staff_fields', refused: 'Not authorised to see the assessment steps of this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/task_definitions/{task_def_id}/overseer_steps', 'Overseer steps', "A task definition's assessment steps", {
      description: 'In run order (sort_order, then id), disabled ones included. Unit staff. See docs/assessment-steps.md.',
    }),
  )
  .output(z.array(stepOut))
  .query(({ ctx, input }) => listSteps(ctx.em, ctx.unit.id, input.task_def_id));
