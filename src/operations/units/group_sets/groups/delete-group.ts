// A group deleted by a caller (DELETE .../groups/{group_id}): staff delete any group, a student
// member only one they are alone in.
import type { IGroup, IGroupSet } from '../../../../../schema/index.ts';
import type { Em } from '../../../../db/orm.ts';
import { deletionRefusalForStudent } from '../../../../domain/groups.ts';
import { canInGroup, type UnitRoleName } from '../../../../policy/index.ts';
import { forbidden } from '../../../../lib/errors.ts';
import { deleteGroup, memberUserIds } from './change-group.ts';

export async function deleteGroupFor(em: Em, caller: { userId: number; groupRole: UnitRoleName | null }, group: IGroup, set: IGroupSet): Promise<true> {
  if (!canInGroup(caller.groupRole, 'delete_any_group', group, set)) {
    const refusal = deletionRefusalForStudent(await memberUserIds(em, group.id), caller.userId);
    if (refusal) throw forbidden(refusal);
  }
  await deleteGroup(em, group);
  return true;
}
