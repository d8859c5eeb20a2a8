import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { createTemplateGroup } from '../../../operations/units/feedback_templates/templates.ts';
import { createGroupInput, templateGroupOut } from './schemas.ts';

export const createTemplateGroupProcedure = unitMutation(createGroupInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('POST', '/api/units/{unit_id}/feedback_template_groups', 'Feedback templates', 'Add a feedback template group', {
      description: 'For the whole unit, or for one task definition (`task_definition_id`). Unit Convenor or Admin.',
    }),
  )
  .output(templateGroupOut)
  .mutation(({ ctx, input }) => createTemplateGroup(ctx.em, ctx.unit.id, input, ctx.clock.now()));
