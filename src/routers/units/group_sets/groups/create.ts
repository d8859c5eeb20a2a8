import { canInGroup, canInGroupSet } from '../../../../policy/index.ts';
import { badRequest, forbidden } from '../../../../trpc/errors.ts';
import { db } from '../../../../db/kysely.ts';
import { createGroup } from '../operations.ts';
import { groupById } from '../rows.ts';
import { groupSetMutation, setFlags } from '../../../../trpc/scopes/index.ts';
import { createdGroupOut, createGroupInput } from '../schemas.ts';

export const NOT_AUTHORISED_CAPACITY = 'You are not authorised to change the capacity of this group';

export const createGroupProcedure = groupSetMutation(createGroupInput, {
  action: 'create_group',
  // The original's wording, "group set" included.
  refused: 'Not authorised to create a group set for this unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/group_sets/{group_set_id}/groups',
      tags: ['Group sets and groups'],
      summary: 'Add a group to a set (unit staff; students when the set lets them create groups)',
      description:
        'Fields flat (as the spec lists them) or wrapped in `group` (as the web client sends them); `tutorial_id` is needed (400) and names a tutorial of the unit (404). A blank name gives "Group N". A name already in the set is refused (403). A student creator joins the new group; one already in a group of the set is refused (403), and in a set that keeps groups in one class they must be in its tutorial (403). Only staff set a capacity adjustment (403). The answer carries the group\'s fields at the top level (which the web client reads) and under `group` (as the spec names it).',
    },
  })
  .output(createdGroupOut)
  .mutation(async ({ ctx, input }) => {
    const fields = { name: input.name, tutorial_id: input.tutorial_id, capacity_adjustment: input.capacity_adjustment, ...stripUndefined(input.group ?? {}) };
    if (fields.tutorial_id === undefined) throw badRequest(input.group ? 'group[tutorial_id] is missing' : 'tutorial_id is missing');
    // As a new group's member, a student may not adjust its capacity (the group table's move_tutorial).
    const adjusting = fields.capacity_adjustment !== undefined && fields.capacity_adjustment !== 0;
    if (adjusting && !canInGroup(ctx.unitRole, 'move_tutorial', { locked: false }, setFlags(ctx.groupSet))) throw forbidden(NOT_AUTHORISED_CAPACITY);
    let creatorProjectId: number | undefined;
    // Staff create groups for others; a student who creates one joins it.
    if (!canInGroupSet(ctx.unitRole, 'create_group_for_others', setFlags(ctx.groupSet))) {
      const project = await db(ctx.em)
        .selectFrom('projects')
        .select('id')
        .where('unit_id', '=', ctx.unit.id)
        .where('user_id', '=', ctx.user.id)
        .where('enrolled', '=', true)
        .executeTakeFirstOrThrow();
      creatorProjectId = project.id;
    }
    const group = await createGroup(ctx.em, {
      groupSet: ctx.groupSet,
      tutorialId: fields.tutorial_id,
      name: fields.name,
      capacityAdjustment: fields.capacity_adjustment,
      creatorProjectId,
    });
    const out = (await groupById(ctx.em, group.id))!;
    return { ...out, group: out };
  });

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
