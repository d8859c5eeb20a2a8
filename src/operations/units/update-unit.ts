// Changing a unit, outside any procedure. Rules from behaviour.md §7.3 and beyond-spec.md §2.2.
import { sql } from 'kysely';
import { TaskDefinition, type IUnit } from '../../../schema/index.ts';
import { toDay } from '../../domain/dates.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { CONVENOR_CAPABLE, ROLE } from '../../policy/index.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { assertCodeFree, assertDates, dayMs, discussTimeoutDays, findPeriod, type UnitSettings } from './unit-checks.ts';

export interface UpdateUnitFields extends UnitSettings {
  name?: string;
  code?: string;
  main_convenor_id?: number;
  assessment_enabled?: boolean;
  draft_task_definition_id?: number | null;
  overseer_image_id?: number | null;
}

/** Every PUT field and what the original checks of it; answers with the fields it was sent. */
export async function updateUnit(em: Em, unit: IUnit, fields: UpdateUnitFields): Promise<Record<string, unknown>> {
  if (fields.teaching_period_id !== undefined && (fields.start_date !== undefined || fields.end_date !== undefined)) {
    throw badRequest(`teaching_period_id, ${fields.start_date !== undefined ? 'start_date' : 'end_date'} are mutually exclusive`);
  }
  const oldStart = unit.startDate;
  let periodId = unit.teachingPeriod ? (unit.teachingPeriod as unknown as { id: number }).id : null;
  let start = unit.startDate;
  let end = unit.endDate;

  if (fields.teaching_period_id === -1) periodId = null;
  else if (fields.teaching_period_id !== undefined) {
    const period = await findPeriod(em, fields.teaching_period_id);
    periodId = period.id;
    start = toDay(period.startDate);
    end = toDay(period.endDate);
  }
  // Dates of their own take a unit out of its period.
  if (fields.start_date !== undefined) {
    periodId = null;
    start = fields.start_date;
  }
  if (fields.end_date !== undefined) {
    if (periodId !== null) periodId = null;
    end = fields.end_date;
  }
  const portfolio = fields.portfolio_auto_generation_date !== undefined ? fields.portfolio_auto_generation_date : (unit.portfolioAutoGenerationDate ?? null);
  assertDates(start, end, portfolio);
  const timeouts = discussTimeoutDays(fields, { warningDays: unit.discussTimeoutWarningDays, expireDays: unit.discussTimeoutExpireDays });
  const code = fields.code ?? unit.code;
  if (code !== unit.code || periodId !== (unit.teachingPeriod ? (unit.teachingPeriod as unknown as { id: number }).id : null)) {
    await assertCodeFree(em, code, periodId, unit.id);
  }

  if (fields.main_convenor_id !== undefined) {
    const role = await db(em)
      .selectFrom('unit_roles as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.role', 'u.system_role'])
      .where('r.id', '=', fields.main_convenor_id)
      .where('r.unit_id', '=', unit.id)
      .executeTakeFirst();
    if (role?.role !== ROLE.convenor || !CONVENOR_CAPABLE.includes(role.system_role)) {
      throw badRequest('Main convenor must be a convenor of this unit');
    }
  }
  if (fields.draft_task_definition_id !== undefined && fields.draft_task_definition_id !== null) {
    const draft = await em.findOne(TaskDefinition, { id: fields.draft_task_definition_id });
    if (!draft || (draft.unit as unknown as { id: number }).id !== unit.id) throw forbidden('Draft task definition ID does not belong to unit');
    const uploads = draft.uploadRequirements ?? [];
    if (uploads.length !== 1 || uploads[0].type !== 'document') throw forbidden('Task definition should contain only a single document upload');
  }
  if (fields.overseer_image_id !== undefined && fields.overseer_image_id !== null) {
    const image = await db(em).selectFrom('overseer_images').select('id').where('id', '=', fields.overseer_image_id).executeTakeFirst();
    if (!image) throw notFound('Unable to find requested Overseer image');
  }

  em.assign(unit, {
    name: fields.name ?? unit.name,
    code,
    description: fields.description ?? unit.description,
    teachingPeriod: periodId,
    startDate: start,
    endDate: end,
    portfolioAutoGenerationDate: portfolio,
    ...(fields.active !== undefined && { active: fields.active }),
    ...(fields.assessment_enabled !== undefined && { assessmentEnabled: fields.assessment_enabled }),
    ...(fields.auto_apply_extension_before_deadline !== undefined && { autoApplyExtensionBeforeDeadline: fields.auto_apply_extension_before_deadline }),
    ...(fields.send_notifications !== undefined && { sendNotifications: fields.send_notifications }),
    ...(fields.enable_sync_timetable !== undefined && { enableSyncTimetable: fields.enable_sync_timetable }),
    ...(fields.enable_sync_enrolments !== undefined && { enableSyncEnrolments: fields.enable_sync_enrolments }),
    ...(fields.allow_student_extension_requests !== undefined && { allowStudentExtensionRequests: fields.allow_student_extension_requests }),
    ...(fields.allow_student_change_tutorial !== undefined && { allowStudentChangeTutorial: fields.allow_student_change_tutorial }),
    ...(fields.require_feedback_comment !== undefined && { requireFeedbackComment: fields.require_feedback_comment }),
    ...(fields.extension_weeks_on_resubmit_request !== undefined && { extensionWeeksOnResubmitRequest: fields.extension_weeks_on_resubmit_request }),
    ...(fields.discuss_timeout_enabled !== undefined && { discussTimeoutEnabled: fields.discuss_timeout_enabled }),
    discussTimeoutWarningDays: timeouts.warningDays,
    discussTimeoutExpireDays: timeouts.expireDays,
    ...(fields.main_convenor_id !== undefined && { mainConvenor: fields.main_convenor_id }),
    ...(fields.draft_task_definition_id !== undefined && { draftTaskDefinition: fields.draft_task_definition_id }),
    ...(fields.overseer_image_id !== undefined && { overseerImage: fields.overseer_image_id }),
  } as never);
  await em.flush();

  // A new start moves every task definition's dates by the same number of days (§7.3).
  const shift = Math.round((dayMs(start) - dayMs(oldStart)) / 86_400_000);
  if (shift !== 0) {
    await db(em)
      .updateTable('task_definitions')
      .set({
        start_date: sql`start_date + ${shift}::int`,
        target_date: sql`target_date + ${shift}::int`,
        due_date: sql`due_date + ${shift}::int`,
      } as never)
      .where('unit_id', '=', unit.id)
      .execute();
  }
  return { ...fields };
}
