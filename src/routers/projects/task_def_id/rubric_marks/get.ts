import { readMarks } from '../../../../operations/projects/task_def_id/rubric_marks/read-marks.ts';
import { route } from '../../../../trpc/route.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { markOut, markPath } from './schemas.ts';

export const getRubricMarks = taskQuery(markPath, { task: 'get', projectField: 'project_id', refused: 'You are not authorised to see marks of this task' })
  .meta(
    route('GET', '/api/projects/{project_id}/task_def_id/{task_definition_id}/rubric_marks', 'Rubrics', "A task's rubric mark", {
      description: "Each criterion with the chosen level's title, description and points, the score and the task's grade. The student and the unit's staff.",
    }),
  )
  .output(markOut)
  .query(({ ctx }) => readMarks(ctx.em, ctx.taskId, ctx.definition.id));
