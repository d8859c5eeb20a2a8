// Procedure builders for operations on one group set or one group of a unit. Each loads the unit,
// the set (and the group) the path names (404 when unknown or not the unit's), resolves the
// caller's role through src/policy — inside a group a Student counts only as a member — and
// refuses with 403 and the operation's message unless the group set or group table allows it.
import type { z } from 'zod';
import { Unit, type IGroup, type IGroupSet, type IUnit } from '../../../../schema/index.ts';
import { canInGroup, canInGroupSet, roleInUnit, type GroupAction, type GroupSetAction, type GroupSetFlags, type UnitRoleName } from '../../../policy/index.ts';
import { authedMutation, authedProcedure } from '../../../trpc/core.ts';
import { forbidden, notFound } from '../../../trpc/errors.ts';
import { findGroup, findGroupSet, roleInGroup } from './operations.ts';

type Base = typeof authedProcedure;
type Ids = Record<string, number>;

export const setFlags = (set: IGroupSet): GroupSetFlags => ({
  locked: set.locked,
  allowStudentsToCreateGroups: set.allowStudentsToCreateGroups,
  allowStudentsToManageGroups: set.allowStudentsToManageGroups,
});

async function findUnit(em: Parameters<typeof roleInUnit>[0], id: number): Promise<IUnit> {
  const unit = await em.findOne(Unit, { id });
  if (!unit) throw notFound('Unable to find requested Unit');
  return unit as IUnit;
}

export interface GroupSetScope {
  action: GroupSetAction;
  /** The 403 message; a function when it depends on the set (e.g. on its lock). */
  refused: string | ((set: IGroupSet) => string);
  /** Which input field names the set (default `group_set_id`; `id` on /group_sets/{id}/groups). */
  field?: string;
}

function scopeToGroupSet<S extends z.ZodType>(base: Base, input: S, scope: GroupSetScope) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const ids = input as Ids;
    const unit = await findUnit(ctx.em, ids.unit_id);
    const groupSet = await findGroupSet(ctx.em, unit.id, ids[scope.field ?? 'group_set_id']);
    const unitRole = await roleInUnit(ctx.em, ctx.user, unit.id);
    if (!canInGroupSet(unitRole, scope.action, setFlags(groupSet))) {
      throw forbidden(typeof scope.refused === 'function' ? scope.refused(groupSet) : scope.refused);
    }
    return next({ ctx: { unit, groupSet, unitRole: unitRole as UnitRoleName } });
  });
}

/** A read inside one group set: `ctx.unit`, `ctx.groupSet`, `ctx.unitRole`. */
export const groupSetQuery = <S extends z.ZodType>(input: S, scope: GroupSetScope) => scopeToGroupSet(authedProcedure, input, scope);

/** A change inside one group set, in one transaction. */
export const groupSetMutation = <S extends z.ZodType>(input: S, scope: GroupSetScope) => scopeToGroupSet(authedMutation as Base, input, scope);

export interface GroupScope {
  action: GroupAction;
  refused: string | ((group: IGroup, set: IGroupSet) => string);
}

function scopeToGroup<S extends z.ZodType>(base: Base, input: S, scope: GroupScope) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const ids = input as Ids;
    const unit = await findUnit(ctx.em, ids.unit_id);
    const groupSet = await findGroupSet(ctx.em, unit.id, ids.group_set_id);
    const group = await findGroup(ctx.em, groupSet.id, ids.group_id);
    const unitRole = await roleInUnit(ctx.em, ctx.user, unit.id);
    const groupRole = await roleInGroup(ctx.em, ctx.user, unitRole, group.id);
    if (!canInGroup(groupRole, scope.action, group, setFlags(groupSet))) {
      throw forbidden(typeof scope.refused === 'function' ? scope.refused(group, groupSet) : scope.refused);
    }
    return next({ ctx: { unit, groupSet, group, unitRole, groupRole: groupRole as UnitRoleName } });
  });
}

/** A read of one group: `ctx.unit`, `ctx.groupSet`, `ctx.group`, `ctx.unitRole` and `ctx.groupRole`. */
export const groupQuery = <S extends z.ZodType>(input: S, scope: GroupScope) => scopeToGroup(authedProcedure, input, scope);

/** A change of one group, in one transaction. */
export const groupMutation = <S extends z.ZodType>(input: S, scope: GroupScope) => scopeToGroup(authedMutation as Base, input, scope);
