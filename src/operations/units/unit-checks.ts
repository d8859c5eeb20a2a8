// What creating, changing and copying a unit all check: its period exists, its dates are in order
// and its code is free in its period (behaviour.md §7.3).
import { TeachingPeriod } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { discussTimeoutError, type DiscussTimeoutSettings } from '../../domain/discuss-timeouts.ts';

export /** The settings a unit is created with or changed by (each optional: a default, or unchanged). */
interface UnitSettings {
  active?: boolean;
  auto_apply_extension_before_deadline?: boolean;
  send_notifications?: boolean;
  enable_sync_timetable?: boolean;
  enable_sync_enrolments?: boolean;
  allow_student_extension_requests?: boolean;
  allow_student_change_tutorial?: boolean;
  require_feedback_comment?: boolean;
  extension_weeks_on_resubmit_request?: number;
  discuss_timeout_enabled?: boolean;
  discuss_timeout_warning_days?: number;
  discuss_timeout_expire_days?: number;
  portfolio_auto_generation_date?: string;
  description?: string;
  teaching_period_id?: number;
  start_date?: string;
  end_date?: string;
}

export const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

export async function findPeriod(em: Em, id: number) {
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

export function assertDates(start: string, end: string, portfolio: string | null): void {
  if (dayMs(end) < dayMs(start)) throw badRequest('End date should be after the start date');
  if (portfolio !== null && !(dayMs(portfolio) > dayMs(start) && dayMs(portfolio) <= dayMs(end))) {
    throw badRequest('Portfolio auto generation date should be after the start date and not after the end date');
  }
}

/**
 * The discuss-timeout days a unit ends up with: those sent, else the current ones. Refused with 400
 * before the table's check constraint (warning at least 1, expiry above it) would be.
 */
export function discussTimeoutDays(fields: UnitSettings, current: DiscussTimeoutSettings): DiscussTimeoutSettings {
  const days = {
    warningDays: fields.discuss_timeout_warning_days ?? current.warningDays,
    expireDays: fields.discuss_timeout_expire_days ?? current.expireDays,
  };
  const error = discussTimeoutError(days);
  if (error) throw badRequest(error);
  return days;
}
