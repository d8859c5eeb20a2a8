// Which prerequisites of a student's task are unmet (docs/prerequisites.md): as SQL fragments that a
// list of tasks adds to its one query (no statement per task), and the server's refusal of a
// student's upload or hand-in while any is unmet. A prerequisite's task is the same student's task
// of the prerequisite definition; a missing task row counts as not_started.
import { sql, type RawBuilder } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { REACHING_PAIRS, unmetMessage, type UnmetPrerequisite } from '../../../../domain/prerequisites.ts';
import type { TaskStatus } from '../../../../domain/vocabulary.ts';
import { badRequest } from '../../../../lib/errors.ts';
import { canInTask, type TaskActor } from '../../../../policy/index.ts';

/** `(required, actual)` pairs where actual reaches required, from the pure rule; constants of our own, so inlined. */
const REACHING = sql.raw(`(values ${REACHING_PAIRS.map(([required, actual]) => `('${required}', '${actual}')`).join(', ')})`);

/** The link `tp`'s prerequisite task `pt` (left-joined) has not reached the link's status. */
const NOT_REACHED = sql`(tp.task_status, coalesce(pt.status, 'not_started')) not in ${REACHING}`;

const UNMET_OBJECT = sql`json_build_object('task_definition_id', tp.prerequisite_id, 'abbreviation', pd.abbreviation, 'task_status', tp.task_status)`;

/**
 * A JSON array of the unmet prerequisites of the task `t` (needs `t.project_id` and
 * `t.task_definition_id`), `[]` when none: for lists of one student's tasks, where the lookup per
 * row is an index probe inside the list's own statement.
 */
export const unmetPrerequisitesJson = sql<UnmetPrerequisite[]>`(
  select coalesce(json_agg(${UNMET_OBJECT} order by tp.id), '[]'::json)
  from task_prerequisites tp
  join task_definitions pd on pd.id = tp.prerequisite_id
  left join tasks pt on pt.project_id = t.project_id and pt.task_definition_id = tp.prerequisite_id
  where tp.task_definition_id = t.task_definition_id and ${NOT_REACHED})`;

/**
 * For a whole unit's list (the inbox): `left join (...) <alias> on ...`, giving `<alias>.unmet`, the
 * JSON array of a task's unmet prerequisites, or null when none. Computed once for the unit's links
 * times its students and joined by hash, not looked up per task.
 */
export function unitUnmetPrerequisitesJoin(unitId: number, alias = 'pr'): RawBuilder<unknown> {
  const a = sql.ref(alias);
  return sql`left join (
      select pp.id as project_id, tp.task_definition_id, json_agg(${UNMET_OBJECT} order by tp.id) as unmet
      from task_prerequisites tp
      join task_definitions dd on dd.id = tp.task_definition_id
      join task_definitions pd on pd.id = tp.prerequisite_id
      join projects pp on pp.unit_id = dd.unit_id
      left join tasks pt on pt.project_id = pp.id and pt.task_definition_id = tp.prerequisite_id
      where dd.unit_id = ${unitId} and ${NOT_REACHED}
      group by pp.id, tp.task_definition_id
    ) ${a} on ${a}.project_id = t.project_id and ${a}.task_definition_id = t.task_definition_id`;
}

/** The unmet prerequisites of the project's task of this definition (whether or not the task row exists). */
export async function unmetPrerequisites(em: Em, projectId: number, taskDefinitionId: number): Promise<UnmetPrerequisite[]> {
  const { rows } = await sql<{ unmet: UnmetPrerequisite[] }>`
    select ${unmetPrerequisitesJson} as unmet from (values (${projectId}::int, ${taskDefinitionId}::int)) as t(project_id, task_definition_id)`.execute(db(em));
  return rows[0]?.unmet ?? [];
}

/** What holds a student (`role`) back on the project's task of this definition; staff: nothing. */
async function unmetFor(em: Em, role: TaskActor, projectId: number, taskDefinitionId: number): Promise<UnmetPrerequisite[]> {
  return canInTask(role, 'assess') ? [] : unmetPrerequisites(em, projectId, taskDefinitionId);
}

/** Whether the task is locked for `role` (a student's passed online test then hands nothing in). */
export async function isLockedFor(em: Em, role: TaskActor, projectId: number, taskDefinitionId: number): Promise<boolean> {
  return (await unmetFor(em, role, projectId, taskDefinitionId)).length > 0;
}

/** A student's upload: 400 naming what is unmet. Staff are not held back. */
export async function refuseStudentWhileLocked(em: Em, role: TaskActor, projectId: number, taskDefinitionId: number): Promise<void> {
  const unmet = await unmetFor(em, role, projectId, taskDefinitionId);
  if (unmet.length > 0) throw badRequest(unmetMessage(unmet));
}

/**
 * changeTask's check, before anything is written: a student's change that would move the task to
 * ready_for_feedback (a trigger, or an upload that hands the work in) while a prerequisite is unmet
 * is a 400. Only the acting student's own task is checked; group members' tasks follow it.
 */
export async function refuseHandInWhileLocked(
  em: Em,
  task: { projectId: number; taskDefinitionId: number; state: { status: TaskStatus } },
  role: TaskActor,
  to: TaskStatus,
): Promise<void> {
  if (to !== 'ready_for_feedback' || task.state.status === to) return;
  await refuseStudentWhileLocked(em, role, task.projectId, task.taskDefinitionId);
}
