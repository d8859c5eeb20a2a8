// For operations whose input names a record inside a unit (a unit role, a tutorial) rather than
// the unit itself: once the record is loaded, its unit is checked exactly as the unit builders of
// scoped.ts check theirs, through the policy tables.
import type { SystemRole } from '../../schema/enums.ts';
import type { Em } from '../db/orm.ts';
import { can, canInUnit, roleInUnit, type SystemAction, type UnitAction, type UnitRoleName } from '../policy/index.ts';
import { forbidden } from './errors.ts';

export interface UnitCheck {
  action: UnitAction;
  /** The 403 message. */
  refused: string;
  /** A system permission that allows the operation whatever the unit role. */
  orSystem?: SystemAction;
}

/** Refuses with 403 unless the caller's role in the unit allows the action; returns that role. */
export async function requireInUnit(em: Em, user: { id: number; systemRole: SystemRole }, unitId: number, check: UnitCheck): Promise<UnitRoleName | null> {
  const role = await roleInUnit(em, user, unitId);
  const allowed = canInUnit(role, check.action) || (check.orSystem !== undefined && can(user, check.orSystem));
  if (!allowed) throw forbidden(check.refused);
  return role;
}
