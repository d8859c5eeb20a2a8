import { route } from '../../../trpc/route.ts';
import { canInTask } from '../../../policy/index.ts';
import { taskMutation } from '../../../trpc/scopes/index.ts';
import { updateTask as update } from '../../../operations/projects/task_def_id/apply-task-change.ts';
import { updatedTaskOut, updateTaskInput } from './schemas.ts';

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
  .mutation(({ ctx, input }) =>
    update(
      ctx.em,
      { taskId: ctx.taskId, projectId: ctx.project.id, definition: ctx.definition },
      { userId: ctx.user.id, role: ctx.projectRole, seesSimilarity: canInTask(ctx.projectRole, 'view_plagiarism', ctx.unit) },
      input,
      ctx.clock.now(),
    ),
  );
