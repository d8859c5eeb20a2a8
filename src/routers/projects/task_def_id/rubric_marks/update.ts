import { markTask } from '../../../../operations/projects/task_def_id/rubric_marks/mark-task.ts';
import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { markInput, markOut } from './schemas.ts';

export const markRubric = taskMutation(markInput, { task: 'assess', projectField: 'project_id', refused: 'You are not authorised to mark this task' })
  .meta(
    route('PUT', '/api/projects/{project_id}/task_def_id/{task_definition_id}/rubric_marks', 'Rubrics', 'Mark a task against its rubric', {
      description:
        "One level per criterion. Stores the choices and the score, and gives the task the score's mapped grade or quality points (as a grade change " +
        "through the task workflow), in one transaction. The unit's staff.",
    }),
  )
  .output(markOut)
  .mutation(({ ctx, input }) =>
    markTask(
      ctx.em,
      { taskId: ctx.taskId, projectId: ctx.project.id, definition: ctx.definition },
      { userId: ctx.user.id, role: ctx.projectRole },
      input,
      ctx.clock.now(),
    ),
  );
