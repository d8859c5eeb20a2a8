import { route } from '../../../trpc/route.ts';
import { z } from 'zod';
import { db } from '../../../db/kysely.ts';
import { dueDay } from '../../../domain/task-rules.ts';
import { idField } from '../../../trpc/fields.ts';
import { taskQuery } from '../../../trpc/scopes/index.ts';

export const refreshTaskInput = z.object({ project_id: idField(), task_definition_id: idField() });

/** Spec §2 "Task refresh result". */
export const refreshedTaskOut = z.object({
  task_definition_id: z.number().int(),
  status: z.string(),
  due_date: z.string().describe('The due day (target date plus granted extensions, never past the deadline) as a timestamp at its start, UTC'),
  extensions: z.number().int(),
});

export const refreshTask = taskQuery(refreshTaskInput, {
  project: 'get',
  refused: 'You do not have permission to access this project',
  projectField: 'project_id',
})
  .meta(
    route(
      'GET',
      '/api/projects/{project_id}/refresh_tasks/{task_definition_id}',
      'Projects, submissions, comments',
      "A task's status, due date and extensions, for a quick refresh",
      {
        description:
          "The project's student or staff of its unit. Answers null when the student has no task for the definition yet " +
          '(tasks are created when first worked on); a definition of another unit is unknown (404).',
      },
    ),
  )
  .output(refreshedTaskOut.nullable())
  .query(async ({ ctx }) => {
    if (ctx.taskId === null) return null;
    const task = await db(ctx.em)
      .selectFrom('tasks as t')
      .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
      .innerJoin('units as u', 'u.id', 'd.unit_id')
      .select(['t.task_definition_id', 't.status', 't.extensions', 'd.target_date', 'd.due_date', 'u.end_date'])
      .where('t.id', '=', ctx.taskId)
      .executeTakeFirstOrThrow();
    const due = dueDay({ targetDate: String(task.target_date).slice(0, 10), deadline: String(task.due_date ?? task.end_date).slice(0, 10) }, task.extensions);
    return { task_definition_id: task.task_definition_id, status: task.status, due_date: `${due}T00:00:00.000Z`, extensions: task.extensions };
  });
