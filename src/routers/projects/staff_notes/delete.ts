import { z } from 'zod';
import { canInUnit, roleInUnit } from '../../../policy/index.ts';
import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { deleteStaffNote as remove } from '../../../operations/projects/staff_notes/staff-notes.ts';
import { staffNoteIdInput } from './schemas.ts';

export const deleteStaffNote = projectMutation(staffNoteIdInput, {
  action: 'staff_notes',
  refused: 'Not authorised to delete staff notes on this project',
  field: 'project_id',
})
  .meta(
    route('DELETE', '/api/projects/{project_id}/staff_notes/{id}', 'Staff notes', 'Delete a staff note', {
      description: 'Its author, or a convenor of the unit (else 403). Its mentions leave the inboxes they were in.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    // A second subject: whoever oversees the unit's marking may delete another's note.
    const mayDeleteAny = canInUnit(await roleInUnit(ctx.em, ctx.user, ctx.unit.id), 'oversee_marking');
    await remove(ctx.em, ctx.project.id, input.id, ctx.user.id, mayDeleteAny);
    return true as const;
  });
