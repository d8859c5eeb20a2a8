// Open escalations (docs/marking/notes-moderation-escalation.md) per task of one unit, for the
// dashboard's one statement (workload.ts): each counts for the tutor of the escalated task's student,
// the person whose marking waits on the convenor. Served by the partial index of open escalations
// by unit (task_escalations_open_unit_index).
import { sql, type RawBuilder } from 'kysely';

/** Rows of `(task_id int, open int)` for the unit's unresolved escalations. */
export function openEscalationsByTask(unitId: number): RawBuilder<unknown> {
  return sql`select task_id, count(*)::int as open from task_escalations where unit_id = ${unitId} and resolved_at is null group by task_id`;
}
