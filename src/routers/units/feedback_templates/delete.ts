import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { deleteTemplate } from '../../../operations/units/feedback_templates/templates.ts';
import { templateIdInput } from './schemas.ts';

export const deleteTemplateProcedure = unitMutation(templateIdInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('DELETE', '/api/units/{unit_id}/feedback_templates/{id}', 'Feedback templates', 'Delete a feedback template', {
      description: 'Comments already posted with it stay. Unit Convenor or Admin.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteTemplate(ctx.em, ctx.unit.id, input.id);
    return true as const;
  });
