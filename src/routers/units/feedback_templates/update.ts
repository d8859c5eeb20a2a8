import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { updateTemplate } from '../../../operations/units/feedback_templates/templates.ts';
import { templateOut, updateTemplateInput } from './schemas.ts';

export const updateTemplateProcedure = unitMutation(updateTemplateInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('PUT', '/api/units/{unit_id}/feedback_templates/{id}', 'Feedback templates', 'Change a feedback template, or move it to another group', {
      description: 'Unit Convenor or Admin.',
    }),
  )
  .output(templateOut)
  .mutation(({ ctx, input }) => updateTemplate(ctx.em, ctx.unit.id, input.id, input, ctx.clock.now()));
