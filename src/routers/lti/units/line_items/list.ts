import { z } from 'zod';
import { unitLineItems } from '../../../../operations/lti/units/line_items/line-items.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { taskDefinitionLineItemsOut, unitLineItemsInput } from './schemas.ts';

export const listLineItems = unitQuery(unitLineItemsInput, {
  action: 'manage_lti_grades',
  refused: 'You are not authorised to manage grade passback in this unit.',
})
  .meta(
    route('GET', '/api/lti/units/{unit_id}/line_items', 'LTI', "The unit's LMS gradebook columns (LTI AGS line items) per task definition", {
      description: 'An empty `line_items` means the definition has no column. Unit Convenor or Admin. See docs/lti.md.',
    }),
  )
  .output(z.array(taskDefinitionLineItemsOut))
  .query(({ ctx }) => unitLineItems(ctx.em, ctx.config, ctx.unit.id));
