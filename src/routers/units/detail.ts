// The full unit (GET /api/units/{id}; also the answer of create and rollover): the unit and every
// collection the web client maps, one query per collection whatever the unit's size (nine in
// all), run side by side. Each collection comes from its owner's loader; alignments and groups are
// read here. Counts (students per tutorial and per group) are aggregated by PostgreSQL.
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { UnitRoleName } from '../../policy/index.ts';
import { notFound } from '../../trpc/errors.ts';
import { tutorialsOfUnit } from '../tutorials/rows.ts';
import { staffOfUnit } from '../unit_roles/staff.ts';
import { loadOutcomes } from './outcomes/schemas.ts';
import type { UnitOut } from './schemas.ts';
import { loadTaskDefinitions, toTaskDefinition } from './task_definitions/schemas.ts';
import { streamsOfUnit } from './tutorial_streams/rows.ts';

const STAFF_ROLES: readonly (UnitRoleName | null)[] = ['Tutor', 'Convenor', 'Admin'];
const ADMIN_STAFF: readonly (UnitRoleName | null)[] = ['Convenor', 'Admin'];

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
    loadOutcomes(em, unitId),
    streamsOfUnit(em, unitId),
    staffOfUnit(em, unitId),
    tutorialsOfUnit(em, unitId),
    loadTaskDefinitions(em, unitId),
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
    staff,
    tutorials,
    task_definitions: definitions.map((d) => toTaskDefinition(d, { staff: isStaff, unitEndDate: unit.end_date })),
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
