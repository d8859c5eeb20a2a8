import { route } from '../../../trpc/route.ts';
import { canInTask } from '../../../policy/index.ts';
import { taskMutation } from '../../../trpc/scopes/index.ts';
import { ensureTask } from '../../../operations/tasks/tasks.ts';
import { applyTaskChange, taskChangeRequest } from '../../../operations/projects/task_def_id/apply-task-change.ts';
import { updateTaskInput } from './schemas.ts';
import { loadUpdatedTask } from '../../../operations/projects/task_def_id/load-updated-task.ts';
import { updatedTaskOut } from './schemas.ts';

export const updateTask = taskMutation(updateTaskInput, { project: 'make_submission', refused: (id) => `Couldn't find Task with id=${id}` })
  .meta(
    route(
      'PUT',
      '/api/projects/{id}/task_def_id/{task_definition_id}',
      'Projects, submissions, comments',
      "Change a task's status, grade, quality points or portfolio inclusion",
      {
        description: "The student or staff of the unit. `trigger` names the new status (any of the original's aliases). See " + 'docs/api/projects.md.',
      },
    ),
  )
  .output(updatedTaskOut)
  .mutation(async ({ ctx, input }) => {
    const { definition } = ctx;
    const now = ctx.clock.now();
    const taskId = ctx.taskId ?? (await ensureTask(ctx.em, ctx.project.id, definition.id, now));
    const request = taskChangeRequest(definition, input, { userId: ctx.user.id, role: ctx.projectRole }, taskId);
    const result = await applyTaskChange(ctx.em, taskId, request, definition, now);
    return loadUpdatedTask(ctx.em, taskId, ctx.user.id, result.taskIds, canInTask(ctx.projectRole, 'view_plagiarism', ctx.unit));
  });
