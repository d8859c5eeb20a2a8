import { z } from 'zod';
import { UNIT_STAFF_ROLES } from '../../../schema/enums.ts';
import type { IUnit, IUnitRole, IUser } from '../../../schema/index.ts';
import { toDay } from '../../domain/dates.ts';
import { formBool } from '../../trpc/fields.ts';

/** A `date` column as 'YYYY-MM-DD', whether the driver hands back a string or a Date. */
function day(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : toDay(value);
}

/**
 * The minimal unit the home page reads from unit roles and projects: `teaching_period_id` is
 * left out altogether when the unit has no teaching period, as the original does.
 */
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

export function toUnitBrief(unit: IUnit, myRole: string): UnitBriefOut {
  const out: UnitBriefOut = {
    code: unit.code,
    id: unit.id,
    name: unit.name,
    my_role: myRole,
    start_date: day(unit.startDate as string | Date),
    end_date: day(unit.endDate as string | Date),
    active: unit.active,
  };
  if (unit.teachingPeriod) out.teaching_period_id = unit.teachingPeriod.id;
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

export function toUnitRoleUser(u: IUser): z.infer<typeof unitRoleUserOut> {
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

/** Needs `unit` and `user` loaded. */
export function toUnitRoleListed(role: IUnitRole): UnitRoleListedOut {
  return {
    id: role.id,
    role: role.role,
    user: toUnitRoleUser(role.user as IUser),
    unit: toUnitBrief(role.unit as IUnit, role.role),
  };
}

export const listUnitRolesInput = z.object({
  active_only: formBool().optional(),
});
