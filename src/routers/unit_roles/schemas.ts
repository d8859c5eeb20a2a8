import { z } from 'zod';
import { UNIT_STAFF_ROLES } from '../../../schema/enums.ts';
import type { IUser } from '../../../schema/index.ts';
import { formBool, formInt, idField, requiredString } from '../../trpc/fields.ts';

export const unitBriefOut = z.object({
  code: z.string(),
  id: z.number().int(),
  name: z.string(),
  my_role: z.string(),
  teaching_period_id: z.number().int().optional(),
  start_date: z.string(),
  end_date: z.string(),
  active: z.boolean(),
});
export type UnitBriefOut = z.infer<typeof unitBriefOut>;

/** The unit columns the brief is built from, as one query returns them. */
export interface UnitBriefRow {
  id: number;
  code: string;
  name: string;
  start_date: string;
  end_date: string;
  active: boolean;
  teaching_period_id: number | null;
}

export function toUnitBrief(unit: UnitBriefRow, myRole: string): UnitBriefOut {
  const out: UnitBriefOut = {
    code: unit.code,
    id: unit.id,
    name: unit.name,
    my_role: myRole,
    start_date: unit.start_date,
    end_date: unit.end_date,
    active: unit.active,
  };
  if (unit.teaching_period_id !== null) out.teaching_period_id = unit.teaching_period_id;
  return out;
}

export const unitRoleUserOut = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
});

export function toUnitRoleUser(u: Pick<IUser, 'id' | 'email' | 'firstName' | 'lastName' | 'username' | 'nickname'>): z.infer<typeof unitRoleUserOut> {
  return { id: u.id, email: u.email, first_name: u.firstName, last_name: u.lastName, username: u.username, nickname: u.nickname ?? null };
}

/** A unit role as listed for its holder: with the user and the unit it places them in. */
export const unitRoleListedOut = z.object({
  id: z.number().int(),
  role: z.enum(UNIT_STAFF_ROLES),
  user: unitRoleUserOut,
  unit: unitBriefOut,
});
export type UnitRoleListedOut = z.infer<typeof unitRoleListedOut>;

export const listUnitRolesInput = z.object({
  active_only: formBool().optional(),
});

// ---- Employing staff --------------------------------------------------------------------------

/** A staff member of a unit: the unit's `staff` list and the answer of POST/PUT /api/unit_roles. */
export const staffMemberOut = z.object({
  id: z.number().int(),
  role: z.enum(UNIT_STAFF_ROLES),
  user: unitRoleUserOut,
});
export type StaffMemberOut = z.infer<typeof staffMemberOut>;

// The web client posts a flat `{unit_id, user_id, role}`.
export const createUnitRoleInput = z.object({
  unit_id: idField(),
  user_id: idField(),
  role: requiredString(),
});

// The web client sends `{unit_role: {role_id, ...}}` with only what changed; `role` by name is taken too.
export const updateUnitRoleInput = z.object({
  id: idField(),
  unit_role: z
    .object({
      role_id: formInt().optional(),
      role: requiredString().optional(),
    })
    .default({}),
});

export const unitRoleIdInput = z.object({ id: idField() });

/** The record as it was, as the original answers a delete (the spec's delete form). */
export const unitRoleDeletedOut = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  unit_id: z.number().int(),
  role_id: z.number().int(),
  tutorial_id: z.null(),
  created_at: z.string(),
  updated_at: z.string(),
});
