import { router } from '../../../trpc/core.ts';
import { createGroupSetProcedure } from './create.ts';
import { deleteGroupSetProcedure } from './delete.ts';
import { groupsRouter } from './groups/index.ts';
import { updateGroupSetProcedure } from './update.ts';

/** /api/units/{unit_id}/group_sets and the groups under each set. */
export const groupSetsRouter = router({
  create: createGroupSetProcedure,
  update: updateGroupSetProcedure,
  delete: deleteGroupSetProcedure,
  groups: groupsRouter,
});
