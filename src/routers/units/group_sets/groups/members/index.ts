import { router } from '../../../../../trpc/core.ts';
import { addGroupMember } from './add.ts';
import { listGroupMembers } from './list.ts';
import { removeGroupMember } from './remove.ts';

/** /api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members[/{project_id}] */
export const groupMembersRouter = router({
  list: listGroupMembers,
  add: addGroupMember,
  remove: removeGroupMember,
});
