import { canInTask } from '../../../policy/index.ts';
import { taskMutation } from '../../../trpc/scopes/index.ts';
import { ensureTask } from '../../../operations/tasks/tasks.ts';
import { applyTaskChange, taskChangeRequest } from '../../../operations/projects/task_def_id/apply-task-change.ts';
import { updateTaskInput } from './schemas.ts';
import { loadUpdatedTask } from '../../../operations/projects/task_def_id/load-updated-task.ts';
import { updatedTaskOut } from './schemas.ts';

export const updateTask = taskMutation(updateTaskInput, { project: 'make_submission', refused: (id) => `Couldn't find Task with id=${id}` })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/projects/{id}/task_def_id/{task_definition_id}',
      tags: ['Projects, submissions, comments'],
      summary: "Change a task's status, grade, quality points or portfolio inclusion",
      description:
        "The student or staff of the unit. `trigger` names the new status (any of the original's aliases). Anyone with a role on the task may set not_started, working_on_it and need_help, and hand work in (ready_for_feedback, only for definitions without upload requirements); only staff assess (complete, discuss, demonstrate, fix_and_resubmit, redo, feedback_exceeded, fail, time_exceeded). A student's change of a closed task, or of a staff-assigned status on a restricted definition, changes nothing (the latter answers 403). A graded definition needs `grade` when assessed as complete, discuss or demonstrate; only staff grade. Group tasks change for every member. Answers the task after the change.",
    },
  })
  .output(updatedTaskOut)
  .mutation(async ({ ctx, input }) => {
    const { definition } = ctx;
    const now = ctx.clock.now();
    const taskId = ctx.taskId ?? (await ensureTask(ctx.em, ctx.project.id, definition.id, now));
    const request = taskChangeRequest(definition, input, { userId: ctx.user.id, role: ctx.projectRole }, taskId);
    const result = await applyTaskChange(ctx.em, taskId, request, definition, now);
    return loadUpdatedTask(ctx.em, taskId, ctx.user.id, result.taskIds, canInTask(ctx.projectRole, 'view_plagiarism', ctx.unit));
  });
