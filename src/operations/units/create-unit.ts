// Creating a unit, outside any procedure: the seed script and later imports call it with plain
// input. Rules from behaviour.md §7.3 and beyond-spec.md §2.2.
import { Unit, type IUnit } from '../../../schema/index.ts';
import type { SystemRole } from '../../../schema/enums.ts';
import { addDays, toDay } from '../../domain/dates.ts';
import { DISCUSS_TIMEOUT_DEFAULTS } from '../../domain/discuss-timeouts.ts';
import type { Em } from '../../db/orm.ts';
import { can, ROLE } from '../../policy/index.ts';
import { forbidden } from '../../lib/errors.ts';
import { employStaff } from '../unit_roles/change-staff.ts';
import { assertCodeFree, assertDates, discussTimeoutDays, findPeriod, type UnitSettings } from './unit-checks.ts';

export interface CreateUnitInput extends UnitSettings {
  name: string;
  code: string;
  main_convenor_user_id?: number;
}

/** The Monday after `today` (a unit without dates starts then, for 16 weeks). */
export function comingMonday(today: string): string {
  const weekday = new Date(`${today}T00:00:00.000Z`).getUTCDay();
  return addDays(today, (8 - weekday) % 7 || 7);
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
  const timeouts = discussTimeoutDays(input, DISCUSS_TIMEOUT_DEFAULTS);

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
    requireFeedbackComment: input.require_feedback_comment ?? false,
    extensionWeeksOnResubmitRequest: input.extension_weeks_on_resubmit_request ?? 0,
    discussTimeoutEnabled: input.discuss_timeout_enabled ?? false,
    discussTimeoutWarningDays: timeouts.warningDays,
    discussTimeoutExpireDays: timeouts.expireDays,
    portfolioAutoGenerationDate: portfolio,
  });
  await em.flush();
  // The first convenor employed becomes the main convenor (employStaff), so the one named goes first.
  const mainUserId = input.main_convenor_user_id ?? creator.id;
  await employStaff(em, { unitId: unit.id, userId: mainUserId, role: ROLE.convenor });
  // Whoever administers units sees them all; any other creator is employed to see theirs.
  if (mainUserId !== creator.id && !can(creator, 'admin_units')) await employStaff(em, { unitId: unit.id, userId: creator.id, role: ROLE.convenor });
  await em.refresh(unit);
  return unit;
}
