// The workload dashboard (docs/marking/dashboard.md): per tutor of a unit, the tasks awaiting
// feedback and how long the oldest has waited, the median time from a submission to its first
// staff feedback over the last 7 and 28 days, the tasks assessed this week and the open
// escalations; per task definition the same for the convenor. One SQL statement whatever the
// unit's size: PostgreSQL aggregates and shapes the whole answer as one JSON value.
import { sql, type RawBuilder } from 'kysely';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { unitTaskTutorialJoin } from '../../../db/task-list.ts';
import { addDays } from '../../../domain/dates.ts';
import { FEEDBACK_WINDOWS_DAYS } from '../../../domain/workload.ts';
import { AWAITING_STAFF } from '../inbox-rows.ts';
import { openEscalationsByTask } from './open-escalations.ts';

/** The figures of one tutor (or of the tasks without one). Times in whole seconds; a median is null without a sample. */
export interface WorkloadFigures {
  awaiting_feedback: number;
  oldest_waiting_seconds: number | null;
  median_feedback_seconds_7d: number | null;
  feedbacks_7d: number;
  median_feedback_seconds_28d: number | null;
  feedbacks_28d: number;
  assessed_this_week: number;
  open_escalations: number;
}

export interface TutorWorkload extends WorkloadFigures {
  user_id: number;
  unit_role_id: number;
  role: string;
  first_name: string;
  last_name: string;
  username: string;
}

export interface DefinitionWorkload {
  task_definition_id: number;
  abbreviation: string;
  name: string;
  awaiting_feedback: number;
  oldest_waiting_seconds: number | null;
  median_feedback_seconds_28d: number | null;
  feedbacks_28d: number;
  assessed_this_week: number;
}

export interface Workload {
  unit_id: number;
  generated_at: string;
  week_start: string;
  tutors: TutorWorkload[];
  /** Tasks of students in no tutorial (or a tutorial without a tutor) for the definition's stream: the convenor's view only. */
  unassigned: Omit<WorkloadFigures, 'assessed_this_week'> | null;
  /** The convenor's view only. */
  task_definitions: DefinitionWorkload[] | null;
}

export interface WorkloadRequest {
  unitId: number;
  now: Date;
  /** The first day (UTC) of the week "assessed this week" counts: seven days from its midnight. */
  weekStart: string;
  /** Only this staff member's row (a tutor's own view); undefined: every staff member, the unassigned tasks and the definitions. */
  onlyUserId?: number;
}

const seconds = (value: RawBuilder<unknown>) => sql`round(${value})::bigint`;

