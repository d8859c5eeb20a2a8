import { refId } from '../../../db/refs.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { updateStaffNote as update } from '../../../operations/projects/staff_notes/staff-notes.ts';
import { staffNoteOut, updateStaffNoteInput } from './schemas.ts';

export const updateStaffNote = projectMutation(updateStaffNoteInput, {
  action: 'staff_notes',
  refused: 'Not authorised to edit staff notes on this project',
  field: 'project_id',
})
  .meta(
    route('PUT', '/api/projects/{project_id}/staff_notes/{id}', 'Staff notes', 'Edit a staff note', {
      description: 'Its author only (else 403). Fields left out stay as they are.',
    }),
  )
  .output(staffNoteOut)
  .mutation(({ ctx, input }) => update(ctx.em, { id: ctx.project.id, unitId: refId(ctx.project.unit) }, input.id, ctx.user.id, input, ctx.clock.now()));
