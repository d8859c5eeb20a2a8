import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createTemplate } from '../../../operations/units/feedback_templates/templates.ts';
import { createTemplateInput, templateOut } from './schemas.ts';

export const createTemplateProcedure = unitMutation(createTemplateInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('POST', '/api/units/{unit_id}/feedback_templates', 'Feedback templates', 'Add a feedback template to a group', {
      description: 'Unit Convenor or Admin. See docs/marking/templates.md.',
    }),
  )
  .output(templateOut)
  .mutation(({ ctx, input }) => createTemplate(ctx.em, ctx.unit.id, input, ctx.clock.now()));
