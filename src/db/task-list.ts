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

/** How many extension requests of the task wait for an answer. */
export const pendingExtensions = sql<number>`(select count(*)::int from task_comments x
  where x.task_id = t.id and x.kind = 'extension' and x.extension_assessed_at is null)`;

/** Comments other than status changes that `viewerId` has not read. */
export const newComments = (viewerId: number) => sql<number>`(select count(*)::int from task_comments c
  where c.task_id = t.id and c.kind <> 'status'
    and not exists (select 1 from comment_read_receipts r where r.comment_id = c.id and r.user_id = ${viewerId}))`;
