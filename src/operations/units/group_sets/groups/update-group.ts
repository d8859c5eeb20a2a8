// A group changed by a caller (PUT .../groups/{group_id}): locking, moving and resizing are for staff.
import type { IGroup, IGroupSet } from '../../../../../schema/index.ts';
import type { Em } from '../../../../db/orm.ts';
import { canInGroup, type UnitRoleName } from '../../../../policy/index.ts';
import { forbidden } from '../../../../lib/errors.ts';
import { tutorialIdOfGroup, updateGroup } from './change-group.ts';
import { givenFields, NOT_AUTHORISED_CAPACITY } from './create-group.ts';
import { groupById, type GroupOut } from './read-groups.ts';

interface ChangedFields {
  name?: string;
  tutorial_id?: number;
  capacity_adjustment?: number;
  locked?: boolean;
}

export async function updateGroupFor(
  em: Em,
  groupRole: UnitRoleName | null,
  group: IGroup,
  set: IGroupSet,
  input: ChangedFields & { group?: ChangedFields },
): Promise<GroupOut> {
  const given = givenFields<ChangedFields>(input, input.group);
  const may = (action: 'lock_group' | 'move_tutorial') => canInGroup(groupRole, action, group, set);
  if (given.locked !== undefined && given.locked !== group.locked && !may('lock_group')) {
    throw forbidden(`Not authorised to ${group.locked ? 'unlock' : 'lock'} this group`);
  }
  if (given.tutorial_id !== undefined && given.tutorial_id !== tutorialIdOfGroup(group) && !may('move_tutorial')) {
    throw forbidden('You are not authorised to change the tutorial of this group');
  }
  if (given.capacity_adjustment !== undefined && given.capacity_adjustment !== group.capacityAdjustment && !may('move_tutorial')) {
    throw forbidden(NOT_AUTHORISED_CAPACITY);
  }
  await updateGroup(em, group, set, {
    name: given.name,
    tutorialId: given.tutorial_id,
    capacityAdjustment: given.capacity_adjustment,
    locked: given.locked,
  });
  return (await groupById(em, group.id))!;
}
