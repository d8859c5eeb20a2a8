// The full unit (GET /api/units/{id}; also the answer of create and rollover): the unit and every
// collection the web client maps, one query per collection whatever the unit's size (nine in
// all), run side by side. Counts (students per tutorial and per group) are aggregated by
// PostgreSQL, never by loading the rows.
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { PlagiarismCheck, UploadRequirement } from '../../../schema/index.ts';
import type { UnitRoleName } from '../../policy/index.ts';
import { notFound } from '../../trpc/errors.ts';
import type { UnitOut } from './schemas.ts';

const STAFF_ROLES: readonly (UnitRoleName | null)[] = ['Tutor', 'Convenor', 'Admin'];
const ADMIN_STAFF: readonly (UnitRoleName | null)[] = ['Convenor', 'Admin'];

/** A JSON list column; a list stored as JSON text (the ORM's text default) is read the same. */
function jsonList<T>(value: unknown): T[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

export async function unitDetail(em: Em, unitId: number, role: UnitRoleName | null): Promise<UnitOut> {
  const q = db(em);
  const [unit, ilos, streams, staff, tutorials, definitions, alignments, groupSets, groups] = await Promise.all([
    q
      .selectFrom('units as u')
      .leftJoin('unit_roles as mc', 'mc.id', 'u.main_convenor_id')
      .selectAll('u')
      .select('mc.user_id as main_convenor_user_id')
      .where('u.id', '=', unitId)
      .executeTakeFirst(),
    q
      .selectFrom('learning_outcomes')
      .select(['id', 'ilo_number', 'abbreviation', 'name', 'description'])
      .where('unit_id', '=', unitId)
      .orderBy('ilo_number')
      .orderBy('id')
      .execute(),
    q
      .selectFrom('tutorial_streams as s')
      .innerJoin('activity_types as a', 'a.id', 's.activity_type_id')
      .select(['s.id', 's.name', 's.abbreviation', 'a.abbreviation as activity_type'])
      .where('s.unit_id', '=', unitId)
      .orderBy('s.id')
      .execute(),
    q
      .selectFrom('unit_roles as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'r.role', 'u.id as user_id', 'u.email', 'u.first_name', 'u.last_name', 'u.username', 'u.nickname'])
      .where('r.unit_id', '=', unitId)
      .orderBy('r.id')
      .execute(),
    q
      .selectFrom('tutorials as t')
      .leftJoin('tutorial_streams as s', 's.id', 't.tutorial_stream_id')
      .leftJoin('unit_roles as r', 'r.id', 't.tutor_id')
      .select(['t.id', 't.meeting_day', 't.meeting_time', 't.meeting_location', 't.abbreviation', 't.campus_id', 't.capacity'])
      .select(['s.abbreviation as stream_abbr', 'r.user_id as tutor_user_id'])
      .select((eb) =>
        eb
          .selectFrom('tutorial_enrolments as e')
          .innerJoin('projects as p', 'p.id', 'e.project_id')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('e.tutorial_id', '=', 't.id')
          .where('p.enrolled', '=', true)
          .as('num_students'),
      )
      .where('t.unit_id', '=', unitId)
      .orderBy('t.abbreviation')
      .orderBy('t.id')
      .execute(),
    q
      .selectFrom('task_definitions as d')
      .leftJoin('tutorial_streams as s', 's.id', 'd.tutorial_stream_id')
      .selectAll('d')
      .select('s.abbreviation as stream_abbr')
      .where('d.unit_id', '=', unitId)
      .orderBy('d.start_date')
      .orderBy('d.abbreviation')
      .execute(),
    q
      .selectFrom('learning_alignments as a')
      .innerJoin('task_definitions as d', 'd.id', 'a.task_definition_id')
      .select(['a.id', 'a.description', 'a.rating', 'a.learning_outcome_id', 'a.task_definition_id'])
      .where('d.unit_id', '=', unitId)
      .where('a.task_id', 'is', null)
      .orderBy('a.id')
      .execute(),
    q
      .selectFrom('group_sets')
      .select(['id', 'name', 'allow_students_to_create_groups', 'allow_students_to_manage_groups', 'keep_groups_in_same_class', 'capacity', 'locked'])
      .where('unit_id', '=', unitId)
      .orderBy('id')
      .execute(),
    q
      .selectFrom('groups as g')
      .innerJoin('group_sets as gs', 'gs.id', 'g.group_set_id')
      .select(['g.id', 'g.name', 'g.tutorial_id', 'g.group_set_id', 'g.capacity_adjustment', 'g.locked'])
      .select((eb) =>
        eb
          .selectFrom('group_memberships as m')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('m.group_id', '=', 'g.id')
          .where('m.active', '=', true)
          .as('student_count'),
      )
      .where('gs.unit_id', '=', unitId)
      .orderBy('g.id')
      .execute(),
  ]);
  if (!unit) throw notFound('Unable to find requested Unit');

  const isStaff = STAFF_ROLES.includes(role);
  const isAdminStaff = ADMIN_STAFF.includes(role);
  const out: UnitOut = {
    code: unit.code,
    id: unit.id,
    name: unit.name,
    my_role: role,
    main_convenor_id: unit.main_convenor_id,
    main_convenor_user_id: unit.main_convenor_user_id,
    description: unit.description,
    start_date: unit.start_date,
    end_date: unit.end_date,
    active: unit.active,
    assessment_enabled: unit.assessment_enabled,
    allow_student_extension_requests: unit.allow_student_extension_requests,
    allow_student_change_tutorial: unit.allow_student_change_tutorial,
    ilos,
    tutorial_streams: streams,
    staff: staff.map((r) => ({
      id: r.id,
      role: r.role,
      user: { id: r.user_id, email: r.email, first_name: r.first_name, last_name: r.last_name, username: r.username, nickname: r.nickname ?? null },
    })),
    tutorials: tutorials.map((t) => ({
      id: t.id,
      meeting_day: t.meeting_day,
      meeting_time: t.meeting_time,
      meeting_location: t.meeting_location,
      abbreviation: t.abbreviation,
      ...(t.campus_id !== null && { campus_id: t.campus_id }),
      capacity: t.capacity,
      ...(t.stream_abbr !== null && { tutorial_stream_abbr: t.stream_abbr }),
      num_students: t.num_students ?? 0,
      ...(t.tutor_user_id !== null && { tutor_id: t.tutor_user_id }),
    })),
    task_definitions: definitions.map((d) => ({
      id: d.id,
      abbreviation: d.abbreviation,
      name: d.name,
      description: d.description,
      weighting: d.weighting,
      target_grade: d.target_grade,
      target_date: d.target_date,
      due_date: d.due_date ?? unit.end_date,
      start_date: d.start_date,
      upload_requirements: isStaff ? jsonList(d.upload_requirements) : jsonList<UploadRequirement>(d.upload_requirements).map(({ key, name, type }) => ({ key, name, type })),
      tutorial_stream_abbr: d.stream_abbr,
      group_set_id: d.group_set_id,
      // Task sheets and resources arrive with the files issue; no definition has one yet.
      has_task_sheet: false,
      has_task_resources: false,
      is_graded: d.is_graded,
      max_quality_pts: d.max_quality_pts,
      ...(isStaff && {
        plagiarism_checks: jsonList<PlagiarismCheck>(d.plagiarism_checks),
        plagiarism_warn_pct: d.plagiarism_warn_pct,
        restrict_status_updates: d.restrict_status_updates,
        has_task_assessment_resources: false,
        overseer_image_id: d.overseer_image_id,
        assessment_enabled: d.assessment_enabled,
        moss_language: d.moss_language,
      }),
    })),
    task_outcome_alignments: alignments,
    group_sets: groupSets,
    groups: groups.map((g) => ({ ...g, student_count: g.student_count ?? 0 })),
  };
  if (unit.teaching_period_id !== null) out.teaching_period_id = unit.teaching_period_id;
  if (isStaff) {
    if (unit.portfolio_auto_generation_date !== null) out.portfolio_auto_generation_date = unit.portfolio_auto_generation_date;
    out.auto_apply_extension_before_deadline = unit.auto_apply_extension_before_deadline;
    out.send_notifications = unit.send_notifications;
    out.enable_sync_enrolments = unit.enable_sync_enrolments;
    out.enable_sync_timetable = unit.enable_sync_timetable;
    out.draft_task_definition_id = unit.draft_task_definition_id;
    out.extension_weeks_on_resubmit_request = unit.extension_weeks_on_resubmit_request;
  }
  if (isAdminStaff) out.overseer_image_id = unit.overseer_image_id;
  return out;
}
