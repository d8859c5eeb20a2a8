import { z } from 'zod';
import { route } from '../../../../trpc/route.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { escalationRows } from '../../../../operations/projects/task_def_id/escalations/escalations.ts';
import { escalationOut, taskInput } from './schemas.ts';

export const listEscalations = taskQuery(taskInput, { task: 'escalate', refused: 'Not authorised to see escalations of this task', projectField: 'project_id' })
  .meta(
    route('GET', '/api/projects/{project_id}/task_def_id/{task_definition_id}/escalations', 'Escalations', "A task's escalations to the convenor", {
      description: 'Staff of the unit only; never the student. Oldest first.',
    }),
  )
  .output(z.array(escalationOut))
  .query(({ ctx }) => escalationRows(ctx.em, ctx.taskId));
