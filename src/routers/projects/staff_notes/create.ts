import { refId } from '../../../db/refs.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { createStaffNote as create } from '../../../operations/projects/staff_notes/staff-notes.ts';
import { createStaffNoteInput, staffNoteOut } from './schemas.ts';

export const createStaffNote = projectMutation(createStaffNoteInput, {
  action: 'staff_notes',
  refused: 'Not authorised to add staff notes to this project',
  field: 'project_id',
})
  .meta(
    route('POST', '/api/projects/{project_id}/staff_notes', 'Staff notes', "Add a private staff note to a student's project", {
      description: '`mentioned_user_ids` must be staff of the unit (else 400); each enters their inbox. Staff of the unit only.',
    }),
  )
  .output(staffNoteOut)
  .mutation(({ ctx, input }) => create(ctx.em, { id: ctx.project.id, unitId: refId(ctx.project.unit) }, ctx.user.id, input, ctx.clock.now()));
