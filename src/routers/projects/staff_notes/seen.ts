import { route } from '../../../trpc/route.ts';
import { projectMutation } from '../../../trpc/scopes/index.ts';
import { markMentionSeen } from '../../../operations/projects/staff_notes/staff-notes.ts';
import { staffNoteIdInput, staffNoteOut } from './schemas.ts';

export const markStaffNoteSeen = projectMutation(staffNoteIdInput, {
  action: 'staff_notes',
  refused: 'Not authorised to see staff notes on this project',
  field: 'project_id',
})
  .meta(
    route('POST', '/api/projects/{project_id}/staff_notes/{id}/seen', 'Staff notes', 'Dismiss a mention: the note leaves your inbox', {
      description: '404 when the note does not mention you. Marking it seen again changes nothing.',
      rest: { status: 200 },
    }),
  )
  .output(staffNoteOut)
  .mutation(({ ctx, input }) => markMentionSeen(ctx.em, ctx.project.id, input.id, ctx.user.id, ctx.clock.now()));
