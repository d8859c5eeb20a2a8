import { canInGroup } from '../../../../policy/index.ts';
import { forbidden } from '../../../../trpc/errors.ts';
import { tutorialIdOfGroup, updateGroup } from '../operations.ts';
import { groupById } from '../rows.ts';
import { groupMutation, setFlags } from '../../../../trpc/scopes/index.ts';
import { groupOut, updateGroupInput } from '../schemas.ts';
import { NOT_AUTHORISED_CAPACITY } from './create.ts';

export const updateGroupProcedure = groupMutation(updateGroupInput, {
  action: 'manage_group',
  refused: 'Not authorised to update this group',
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}',
      tags: ['Group sets and groups'],
      summary: 'Rename, lock, move or resize a group (unit staff; its student members may rename it when the set lets them manage groups)',
      description:
        'All fields optional, flat or wrapped in `group`. Locking and unlocking, moving to another tutorial of the unit and changing the capacity adjustment are for staff (403). Moving a group of a set that keeps groups in one class enrols each active member in the new tutorial; if one cannot move, nothing changes (403). Names are unique in the set (400).',
    },
  })
  .output(groupOut)
  .mutation(async ({ ctx, input }) => {
    const given = { ...input, ...Object.fromEntries(Object.entries(input.group ?? {}).filter(([, v]) => v !== undefined)) };
    const { group, groupSet, groupRole } = ctx;
    const may = (action: 'lock_group' | 'move_tutorial') => canInGroup(groupRole, action, group, setFlags(groupSet));
    if (given.locked !== undefined && given.locked !== group.locked && !may('lock_group')) {
      throw forbidden(`Not authorised to ${group.locked ? 'unlock' : 'lock'} this group`);
    }
    if (given.tutorial_id !== undefined && given.tutorial_id !== tutorialIdOfGroup(group) && !may('move_tutorial')) {
      throw forbidden('You are not authorised to change the tutorial of this group');
    }
    if (given.capacity_adjustment !== undefined && given.capacity_adjustment !== group.capacityAdjustment && !may('move_tutorial')) {
      throw forbidden(NOT_AUTHORISED_CAPACITY);
    }
    await updateGroup(ctx.em, group, groupSet, {
      name: given.name,
      tutorialId: given.tutorial_id,
      capacityAdjustment: given.capacity_adjustment,
      locked: given.locked,
    });
    return (await groupById(ctx.em, group.id))!;
  });
