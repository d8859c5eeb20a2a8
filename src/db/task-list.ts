// The parts every list of students' tasks shares (behaviour.md §4.7), as SQL fragments for one
// query over any number of tasks: the task's tutorial, and the per-task flags and counts. Each
// fragment expects the query to name the task `t`, its project `p` and its definition `d`.
import { sql, type RawBuilder } from 'kysely';
import { db } from './kysely.ts';
import type { Em } from './orm.ts';

/** Students' tasks with their project `p`, unit `u` and definition `d`: where such a query starts. */
export function tasksWithUnit(em: Em) {
  return db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id');
}

/**
 * `left join lateral (...) <alias> on true`, giving `<alias>.tutorial_id` and
 * `<alias>.tutorial_stream_id` (null when none): the student's tutorial in the definition's
 * stream, else one without a stream, as the original joins them. An exact stream wins, then the
 * earliest enrolment; one row at most, so a task is never listed twice. (The student's tutor,
 * src/operations/tasks/people.ts tutorFor, is chosen the same way.)
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

/**
 * The same tutorial as taskTutorialJoin, for every task of one unit at once: `left join (...)
 * <alias> on ...`, giving `<alias>.tutorial_id`. taskTutorialJoin looks the tutorial up once per
 * task, and PostgreSQL plans that lookup as a scan of the unit's tutorials per task (at 300
 * students, 9,000 tasks: over a second of a 1.5 s inbox). Here the choice is made once per
 * student and stream (the unit's definitions name only a few streams) and joined by hash.
 * Streams are keyed by `coalesce(id, 0)`, so that "no stream" joins like any other key.
 */
export function unitTaskTutorialJoin(unitId: number, alias = 'te'): RawBuilder<unknown> {
  return sql`left join (
      select distinct on (pe.project_id, ds.stream_key) pe.project_id, ds.stream_key, pe.tutorial_id
      from (
        select e.project_id, e.id as enrolment_id, e.tutorial_id, tu.tutorial_stream_id
        from tutorial_enrolments e
        join tutorials tu on tu.id = e.tutorial_id
        join projects ep on ep.id = e.project_id
        where ep.unit_id = ${unitId}
      ) pe
      join (select distinct tutorial_stream_id, coalesce(tutorial_stream_id, 0) as stream_key from task_definitions where unit_id = ${unitId}) ds
        on pe.tutorial_stream_id = ds.tutorial_stream_id or pe.tutorial_stream_id is null
      order by pe.project_id, ds.stream_key, (pe.tutorial_stream_id is null), pe.enrolment_id
    ) ${sql.ref(alias)} on ${sql.ref(alias)}.project_id = p.id and ${sql.ref(alias)}.stream_key = coalesce(d.tutorial_stream_id, 0)`;
}

/**
 * When a task is due, as SQL over a `date` target, a `date` deadline and the granted weeks: the
 * rule of dueDay (src/domain/task-rules.ts), for lists that PostgreSQL shapes whole.
 * test/domain/due-day-sql.test.ts holds the two to the same answers.
 */
export function dueDaySql(targetDate: RawBuilder<unknown>, deadline: RawBuilder<unknown>, extensions: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(case when ${extensions} = 0 then ${targetDate} else least(${targetDate} + 7 * ${extensions}, ${deadline}) end)`;
}

/** A `timestamptz` as JavaScript's toISOString writes it (UTC, milliseconds, `Z`), or null. */
export function isoInstant(value: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
