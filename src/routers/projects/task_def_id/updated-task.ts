// The task "after update" (spec §2, behaviour.md §4.2 item 10): what a trigger, an upload or an
// overseer test answers. Loaded in one query for the task and its group's other tasks.
import { sql } from 'kysely';
import { z } from 'zod';
import { db, timestamp } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { dueDay } from '../../../domain/task-rules.ts';
import { toDay } from '../../../domain/dates.ts';

export const updatedTaskOut = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  task_definition_id: z.number().int(),
  status: z.string(),
  due_date: z.string().describe('YYYY-MM-DD: the target date plus granted extensions, capped at the deadline'),
  submission_date: z.string().optional().describe('YYYY-MM-DD; absent until work is submitted'),
  completion_date: z.string().optional().describe('YYYY-MM-DD; absent until the task is ready or complete'),
  extensions: z.number().int(),
  times_assessed: z.number().int(),
  grade: z.number().int().optional(),
  quality_pts: z.number().int().optional(),
  include_in_portfolio: z.boolean(),
  similarity_flag: z.boolean(),
  num_new_comments: z.number().int(),
  new_stats: z.string().describe('The project\'s progress as a JSON string: red_pct, grey_pct, orange_pct, blue_pct, green_pct, order_scale'),
  other_projects: z.array(z.object({ id: z.number().int(), new_stats: z.string() })).optional().describe('Group tasks: the other members\' projects and their progress'),
});
export type UpdatedTaskOut = z.infer<typeof updatedTaskOut>;

/**
 * The answer for `taskId` as `viewerId` sees it; `otherTaskIds` are the group's other tasks that
 * changed with it (their projects' new stats are listed). One query.
 */
export async function loadUpdatedTask(em: Em, taskId: number, viewerId: number, otherTaskIds: number[] = []): Promise<UpdatedTaskOut> {
  const ids = [taskId, ...otherTaskIds.filter((id) => id !== taskId)];
  const rows = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .select([
      't.id',
      't.project_id',
      't.task_definition_id',
      't.status',
      't.extensions',
      't.submission_date',
      't.completion_date',
      't.times_assessed',
      't.grade',
      't.quality_pts',
      't.include_in_portfolio',
      't.group_submission_id',
      'd.target_date',
      'd.due_date',
      'u.end_date',
      'p.task_stats',
    ])
    .select(sql<boolean>`exists (select 1 from task_similarities m where m.task_id = t.id and m.flagged)`.as('flagged'))
    .select(
      sql<number>`(select count(*)::int from task_comments c where c.task_id = t.id and c.kind <> 'status'
        and not exists (select 1 from comment_read_receipts r where r.comment_id = c.id and r.user_id = ${viewerId}))`.as('num_new_comments'),
    )
    .where('t.id', 'in', ids)
    .execute();
  const stats = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const t = rows.find((r) => r.id === taskId)!;
  const out: UpdatedTaskOut = {
    id: t.id,
    project_id: t.project_id,
    task_definition_id: t.task_definition_id,
    status: t.status,
    due_date: dueDay({ targetDate: String(t.target_date).slice(0, 10), deadline: String(t.due_date ?? t.end_date).slice(0, 10) }, t.extensions),
    extensions: t.extensions,
    times_assessed: t.times_assessed,
    include_in_portfolio: t.include_in_portfolio,
    similarity_flag: Boolean(t.flagged),
    num_new_comments: t.num_new_comments,
    new_stats: stats(t.task_stats),
  };
  if (t.submission_date !== null) out.submission_date = toDay(timestamp(t.submission_date));
  if (t.completion_date !== null) out.completion_date = String(t.completion_date).slice(0, 10);
  if (t.grade !== null) out.grade = t.grade;
  if (t.quality_pts !== null) out.quality_pts = t.quality_pts;
  if (t.group_submission_id !== null) {
    out.other_projects = rows.filter((r) => r.id !== taskId).map((r) => ({ id: r.project_id, new_stats: stats(r.task_stats) }));
  }
  return out;
}
