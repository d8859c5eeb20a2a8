// Employing, re-roling and removing staff: plain functions, so unit creation, rollover and the
// seed script employ staff with the same rules as POST /api/unit_roles.
import type { UnitStaffRole } from '../../../schema/enums.ts';
import { Unit, UnitRole, User, type IUnitRole } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { capabilityProblem, ROLE } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';

const refOf = (ref: unknown) => (ref as { id: number }).id;

/**
 * Employs a user in a unit and answers their unit role's id. A user already on the unit's staff
 * keeps the role they have (the original answers with it rather than adding a second). The first
 * convenor of a unit without a main convenor becomes its main convenor.
 */
export async function employStaff(em: Em, input: { unitId: number; userId: number; role: UnitStaffRole }): Promise<{ id: number; created: boolean }> {
  const user = await findOr404(em, User, input.userId);
  const existing = await em.findOne(UnitRole, { unit: input.unitId, user: input.userId });
  if (existing) return { id: existing.id, created: false };
  const problem = capabilityProblem(user.systemRole, input.role);
  if (problem) throw badRequest(problem);
  const unitRole = em.create(UnitRole, { unit: input.unitId, user: input.userId, role: input.role });
  await em.flush();
  if (input.role === ROLE.convenor) {
    await em.nativeUpdate(Unit, { id: input.unitId, mainConvenor: null }, { mainConvenor: unitRole.id });
  }
  return { id: unitRole.id, created: true };
}

export const MAIN_CONVENOR_KEEPS_ROLE =
  'Validation failed: User must retain current role to administer units as they are currently the main contact for the unit';
export const LAST_CONVENOR = 'There must be at least one convenor for the unit';
export const MAIN_CONVENOR_STAYS = 'Cannot delete this role as the user is the main contact for the unit';

async function isMainConvenor(em: Em, unitRole: IUnitRole): Promise<boolean> {
  const unit = await em.findOneOrFail(Unit, { id: refOf(unitRole.unit) });
  return unit.mainConvenor !== null && unit.mainConvenor !== undefined && refOf(unit.mainConvenor) === unitRole.id;
}

/** Changes a staff member between Tutor and Convenor; a unit keeps at least one convenor and its main convenor stays one. */
export async function changeStaffRole(em: Em, unitRole: IUnitRole, role: UnitStaffRole): Promise<void> {
  if (unitRole.role === role) return;
  if (role === ROLE.tutor) {
    const convenors = await em.count(UnitRole, { unit: refOf(unitRole.unit), role: ROLE.convenor });
    if (convenors <= 1) throw forbidden(LAST_CONVENOR);
    if (await isMainConvenor(em, unitRole)) throw badRequest(MAIN_CONVENOR_KEEPS_ROLE);
  } else {
    const user = await em.findOneOrFail(User, { id: refOf(unitRole.user) });
    const problem = capabilityProblem(user.systemRole, role);
    if (problem) throw badRequest(problem);
  }
  unitRole.role = role;
  await em.flush();
}

/** Removes a staff member; their tutorials are left without a tutor. The main convenor cannot be removed. */
export async function removeStaff(em: Em, unitRole: IUnitRole): Promise<void> {
  if (await isMainConvenor(em, unitRole)) throw badRequest(MAIN_CONVENOR_STAYS);
  em.remove(unitRole);
  await em.flush();
}
