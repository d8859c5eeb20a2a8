import { Project, Unit, UnitRole, type IUser } from '../../../schema/index.ts';
import type { Caller } from '../../lib/sessions.ts';
import type { Em } from '../../db/orm.ts';
import type { UnitSummaryOut } from './schemas.ts';

/**
 * The units of a teaching period as summaries, with the caller's role in each (reference §1.4:
 * Convenor or Tutor unit role, then an enrolled project, then system Admin; null otherwise and
 * without a caller). Three queries at most, however many units there are.
 */
export async function unitSummaries(em: Em, teachingPeriodId: number, user: Caller | null): Promise<UnitSummaryOut[]> {
  const units = await em.find(
    Unit,
    { teachingPeriod: teachingPeriodId },
    { populate: ['mainConvenor'], strategy: 'joined', orderBy: { code: 'asc', id: 'asc' } },
  );
  if (units.length === 0) return [];

  const staffRoles = new Map<number, string>();
  const enrolled = new Set<number>();
  if (user) {
    const unitIds = units.map((u) => u.id);
    const roles = await em.find(UnitRole, { user: user.id, unit: { $in: unitIds } });
    for (const role of roles) staffRoles.set(role.unit.id, role.role);
    const projects = await em.find(Project, { user: user.id, unit: { $in: unitIds }, enrolled: true });
    for (const project of projects) enrolled.add(project.unit.id);
  }

  const roleIn = (unitId: number): UnitSummaryOut['my_role'] => {
    if (!user) return null;
    const staff = staffRoles.get(unitId);
    if (staff === 'Convenor' || staff === 'Tutor') return staff;
    if (enrolled.has(unitId)) return 'Student';
    if (user.systemRole === 'Admin') return 'Admin';
    return null;
  };

  return units.map((u) => ({
    code: u.code,
    id: u.id,
    name: u.name,
    my_role: roleIn(u.id),
    main_convenor_user_id: u.mainConvenor ? u.mainConvenor.user.id : null,
    description: u.description,
    start_date: u.startDate,
    end_date: u.endDate,
    active: u.active,
    teaching_period_id: teachingPeriodId,
  }));
}
