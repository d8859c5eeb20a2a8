// THE PLUG FOR ESCALATIONS (issue 18 §4). The escalations table arrives with Migration00016 on
// another branch; until it is merged this piece has no rows, so every "open escalations" count is 0.
// Once merged, replace the body with one grouped select over that table, keeping the two columns:
//
//   select e.task_id, count(*)::int as open
//   from escalations e
//   where e.resolved_at is null          -- whatever marks an escalation as still open
//   group by e.task_id
//
// It is embedded in the dashboard's one statement (workload.ts), so the statement count does not
// change, and each open escalation counts for the tutor of the escalated task's student.
import { sql, type RawBuilder } from 'kysely';

/** Open escalations per task of any unit: rows of `(task_id int, open int)`; the caller joins them to the unit's tasks. */
export function openEscalationsByTask(): RawBuilder<unknown> {
  return sql`select null::int as task_id, 0 as open where false`;
}
