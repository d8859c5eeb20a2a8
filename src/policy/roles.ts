// The role names as values, for code that stores or hands on a role: a new user's system role, a
// unit role row, the actor of an automatic task change. Outside src/policy and schema/ no file
// spells a role out (test/architecture/role-literals.test.ts keeps it so): who may do what is
// asked of the tables (permissions.ts, scopes.ts), never decided by comparing a role.
import type { SystemRole } from '../../schema/enums.ts';

export const ROLE = {
  student: 'Student',
  tutor: 'Tutor',
  convenor: 'Convenor',
  admin: 'Admin',
} as const satisfies Record<string, SystemRole>;

/** A caller's role inside one unit, in the order the API documents them. */
export const UNIT_ROLE_NAMES = [ROLE.convenor, ROLE.tutor, ROLE.student, ROLE.admin] as const;
export type UnitRoleName = (typeof UNIT_ROLE_NAMES)[number];
