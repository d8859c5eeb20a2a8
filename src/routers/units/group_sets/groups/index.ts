import { router } from '../../../../trpc/core.ts';
import { groupsCsvRouter } from './csv/index.ts';
import { studentGroupsCsvRouter } from './student_csv/index.ts';
import { createGroupProcedure } from './create.ts';
import { deleteGroupProcedure } from './delete.ts';
import { listGroups } from './list.ts';
import { groupMembersRouter } from './members/index.ts';
import { updateGroupProcedure } from './update.ts';

/** /api/units/{unit_id}/group_sets/{group_set_id}/groups */
export const groupsRouter = router({
  list: listGroups,
  create: createGroupProcedure,
  update: updateGroupProcedure,
  delete: deleteGroupProcedure,
  members: groupMembersRouter,
  csv: groupsCsvRouter,
  studentCsv: studentGroupsCsvRouter,
});
