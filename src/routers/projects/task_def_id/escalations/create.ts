import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { escalateTask } from '../../../../operations/projects/task_def_id/escalations/escalations.ts';
import { escalateInput, escalationOut } from './schemas.ts';

export const createEscalation = taskMutation(escalateInput, { task: 'escalate', refused: 'Not authorised to escalate this task', projectField: 'project_id' })
  .meta(
    route('POST', '/api/projects/{project_id}/task_def_id/{task_definition_id}/escalations', 'Escalations', 'Escalate a task to the convenor', {
      description: "Staff of the unit. The task is marked `escalated` in the convenors' inbox until resolved; 400 while one is open.",
    }),
  )
  .output(escalationOut)
  .mutation(({ ctx, input }) =>
    escalateTask(ctx.em, { projectId: ctx.project.id, definitionId: ctx.definition.id, unitId: ctx.unit.id }, ctx.user.id, input.reason, ctx.clock.now()),
  );
