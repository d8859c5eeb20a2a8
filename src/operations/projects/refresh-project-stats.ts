// A project's stored progress stats, recomputed from its tasks: the task workflow calls this when a
// status changes, a project's update when its target grade changes.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { projectStats } from '../../domain/project-stats.ts';

/**
 * Recomputes the stored progress stats of these projects from their tasks (behaviour.md §4.6):
 * two reads and one write whatever their number. Called when the target grade changes; the task
 * workflow calls it when a status changes.
 */
export async function refreshProjectStats(em: Em, projectIds: number[]): Promise<void> {
  if (projectIds.length === 0) return;
  const k = db(em);
  const projects = await k
    .selectFrom('projects as p')
    .select(['p.id', 'p.target_grade'])
    .select(sql<number>`(select count(*)::int from task_definitions d where d.unit_id = p.unit_id and d.target_grade <= p.target_grade)`.as('definitions'))
    .where('p.id', 'in', projectIds)
    .execute();
  const tasks = await k
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .select(['t.project_id', 't.status'])
    .where('t.project_id', 'in', projectIds)
    .whereRef('d.target_grade', '<=', 'p.target_grade')
    .execute();
  const statuses = new Map<number, TaskStatus[]>();
  for (const t of tasks) statuses.set(t.project_id, [...(statuses.get(t.project_id) ?? []), t.status as TaskStatus]);
  const values = sql.join(projects.map((p) => sql`(${p.id}::int, ${JSON.stringify(projectStats(p.definitions, statuses.get(p.id) ?? []))}::jsonb)`));
  await sql`update projects p set task_stats = v.stats from (values ${values}) as v(id, stats) where p.id = v.id`.execute(k);
}
