import { findOrCreateLineItems } from '../../../../operations/lti/units/line_items/line-items.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { createLineItemInput, taskDefinitionLineItemsOut } from './schemas.ts';

export const createLineItem = unitMutation(createLineItemInput, {
  action: 'manage_lti_grades',
  refused: 'You are not authorised to manage grade passback in this unit.',
})
  .meta(
    route('POST', '/api/lti/units/{unit_id}/line_items', 'LTI', 'Find or create the LMS gradebook column of a task definition', {
      description:
        "In each linked course: found by resource id `task-definition-<id>` through the course's AGS `lineitems` endpoint, or created there (out of 100). Unit Convenor or Admin. See docs/lti.md.",
    }),
  )
  .output(taskDefinitionLineItemsOut)
  .mutation(({ ctx, input }) => findOrCreateLineItems(ctx.em, ctx, ctx.unit.id, input.task_definition_id));
