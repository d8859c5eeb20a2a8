import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { updateTemplateGroup } from '../../../operations/units/feedback_templates/templates.ts';
import { templateGroupOut, updateGroupInput } from './schemas.ts';

export const updateTemplateGroupProcedure = unitMutation(updateGroupInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('PUT', '/api/units/{unit_id}/feedback_template_groups/{id}', 'Feedback templates', 'Rename a feedback template group or change its task definition', {
      description: 'Unit Convenor or Admin.',
    }),
  )
  .output(templateGroupOut)
  .mutation(({ ctx, input }) => updateTemplateGroup(ctx.em, ctx.unit.id, input.id, input, ctx.clock.now()));
