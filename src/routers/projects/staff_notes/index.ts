import { router } from '../../../trpc/core.ts';
import { createStaffNote } from './create.ts';
import { deleteStaffNote } from './delete.ts';
import { listStaffNotes } from './list.ts';
import { markStaffNoteSeen } from './seen.ts';
import { updateStaffNote } from './update.ts';

/** /api/projects/{project_id}/staff_notes */
export const staffNotesRouter = router({
  list: listStaffNotes,
  create: createStaffNote,
  update: updateStaffNote,
  delete: deleteStaffNote,
  seen: markStaffNoteSeen,
});
