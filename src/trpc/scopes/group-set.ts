// Operations on one group set of a unit. The builder loads the unit and the set the path names
// (404 when unknown, or when the set is another unit's), resolves the caller's role in the unit
// through src/policy, and refuses with 403 and the operation's message unless the group-set table
// allows the action (for a Student, the set's flags decide); then it puts the unit, the set and
// the role in the context.
import type { z } from 'zod';
import { Group, GroupSet, Unit, type IGroup, type IGroupSet, type IUnit } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { canInGroupSet, roleInUnit, type GroupSetAction, type GroupSetFlags, type UnitRoleName } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { CHANGE, idIn, message, READ, type Base, type Message } from './shared.ts';

export const UNKNOWN_GROUP_SET = 'Unable to find requested Group Set';
export const UNKNOWN_GROUP = 'Unable to find requested Group';
/** PUT and DELETE of a set name it through another unit's path: the original's own 404. */
export const SET_OF_OTHER_UNIT = 'Unable to locate group set for unit';

/**
 * The unit's group set with this id: 404 when there is none, or when it is another unit's
 * (with `otherUnit` as the message where the original words that case apart).
 */
export async function findGroupSet(em: Em, unitId: number, id: number, otherUnit = UNKNOWN_GROUP_SET): Promise<IGroupSet> {
  const set = await em.findOne(GroupSet, { id });
  if (!set) throw notFound(UNKNOWN_GROUP_SET);
  if ((set.unit as unknown as { id: number }).id !== unitId) throw notFound(otherUnit);
  return set;
}

/** The set's group with this id, or 404. */
export async function findGroup(em: Em, groupSetId: number, id: number): Promise<IGroup> {
  const group = await em.findOne(Group, { id, groupSet: groupSetId });
  if (!group) throw notFound(UNKNOWN_GROUP);
  return group;
}

export const setFlags = (set: IGroupSet): GroupSetFlags => ({
  locked: set.locked,
  allowStudentsToCreateGroups: set.allowStudentsToCreateGroups,
  allowStudentsToManageGroups: set.allowStudentsToManageGroups,
});

/** The unit (`unit_id`) and its set (at `setField`), each 404 when unknown. */
export async function findUnitAndSet(em: Em, input: unknown, setField: string): Promise<{ unit: IUnit; groupSet: IGroupSet }> {
  const unit = (await em.findOne(Unit, { id: idIn(input, 'unit_id') })) as IUnit | null;
  if (!unit) throw notFound('Unable to find requested Unit');
  return { unit, groupSet: await findGroupSet(em, unit.id, idIn(input, setField)) };
}

export interface GroupSetScope {
  action: GroupSetAction;
  /** The 403 message; a function when it depends on the set (e.g. on its lock). */
  refused: Message<[set: IGroupSet]>;
  /** Which input field names the set (default `group_set_id`; `id` on /group_sets/{id}/groups). */
  field?: string;
}

function scopeToGroupSet<S extends z.ZodType>(base: Base, input: S, scope: GroupSetScope) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const { unit, groupSet } = await findUnitAndSet(ctx.em, input, scope.field ?? 'group_set_id');
    const unitRole = await roleInUnit(ctx.em, ctx.user, unit.id);
    if (!canInGroupSet(unitRole, scope.action, setFlags(groupSet))) throw forbidden(message(scope.refused, groupSet));
    return next({ ctx: { unit, groupSet, unitRole: unitRole as UnitRoleName } });
  });
}

/** A read inside one group set: `ctx.unit`, `ctx.groupSet`, `ctx.unitRole`. */
export const groupSetQuery = <S extends z.ZodType>(input: S, scope: GroupSetScope) => scopeToGroupSet(READ, input, scope);

/** A change inside one group set, in one transaction. */
export const groupSetMutation = <S extends z.ZodType>(input: S, scope: GroupSetScope) => scopeToGroupSet(CHANGE, input, scope);
