// The brief of a unit that lists of enrolments and of staff roles show (`unit` of GET
// /api/unit_roles and /api/projects): which unit, and the caller's role in it; and the user of a
// unit role. Built from the columns one query returns.
import { z } from 'zod';
import type { IUser } from '../../../schema/index.ts';

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

export interface UnitRoleUserOut {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  nickname: string | null;
}

export function toUnitRoleUser(u: Pick<IUser, 'id' | 'email' | 'firstName' | 'lastName' | 'username' | 'nickname'>): UnitRoleUserOut {
  return { id: u.id, email: u.email, first_name: u.firstName, last_name: u.lastName, username: u.username, nickname: u.nickname ?? null };
}
