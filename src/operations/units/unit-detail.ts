// The full unit (GET /api/units/{id}; also the answer of create and rollover): the unit and every
// collection the web client maps, one query per collection whatever the unit's size (nine in
// all), run side by side. Each collection comes from its owner's loader; alignments are read
// here. Counts (students per tutorial and per group) are aggregated by PostgreSQL.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { canInUnit, type UnitRoleName } from '../../policy/index.ts';
import { definitionFiles, type Storage } from '../../storage/index.ts';
import { notFound } from '../../lib/errors.ts';
import { tutorialsOfUnit } from '../tutorials/tutorial-rows.ts';
import { staffOfUnit } from '../unit_roles/staff-rows.ts';
import { loadOutcomes } from './outcomes/outcome-rows.ts';
import { loadTaskDefinitions, toTaskDefinition } from './task_definitions/load-task-definitions.ts';
import { streamsOfUnit } from './tutorial_streams/stream-rows.ts';
import { groupSetsOfUnit } from './group_sets/read-group-sets.ts';
import { groupsOfUnit } from './group_sets/groups/read-groups.ts';

export async function unitDetail(em: Em, unitId: number, role: UnitRoleName | null, storage: Storage) {
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
    groupSetsOfUnit(em, unitId),
    groupsOfUnit(em, unitId),
  ]);
  if (!unit) throw notFound('Unable to find requested Unit');
  // has_task_sheet and the like: whether each definition's files are stored (no query).
  const files = await definitionFiles(
    storage,
    definitions.map((d) => d.id),
  );

  const isStaff = canInUnit(role, 'see_staff_fields');
  // Those who may change the unit see the overseer image it is assessed with.
  const isAdminStaff = canInUnit(role, 'update');
  return {
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
    discuss_timeout_enabled: unit.discuss_timeout_enabled,
    discuss_timeout_warning_days: unit.discuss_timeout_warning_days,
    discuss_timeout_expire_days: unit.discuss_timeout_expire_days,
    ilos,
    tutorial_streams: streams,
    staff,
    tutorials,
    task_definitions: definitions.map((d) => toTaskDefinition(d, { staff: isStaff, unitEndDate: unit.end_date, files: files.get(d.id) })),
    task_outcome_alignments: alignments,
    group_sets: groupSets,
    groups,
    ...(unit.teaching_period_id !== null && { teaching_period_id: unit.teaching_period_id }),
    ...(isStaff && {
      ...(unit.portfolio_auto_generation_date !== null && { portfolio_auto_generation_date: unit.portfolio_auto_generation_date }),
      auto_apply_extension_before_deadline: unit.auto_apply_extension_before_deadline,
      send_notifications: unit.send_notifications,
      enable_sync_enrolments: unit.enable_sync_enrolments,
      enable_sync_timetable: unit.enable_sync_timetable,
      draft_task_definition_id: unit.draft_task_definition_id,
      extension_weeks_on_resubmit_request: unit.extension_weeks_on_resubmit_request,
      require_feedback_comment: unit.require_feedback_comment,
    }),
    ...(isAdminStaff && { overseer_image_id: unit.overseer_image_id }),
  };
}
