import { z } from 'zod';
import { listPassbacks as list } from '../../../../operations/lti/units/passbacks/passbacks.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { passbackOut, passbacksInput } from './schemas.ts';

export const listPassbacks = unitQuery(passbacksInput, {
  action: 'manage_lti_grades',
  refused: 'You are not authorised to manage grade passback in this unit.',
})
  .meta(
    route('GET', '/api/lti/units/{unit_id}/passbacks', 'LTI', 'Grade passback to the LMS per task: sent, pending, retrying, failed or skipped', {
      description: 'Filters: `state`, `task_definition_id`. Unit Convenor or Admin. See docs/lti.md.',
    }),
  )
  .output(z.array(passbackOut))
  .query(({ ctx, input }) => list(ctx.em, ctx.config, ctx.unit.id, input));
