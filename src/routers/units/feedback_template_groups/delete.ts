import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { deleteTemplateGroup } from '../../../operations/units/feedback_templates/templates.ts';
import { groupIdInput } from './schemas.ts';

export const deleteTemplateGroupProcedure = unitMutation(groupIdInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('DELETE', '/api/units/{unit_id}/feedback_template_groups/{id}', 'Feedback templates', 'Delete a feedback template group and its templates', {
      description: 'Comments already posted with them stay. Unit Convenor or Admin.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteTemplateGroup(ctx.em, ctx.unit.id, input.id);
    return true as const;
  });
