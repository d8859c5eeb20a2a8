import { refId } from '../../../../db/refs.ts';
import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { applyTemplates } from '../../../../operations/projects/task_def_id/feedback_templates/apply-templates.ts';
import { appliedTemplatesOut, applyTemplatesInput } from './schemas.ts';

export const applyFeedbackTemplates = taskMutation(applyTemplatesInput, {
  task: 'assess',
  refused: 'Not authorised to give feedback on this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/feedback_templates',
      'Feedback templates',
      'Post feedback from templates, and optionally their suggested status',
      {
        description:
          'Staff of the unit. The templates, filled in for this student and task, become one comment; with `apply_status` their suggested status ' +
          'is applied too, in the same transaction. See docs/marking/templates.md.',
      },
    ),
  )
  .output(appliedTemplatesOut)
  .mutation(({ ctx, input }) =>
    applyTemplates(
      ctx.em,
      { storage: ctx.storage, now: ctx.clock.now() },
      { taskId: ctx.taskId, projectId: ctx.project.id, studentId: refId(ctx.project.user), unitId: ctx.unit.id, definition: ctx.definition },
      { userId: ctx.user.id, role: ctx.projectRole },
      input,
    ),
  );
