// Operations on one group. The builder loads the unit, the set and the set's group the path names
// (each 404 when unknown) and, for a member change, the project it moves (404 unless it is the
// unit's). Then it resolves the caller's role through src/policy (inside a group a Student counts
// only as a member of it) and refuses with 403 and the operation's message unless the group table
// allows the action, or, for one of the set's actions (joining a group is the set's `join_group`),
// the group-set table. The original checks only after all of these are found; so does this.
import type { z } from 'zod';
import type { IGroup, IGroupSet } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import {
  canInGroup,
  canInGroupSet,
  canInProject,
  GROUP_SET_ACTIONS,
  roleInGroup,
  roleInProject,
  roleInUnit,
  type GroupAction,
  type GroupSetAction,
  type UnitRoleName,
} from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { findGroup, findUnitAndSet, setFlags } from './group-set.ts';
import { CHANGE, idIn, message, READ, type Base, type Message } from './shared.ts';

export interface MemberProject {
  id: number;
  target_grade: number;
  username: string;
  first_name: string;
  last_name: string;
  nickname: string | null;
  /** `project :get`: the caller is the project's student, or staff of the unit. */
  mayManageStudent: boolean;
}

export interface GroupScope {
  action: GroupAction | GroupSetAction;
  refused: Message<[group: IGroup, set: IGroupSet]>;
  /** The input field naming the project a member change moves (`ctx.member`); `enrolledOnly`: a withdrawn one is 404. */
  member?: { field: string; enrolledOnly: boolean };
}

const isSetAction = (action: string): action is GroupSetAction => (GROUP_SET_ACTIONS as readonly string[]).includes(action);

async function findMember(em: Em, user: { id: number }, unitId: number, projectId: number, enrolledOnly: boolean): Promise<MemberProject> {
  let query = db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'p.target_grade', 'u.username', 'u.first_name', 'u.last_name', 'u.nickname'])
    .where('p.id', '=', projectId)
    .where('p.unit_id', '=', unitId);
  if (enrolledOnly) query = query.where('p.enrolled', '=', true);
  const project = await query.executeTakeFirst();
  if (!project) throw notFound('Unable to find requested Project');
  const { user_id, ...member } = project;
  const projectRole = await roleInProject(em, user, { userId: user_id, unitId });
  // The flag only matters to change_tutorial, which this does not ask.
  return { ...member, mayManageStudent: canInProject(projectRole, 'get', { allowStudentChangeTutorial: false }) };
}

function scopeToGroup<S extends z.ZodType>(base: Base, input: S, scope: GroupScope) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const { unit, groupSet } = await findUnitAndSet(ctx.em, input, 'group_set_id');
    const group = await findGroup(ctx.em, groupSet.id, idIn(input, 'group_id'));
    const member = scope.member ? await findMember(ctx.em, ctx.user, unit.id, idIn(input, scope.member.field), scope.member.enrolledOnly) : null;
    const unitRole = await roleInUnit(ctx.em, ctx.user, unit.id);
    const groupRole = await roleInGroup(ctx.em, ctx.user, unitRole, group.id);
    const allowed = isSetAction(scope.action)
      ? canInGroupSet(unitRole, scope.action, setFlags(groupSet))
      : canInGroup(groupRole, scope.action, group, setFlags(groupSet));
    if (!allowed) throw forbidden(message(scope.refused, group, groupSet));
    return next({ ctx: { unit, groupSet, group, unitRole, groupRole: groupRole as UnitRoleName, member: member as MemberProject } });
  });
}

/** A read of one group: `ctx.unit`, `ctx.groupSet`, `ctx.group`, `ctx.unitRole` and `ctx.groupRole`. */
export const groupQuery = <S extends z.ZodType>(input: S, scope: GroupScope) => scopeToGroup(READ, input, scope);

/** A change of one group (with `member`, of its members: `ctx.member`), in one transaction. */
export const groupMutation = <S extends z.ZodType>(input: S, scope: GroupScope) => scopeToGroup(CHANGE, input, scope);