/** The dashboard of one unit, in one statement. */
export async function unitWorkload(em: Em, request: WorkloadRequest): Promise<Workload> {
  const { unitId, now, weekStart, onlyUserId } = request;
  const [short, long] = FEEDBACK_WINDOWS_DAYS;
  const at = now.toISOString();
  const since = (days: number) => sql`(${at}::timestamptz - ${`${days} days`}::interval)`;
  const weekFrom = sql`(${weekStart}::date::timestamp at time zone 'UTC')`;
  const weekTo = sql`(${addDays(weekStart, 7)}::date::timestamp at time zone 'UTC')`;
  const everyone = onlyUserId === undefined;

  const figures = (w: string, a: string, s: string | null, e: string) => sql`
    'awaiting_feedback', coalesce(${sql.ref(`${w}.awaiting`)}, 0),
    'oldest_waiting_seconds', ${seconds(sql.ref(`${w}.oldest`))},
    'median_feedback_seconds_7d', ${seconds(sql.ref(`${a}.m_short`))},
    'feedbacks_7d', coalesce(${sql.ref(`${a}.n_short`)}, 0),
    'median_feedback_seconds_28d', ${seconds(sql.ref(`${a}.m_long`))},
    'feedbacks_28d', coalesce(${sql.ref(`${a}.n_long`)}, 0),
    ${s === null ? sql`` : sql`'assessed_this_week', coalesce(${sql.ref(`${s}.n`)}, 0),`}
    'open_escalations', coalesce(${sql.ref(`${e}.n`)}, 0)`;

  const { rows } = await sql<{ workload: string }>`
    with
    -- The unit's enrolled students' tasks and their tutor: the tutor of the student's tutorial in
    -- the definition's stream, chosen as the inbox chooses the tutorial (null: none).
    owned as (
      select t.id, t.task_definition_id, t.status, t.submission_date, t.updated_at, r.user_id as tutor_id
      from tasks t
      join projects p on p.id = t.project_id
      join task_definitions d on d.id = t.task_definition_id
      ${unitTaskTutorialJoin(unitId)}
      left join tutorials tu on tu.id = te.tutorial_id
      left join unit_roles r on r.id = tu.tutor_id
      where p.unit_id = ${unitId} and p.enrolled
    ),
    staff as (select user_id from unit_roles where unit_id = ${unitId}),
    -- Awaiting feedback: the inbox's "waiting on staff" statuses. Waiting since the task entered
    -- its status (its latest status comment to it), else its submission, else its last change.
    waiting as (
      select o.tutor_id, o.task_definition_id,
             extract(epoch from (${at}::timestamptz - coalesce(se.entered_at, o.submission_date, o.updated_at)))::float8 as age
      from owned o
      left join lateral (
        select max(c.created_at) as entered_at from task_comments c
        where c.task_id = o.id and c.kind = 'status' and c.task_status = o.status
      ) se on true
      where o.status in (${sql.join(AWAITING_STAFF)})
    ),
    -- Submissions (history entries a person opened) with the next one of the same task.
    subs as (
      select s.task_id, s.submitted_at,
             lead(s.submitted_at) over (partition by s.task_id order by s.submitted_at, s.id) as next_at
      from task_submissions s
      where s.submitted_by_id is not null and s.task_id in (select id from owned)
    ),
    -- Each submission's first feedback: the earliest comment (a status change included) by a
    -- member of the unit's staff after it and before the next submission, if that fell within the
    -- long window. Strictly after: a late submission's automatic assessment is written at the
    -- submission's own instant and is not feedback.
    answered as (
      select o.tutor_id, o.task_definition_id, f.first_at,
             extract(epoch from (f.first_at - s.submitted_at))::float8 as secs
      from subs s
      join owned o on o.id = s.task_id
      cross join lateral (
        select min(c.created_at) as first_at from task_comments c
        where c.task_id = s.task_id and c.created_at > s.submitted_at
          and (s.next_at is null or c.created_at < s.next_at)
          and c.kind <> 'assessment' and c.author_id in (select user_id from staff)
      ) f
      where (s.next_at is null or s.next_at > ${since(long)}) and f.first_at >= ${since(long)}
    ),
    -- Assessed this week: tasks of the unit whose assessment (history entry) a staff member made this week.
    assessed as (
      select distinct s.assessor_id as tutor_id, t.task_definition_id, s.task_id
      from task_submissions s
      join tasks t on t.id = s.task_id
      join projects p on p.id = t.project_id
      where p.unit_id = ${unitId} and s.assessed_at >= ${weekFrom} and s.assessed_at < ${weekTo}
        and s.assessor_id in (select user_id from staff)
    ),
    escalated as (
      select o.tutor_id, sum(x.open)::int as n
      from (${openEscalationsByTask(unitId)}) x
      join owned o on o.id = x.task_id
      group by o.tutor_id
    ),
    w as (select tutor_id, count(*)::int as awaiting, max(age) as oldest from waiting group by tutor_id),
    a as (
      select tutor_id,
             percentile_cont(0.5) within group (order by secs) filter (where first_at >= ${since(short)}) as m_short,
             (count(*) filter (where first_at >= ${since(short)}))::int as n_short,
             percentile_cont(0.5) within group (order by secs) as m_long,
             count(*)::int as n_long
      from answered group by tutor_id
    ),
    s as (select tutor_id, count(*)::int as n from assessed group by tutor_id)
    select json_build_object(
      'tutors', (
        select coalesce(json_agg(json_build_object(
                 'user_id', r.user_id, 'unit_role_id', r.id, 'role', r.role,
                 'first_name', u.first_name, 'last_name', u.last_name, 'username', u.username,
                 ${figures('w', 'a', 's', 'escalated')}
               ) order by u.last_name, u.first_name, r.user_id), '[]')
        from unit_roles r
        join users u on u.id = r.user_id
        left join w on w.tutor_id = r.user_id
        left join a on a.tutor_id = r.user_id
        left join s on s.tutor_id = r.user_id
        left join escalated on escalated.tutor_id = r.user_id
        where r.unit_id = ${unitId} ${everyone ? sql`` : sql`and r.user_id = ${onlyUserId}`}
      ),
      'unassigned', ${
        everyone
          ? sql`(
        select json_build_object(${figures('w', 'a', null, 'escalated')})
        from (select 1) one
        left join w on w.tutor_id is null
        left join a on a.tutor_id is null
        left join escalated on escalated.tutor_id is null
      )`
          : sql`null`
      },
      'task_definitions', ${
        everyone
          ? sql`(
        select coalesce(json_agg(json_build_object(
                 'task_definition_id', d.id, 'abbreviation', d.abbreviation, 'name', d.name,
                 'awaiting_feedback', coalesce(dw.awaiting, 0),
                 'oldest_waiting_seconds', ${seconds(sql.ref('dw.oldest'))},
                 'median_feedback_seconds_28d', ${seconds(sql.ref('da.m_long'))},
                 'feedbacks_28d', coalesce(da.n_long, 0),
                 'assessed_this_week', coalesce(ds.n, 0)
               ) order by d.target_date, d.abbreviation, d.id), '[]')
        from task_definitions d
        left join (select task_definition_id, count(*)::int as awaiting, max(age) as oldest from waiting group by task_definition_id) dw
          on dw.task_definition_id = d.id
        left join (select task_definition_id, percentile_cont(0.5) within group (order by secs) as m_long, count(*)::int as n_long
                   from answered group by task_definition_id) da on da.task_definition_id = d.id
        left join (select task_definition_id, count(distinct task_id)::int as n from assessed group by task_definition_id) ds
          on ds.task_definition_id = d.id
        where d.unit_id = ${unitId}
      )`
          : sql`null`
      }
    )::text as workload`.execute(db(em));
  const parsed = JSON.parse(rows[0]!.workload) as Pick<Workload, 'tutors' | 'unassigned' | 'task_definitions'>;
  return { unit_id: unitId, generated_at: at, week_start: weekStart, ...parsed };
}
