import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { listTemplateGroups } from '../../../operations/units/feedback_templates/templates.ts';
import { listGroupsInput, templateGroupOut } from './schemas.ts';

export const listTemplateGroupsProcedure = unitQuery(listGroupsInput, {
  action: 'read_feedback_templates',
  refused: 'You are not authorised to read the feedback templates of this unit.',
})
  .meta(
    route(
      'GET',
      '/api/units/{unit_id}/feedback_template_groups',
      'Feedback templates',
      "A unit's feedback template groups, with their templates and usage counts",
      {
        description: 'Staff of the unit (and Admin). Two SQL statements whatever the number of groups. See docs/marking/templates.md.',
      },
    ),
  )
  .output(z.array(templateGroupOut))
  .query(({ ctx, input }) => listTemplateGroups(ctx.em, ctx.unit.id, input.task_definition_id));
