// The weekly summaries' figures (beyond-spec.md §7.1), read from comments and status comments: a
// status comment is written for every status change, so it stands for the original's engagements.
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { addDays } from '../../domain/dates.ts';
import { daysBetween, unitGetsSummaries } from '../../domain/weekly-summaries.ts';
import type { StaffFigures, UnitWeek } from '../../mail/templates.ts';

/** The week before `weekEnd`: from midnight UTC seven days earlier up to (not including) midnight of `weekEnd`. */
export function weekBounds(weekEnd: string): { start: string; end: string } {
  return { start: `${addDays(weekEnd, -7)}T00:00:00Z`, end: `${weekEnd}T00:00:00Z` };
}

/** Statuses only staff give: the assessments counted for a staff member. */
const ASSESSMENTS = sql`('complete', 'feedback_exceeded', 'redo', 'discuss', 'demonstrate', 'fail')`;

export async function unitWeek(em: Em, unitId: number, weekEnd: string): Promise<Omit<UnitWeek, 'unitName'>> {
  const { start, end } = weekBounds(weekEnd);
  const { rows } = await sql<{ comments: number; changes: number }>`
    select count(*) filter (where c.kind <> 'status')::int as comments, count(*) filter (where c.kind = 'status')::int as changes
      from task_comments c join tasks t on t.id = c.task_id join projects p on p.id = t.project_id
     where p.unit_id = ${unitId} and c.created_at >= ${start} and c.created_at < ${end}`.execute(db(em));
  return { weekEnd, unitComments: rows[0].comments, unitStatusChanges: rows[0].changes };
}

/**
 * Each staff member's figures in a unit (or only `unitRoleId`'s): their students are the enrolled
 * students of the tutorials they take; waiting work is those students' tasks ready for feedback
 * at or below the student's target grade, aged from the submission.
 */
export async function staffFigures(
  em: Em,
  unitId: number,
  unitRoleId: number | null,
  weekEnd: string,
): Promise<{ staff: (StaffFigures & { unitRoleId: number })[]; studentsWithoutTutorial: number }> {
  const { start, end } = weekBounds(weekEnd);
  const { rows } = await sql<Omit<StaffFigures, 'oldestWaitingDays'> & { unitRoleId: number; oldest: string | null }>`
    with roles as (
      select r.id, r.user_id, trim(u.first_name || ' ' || u.last_name) as name
        from unit_roles r join users u on u.id = r.user_id
       where r.unit_id = ${unitId} and (${unitRoleId}::int is null or r.id = ${unitRoleId}::int)),
    students as (
      select distinct tu.tutor_id as role_id, p.id as project_id, p.target_grade
        from tutorials tu join tutorial_enrolments e on e.tutorial_id = tu.id join projects p on p.id = e.project_id
       where tu.unit_id = ${unitId} and p.enrolled),
    unit_comments as (
      select c.* from task_comments c join tasks t on t.id = c.task_id join projects p on p.id = t.project_id where p.unit_id = ${unitId})
    select r.id as "unitRoleId", r.name,
           (select count(*) from students s where s.role_id = r.id)::int as students,
           (select count(*) from unit_comments c where c.author_id = r.user_id and c.kind = 'status'
               and c.task_status in ${ASSESSMENTS})::int as "assessmentsTotal",
           (select count(*) from unit_comments c where c.author_id = r.user_id and c.kind = 'status' and c.task_status in ${ASSESSMENTS}
               and c.created_at >= ${start} and c.created_at < ${end})::int as "assessmentsWeek",
           (select count(*) from unit_comments c where c.author_id = r.user_id and c.kind <> 'status')::int as "commentsTotal",
           (select count(*) from unit_comments c where c.author_id = r.user_id and c.kind <> 'status'
               and c.created_at >= ${start} and c.created_at < ${end})::int as "commentsWeek",
           (select count(*) from unit_comments c where c.recipient_id = r.user_id and c.kind <> 'status'
               and c.created_at >= ${start} and c.created_at < ${end})::int as "receivedWeek",
           (select count(*) from unit_comments c join tasks t on t.id = c.task_id join students s on s.project_id = t.project_id and s.role_id = r.id
             where c.kind = 'status' and c.created_at >= ${start} and c.created_at < ${end})::int as "studentStatusChanges",
           (select count(*) from tasks t join students s on s.project_id = t.project_id and s.role_id = r.id
              join task_definitions d on d.id = t.task_definition_id
             where t.status = 'ready_for_feedback' and d.target_grade <= s.target_grade)::int as "awaitingFeedback",
           (select min(t.submission_date)::text from tasks t join students s on s.project_id = t.project_id and s.role_id = r.id
              join task_definitions d on d.id = t.task_definition_id
             where t.status = 'ready_for_feedback' and d.target_grade <= s.target_grade) as oldest
      from roles r
     order by r.name, r.id`.execute(db(em));
  const without = await sql<{ n: number }>`
    select count(*)::int as n from projects p
     where p.unit_id = ${unitId} and p.enrolled and not exists (select 1 from tutorial_enrolments e where e.project_id = p.id)`.execute(db(em));
  return {
    staff: rows.map(({ oldest, ...f }) => ({ ...f, oldestWaitingDays: oldest === null ? 0 : daysBetween(new Date(oldest), weekEnd) })),
    studentsWithoutTutorial: without.rows[0].n,
  };
}

export interface WeeklyRecipients {
  projectIds: number[];
  unitRoleIds: number[];
}

/** Who gets a summary for the week ending `weekEnd`: enrolled students and staff of running units, who want feedback mails. */
export async function weeklyRecipients(em: Em, weekEnd: string): Promise<WeeklyRecipients> {
  const units = await sql<{ id: number; active: boolean; send_notifications: boolean; start_date: string; end_date: string }>`
    select id, active, send_notifications, start_date::text as start_date, end_date::text as end_date
      from units where active and send_notifications`.execute(db(em));
  const running = units.rows
    .filter((u) => unitGetsSummaries({ active: u.active, sendNotifications: u.send_notifications, startDate: u.start_date, endDate: u.end_date }, weekEnd))
    .map((u) => u.id);
  if (running.length === 0) return { projectIds: [], unitRoleIds: [] };
  const k = db(em);
  const [projects, roles] = await Promise.all([
    k
      .selectFrom('projects as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select('p.id')
      .where('p.unit_id', 'in', running)
      .where('p.enrolled', '=', true)
      .where('u.receive_feedback_notifications', '=', true)
      .orderBy('p.id')
      .execute(),
    k
      .selectFrom('unit_roles as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select('r.id')
      .where('r.unit_id', 'in', running)
      .where('u.receive_feedback_notifications', '=', true)
      .orderBy('r.id')
      .execute(),
  ]);
  return { projectIds: projects.map((p) => p.id), unitRoleIds: roles.map((r) => r.id) };
}
