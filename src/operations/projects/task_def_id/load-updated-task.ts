// The task "after update" (spec §2, behaviour.md §4.2 item 10): what a trigger, an upload or an
// overseer test answers. The project page's task, plus its project, its progress and, for group
// work, the other members' progress; one query for the task and its group's other tasks.
import { z } from 'zod';
import type { Em } from '../../../db/orm.ts';
import { loadProjectTasks, projectTaskOut, statsText } from '../load-project-tasks.ts';

export const updatedTaskOut = projectTaskOut.extend({
  project_id: z.number().int(),
  submission_date: z.string().optional().describe('YYYY-MM-DD; absent until work is submitted'),
  new_stats: z.string().describe("The project's progress as a JSON string: red_pct, grey_pct, orange_pct, blue_pct, green_pct, order_scale"),
  other_projects: z
    .array(z.object({ id: z.number().int(), new_stats: z.string() }))
    .optional()
    .describe("Group tasks: the other members' projects and their progress"),
});
export type UpdatedTaskOut = z.infer<typeof updatedTaskOut>;

/**
 * The answer for `taskId` as `viewerId` sees it; `otherTaskIds` are the group's other tasks that
 * changed with it (their projects' new stats are listed).
 */
export async function loadUpdatedTask(em: Em, taskId: number, viewerId: number, otherTaskIds: number[] = [], seesSimilarity = false): Promise<UpdatedTaskOut> {
  const rows = await loadProjectTasks(em, { taskIds: [taskId, ...otherTaskIds.filter((id) => id !== taskId)] }, { userId: viewerId, seesSimilarity });
  const { group_submission_id, task_stats, ...task } = rows.find((r) => r.id === taskId)!;
  const out: UpdatedTaskOut = { ...task, new_stats: statsText(task_stats) };
  // The spec gives this answer's submission date as a day.
  if (task.submission_date !== undefined) out.submission_date = task.submission_date.slice(0, 10);
  if (group_submission_id !== null) {
    out.other_projects = rows.filter((r) => r.id !== taskId).map((r) => ({ id: r.project_id, new_stats: statsText(r.task_stats) }));
  }
  return out;
}
