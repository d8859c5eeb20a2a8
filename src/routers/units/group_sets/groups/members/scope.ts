// Loads what a member change names, in the original's order: the unit, its set, the set's group
// (each unknown one a 404, through the group-set operations), then the project, which must be
// the unit's (404). Permissions are checked after all four are found, as the original does.
import type { SystemRole } from '../../../../../../schema/enums.ts';
import { Unit, type IGroup, type IGroupSet } from '../../../../../../schema/index.ts';
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import { canInProject, roleInProject, roleInUnit, type UnitRoleName } from '../../../../../policy/index.ts';
import { notFound } from '../../../../../trpc/errors.ts';
import { findOr404 } from '../../../../lookup.ts';
import { findGroup, findGroupSet, roleInGroup } from '../../operations.ts';

export interface MemberProject {
  id: number;
  target_grade: number;
  username: string;
  first_name: string;
  last_name: string;
  nickname: string | null;
}

export interface MemberScope {
  groupSet: IGroupSet;
  group: IGroup;
  project: MemberProject;
  unitRole: UnitRoleName | null;
  /** The unit role, except that a Student counts only as a member of the group. */
  groupRole: UnitRoleName | null;
  /** `project :get`: the project's student, or staff of the unit. */
  mayManageStudent: boolean;
}

export async function loadMemberScope(
  em: Em,
  user: { id: number; systemRole: SystemRole },
  input: { unit_id: number; group_set_id: number; group_id: number; project_id: number },
  options: { enrolledOnly: boolean },
): Promise<MemberScope> {
  const unit = await findOr404(em, Unit, input.unit_id);
  const groupSet = await findGroupSet(em, unit.id, input.group_set_id);
  const group = await findGroup(em, groupSet.id, input.group_id);
  let query = db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'p.target_grade', 'u.username', 'u.first_name', 'u.last_name', 'u.nickname'])
    .where('p.id', '=', input.project_id)
    .where('p.unit_id', '=', unit.id);
  if (options.enrolledOnly) query = query.where('p.enrolled', '=', true);
  const project = await query.executeTakeFirst();
  if (!project) throw notFound('Unable to find requested Project');
  const unitRole = await roleInUnit(em, user, unit.id);
  const groupRole = await roleInGroup(em, user, unitRole, group.id);
  const projectRole = await roleInProject(em, user, { userId: project.user_id, unitId: unit.id });
  return { groupSet, group, project, unitRole, groupRole, mayManageStudent: canInProject(projectRole, 'get', unit) };
}
