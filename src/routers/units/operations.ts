// Creating and changing units, outside any procedure: the seed script, rollover and later imports
// call these with plain input. Rules from behaviour.md §7.3 and beyond-spec.md §2.2.
import { sql } from 'kysely';
import { TaskDefinition, TeachingPeriod, Unit, type IUnit } from '../../../schema/index.ts';
import type { SystemRole } from '../../../schema/enums.ts';
import { addDays, toDay } from '../../domain/dates.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { CONVENOR_CAPABLE } from '../../policy/index.ts';
import { badRequest, forbidden, notFound } from '../../trpc/errors.ts';
import { employStaff } from '../unit_roles/operations.ts';
import type { CreateUnitInput, UpdateUnitFields } from './schemas.ts';

const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** The Monday after `today` (a unit without dates starts then, for 16 weeks). */
export function comingMonday(today: string): string {
  const weekday = new Date(`${today}T00:00:00.000Z`).getUTCDay();
  return addDays(today, (8 - weekday) % 7 || 7);
}

async function findPeriod(em: Em, id: number) {
  const period = await em.findOne(TeachingPeriod, { id });
  if (!period) throw notFound('Unable to find requested Teaching period');
  return period;
}

/** Code is unique within a teaching period (units in no period are not compared). */
export async function assertCodeFree(em: Em, code: string, teachingPeriodId: number | null, exceptUnitId?: number): Promise<void> {
  if (teachingPeriodId === null) return;
  const clash = await db(em)
    .selectFrom('units')
    .select('id')
    .where('code', '=', code)
    .where('teaching_period_id', '=', teachingPeriodId)
    .$if(exceptUnitId !== undefined, (q) => q.where('id', '<>', exceptUnitId!))
    .executeTakeFirst();
  if (clash) throw badRequest(`Code ${code} already exists in this teaching period`);
}

function assertDates(start: string, end: string, portfolio: string | null): void {
  if (dayMs(end) < dayMs(start)) throw badRequest('End date should be after the start date');
  if (portfolio !== null && !(dayMs(portfolio) > dayMs(start) && dayMs(portfolio) <= dayMs(end))) {
    throw badRequest('Portfolio auto generation date should be after the start date and not after the end date');
  }
}

export interface UnitCreator {
  id: number;
  systemRole: SystemRole;
}

/**
 * Creates a unit. Its main convenor is the user `main_convenor_user_id` names (the spec's field,
 * which the original ignored), employed as a Convenor; without it, the creator. A creator who is
 * not an Admin is employed as a Convenor too, so they keep the unit they made; an Admin who names
 * someone else is not put on the staff (Admins manage every unit anyway). With a teaching period
 * the unit takes the period's dates; without one and without dates it starts the coming Monday
 * and runs 16 weeks.
 */
export async function createUnit(em: Em, creator: UnitCreator, input: CreateUnitInput, today: string): Promise<IUnit> {
  const periodId = input.teaching_period_id !== undefined && input.teaching_period_id > 0 ? input.teaching_period_id : null;
  let start: string;
  let end: string;
  if (periodId !== null) {
    if (input.start_date !== undefined || input.end_date !== undefined) throw forbidden('Cannot specify dates as teaching period is selected');
    const period = await findPeriod(em, periodId);
    start = toDay(period.startDate);
    end = toDay(period.endDate);
  } else {
    start = input.start_date ?? comingMonday(today);
    end = input.end_date ?? addDays(start, 16 * 7);
  }
  const portfolio = input.portfolio_auto_generation_date ?? null;
  assertDates(start, end, portfolio);
  await assertCodeFree(em, input.code, periodId);

  const unit = em.create(Unit, {
    code: input.code,
    name: input.name,
    description: input.description || input.name,
    teachingPeriod: periodId,
    startDate: start,
    endDate: end,
    active: input.active ?? true,
    autoApplyExtensionBeforeDeadline: input.auto_apply_extension_before_deadline ?? true,
    sendNotifications: input.send_notifications ?? true,
    enableSyncTimetable: input.enable_sync_timetable ?? false,
    enableSyncEnrolments: input.enable_sync_enrolments ?? false,
    allowStudentExtensionRequests: input.allow_student_extension_requests ?? true,
    allowStudentChangeTutorial: input.allow_student_change_tutorial ?? true,
    extensionWeeksOnResubmitRequest: input.extension_weeks_on_resubmit_request ?? 0,
    portfolioAutoGenerationDate: portfolio,
  });
  await em.flush();
  // The first convenor employed becomes the main convenor (employStaff), so the one named goes first.
  const mainUserId = input.main_convenor_user_id ?? creator.id;
  await employStaff(em, { unitId: unit.id, userId: mainUserId, role: 'Convenor' });
  if (mainUserId !== creator.id && creator.systemRole !== 'Admin') await employStaff(em, { unitId: unit.id, userId: creator.id, role: 'Convenor' });
  await em.refresh(unit);
  return unit;
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
    if (role?.role !== 'Convenor' || !CONVENOR_CAPABLE.includes(role.system_role)) {
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
    ...(fields.extension_weeks_on_resubmit_request !== undefined && { extensionWeeksOnResubmitRequest: fields.extension_weeks_on_resubmit_request }),
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
