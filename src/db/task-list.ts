// The parts every list of students' tasks shares (behaviour.md §4.7), as SQL fragments for one
// query over any number of tasks: the task's tutorial, and the per-task flags and counts. Each
// fragment expects the query to name the task `t`, its project `p` and its definition `d`.
import { sql, type RawBuilder } from 'kysely';

/**
 * `left join lateral (...) <alias> on true`, giving `<alias>.tutorial_id` and
 * `<alias>.tutorial_stream_id` (null when none): the student's tutorial in the definition's
 * stream, else one without a stream, as the original joins them. An exact stream wins, then the
 * earliest enrolment; one row at most, so a task is never listed twice. (The student's tutor,
 * src/workflow/people.ts tutorFor, is chosen the same way.)
 */
export function taskTutorialJoin(alias = 'te'): RawBuilder<unknown> {
  return sql`left join lateral (
      select e.tutorial_id, tu.tutorial_stream_id
      from tutorial_enrolments e
      join tutorials tu on tu.id = e.tutorial_id
      where e.project_id = p.id and (tu.tutorial_stream_id = d.tutorial_stream_id or tu.tutorial_stream_id is null)
      order by (tu.tutorial_stream_id is null), e.id
      limit 1
    ) ${sql.ref(alias)} on true`;
}

/** Some similarity of the task has been flagged. */
export const similarityFlag = sql<boolean>`exists (select 1 from task_similarities s where s.task_id = t.id and s.flagged)`;

/** How many of the task's comments, other than status changes, the viewer has not read. */
export const unreadComments = (viewerId: number) =>
  sql<number>`(select count(*)::int from task_comments c where c.task_id = t.id and c.kind <> 'status'
    and not exists (select 1 from comment_read_receipts r where r.comment_id = c.id and r.user_id = ${viewerId}))`;

/** How many extension requests of the task wait for an answer. */
export const pendingExtensions = sql<number>`(select count(*)::int from task_comments x
  where x.task_id = t.id and x.kind = 'extension' and x.extension_assessed_at is null)`;

/**
 * `left join (...) <alias> on <alias>.task_id = t.id`, giving per task of the unit `num_new`
 * (comments other than status changes the viewer has not read), `pending` (as
 * pendingExtensions) and `last_comment_at` (the latest comment other than a status change); no
 * row when the task has no comments. One pass over the unit's comments, which for a whole unit
 * is several times faster than three lookups per task.
 */
export function commentCountsJoin(unitId: number, viewerId: number, alias = 'cm'): RawBuilder<unknown> {
  return sql`left join (
      select c.task_id,
             (count(*) filter (where c.kind <> 'status' and r.id is null))::int as num_new,
             (count(*) filter (where c.kind = 'extension' and c.extension_assessed_at is null))::int as pending,
             max(c.created_at) filter (where c.kind <> 'status') as last_comment_at
      from task_comments c
      join tasks ct on ct.id = c.task_id
      join projects cp on cp.id = ct.project_id
      left join comment_read_receipts r on r.comment_id = c.id and r.user_id = ${viewerId}
      where cp.unit_id = ${unitId}
      group by c.task_id
    ) ${sql.ref(alias)} on ${sql.ref(alias)}.task_id = t.id`;
}
