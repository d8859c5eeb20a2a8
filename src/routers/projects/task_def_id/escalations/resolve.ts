import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { resolveEscalation as resolve } from '../../../../operations/projects/task_def_id/escalations/escalations.ts';
import { escalationOut, resolveInput } from './schemas.ts';

export const resolveEscalation = taskMutation(resolveInput, {
  task: 'escalate',
  unit: 'oversee_marking',
  refused: 'Only a convenor of the unit may resolve an escalation',
  projectField: 'project_id',
})
  .meta(
    route('PUT', '/api/projects/{project_id}/task_def_id/{task_definition_id}/escalations/{id}', 'Escalations', 'Resolve an escalation', {
      description: 'A convenor of the unit, with an optional `note`. The task leaves the inbox of convenors; 400 when already resolved.',
    }),
  )
  .output(escalationOut)
  .mutation(({ ctx, input }) => resolve(ctx.em, ctx.taskId, input.id, ctx.user.id, input.note, ctx.clock.now()));
