import { Unit } from '../../../schema/index.ts';
import { rolesInUnits } from '../../policy/index.ts';
import type { Caller } from '../auth/session-tokens.ts';
import type { Em } from '../../db/orm.ts';

/**
 * The units of a teaching period as summaries, with the caller's role in each (null without a
 * caller). Two queries at most, however many units there are. The period's output schema checks
 * the shape.
 */
export async function unitSummaries(em: Em, teachingPeriodId: number, user: Caller | null) {
  const units = await em.find(
    Unit,
    { teachingPeriod: teachingPeriodId },
    { populate: ['mainConvenor'], strategy: 'joined', orderBy: { code: 'asc', id: 'asc' } },
  );
  if (units.length === 0) return [];

  const roles = user
    ? await rolesInUnits(
        em,
        user,
        units.map((u) => u.id),
      )
    : new Map();

  return units.map((u) => ({
    code: u.code,
    id: u.id,
    name: u.name,
    my_role: roles.get(u.id) ?? null,
    main_convenor_user_id: u.mainConvenor ? u.mainConvenor.user.id : null,
    description: u.description,
    start_date: u.startDate,
    end_date: u.endDate,
    active: u.active,
    teaching_period_id: teachingPeriodId,
  }));
}
