// A group created by a caller (POST .../groups): staff create groups for others, a student who
// creates one joins it, and only staff adjust its capacity.
import type { IGroupSet } from '../../../../../schema/index.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { canInGroup, canInGroupSet, type UnitRoleName } from '../../../../policy/index.ts';
import { badRequest, forbidden } from '../../../../lib/errors.ts';
import { createGroup } from './change-group.ts';
import { groupById, type GroupOut } from './read-groups.ts';

export const NOT_AUTHORISED_CAPACITY = 'You are not authorised to change the capacity of this group';

export interface GroupFields {
  name?: string;
  tutorial_id?: number;
  capacity_adjustment?: number;
}

/** The fields given flat (as the spec lists them) with those wrapped in `group` (as the web client sends them) over them. */
export function givenFields<T extends object>(flat: T, wrapped: Partial<T> | undefined): T {
  return { ...flat, ...Object.fromEntries(Object.entries(wrapped ?? {}).filter(([, v]) => v !== undefined)) };
}

export async function createGroupFor(
  em: Em,
  caller: { userId: number; unitId: number; unitRole: UnitRoleName | null },
  set: IGroupSet,
  input: GroupFields & { group?: GroupFields },
): Promise<GroupOut & { group: GroupOut }> {
  const fields = givenFields({ name: input.name, tutorial_id: input.tutorial_id, capacity_adjustment: input.capacity_adjustment }, input.group);
  if (fields.tutorial_id === undefined) throw badRequest(input.group ? 'group[tutorial_id] is missing' : 'tutorial_id is missing');
  // As a new group's member, a student may not adjust its capacity (the group table's move_tutorial).
  const adjusting = fields.capacity_adjustment !== undefined && fields.capacity_adjustment !== 0;
  if (adjusting && !canInGroup(caller.unitRole, 'move_tutorial', { locked: false }, set)) throw forbidden(NOT_AUTHORISED_CAPACITY);
  let creatorProjectId: number | undefined;
  // Staff create groups for others; a student who creates one joins it.
  if (!canInGroupSet(caller.unitRole, 'create_group_for_others', set)) {
    const project = await db(em)
      .selectFrom('projects')
      .select('id')
      .where('unit_id', '=', caller.unitId)
      .where('user_id', '=', caller.userId)
      .where('enrolled', '=', true)
      .executeTakeFirstOrThrow();
    creatorProjectId = project.id;
  }
  const group = await createGroup(em, {
    groupSet: set,
    tutorialId: fields.tutorial_id,
    name: fields.name,
    capacityAdjustment: fields.capacity_adjustment,
    creatorProjectId,
  });
  const out = (await groupById(em, group.id))!;
  return { ...out, group: out };
}
