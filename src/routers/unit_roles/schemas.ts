import { z } from 'zod';
import { UNIT_STAFF_ROLES } from '../../../schema/enums.ts';
// The pure builders live with the operations; projects' lists use them through this file.
export { toUnitBrief, toUnitRoleUser, unitBriefOut, type UnitBriefOut, type UnitBriefRow } from '../../operations/unit_roles/unit-brief.ts';
import { formBool, formInt, idField, requiredString } from '../../trpc/fields.ts';

import { unitBriefOut } from '../../operations/unit_roles/unit-brief.ts';

export const unitRoleUserOut = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
});

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
