import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { projectQuery } from '../../../trpc/scopes/index.ts';
import { staffNoteRows } from '../../../operations/projects/staff_notes/staff-notes.ts';
import { projectIdInput, staffNoteOut } from './schemas.ts';

export const listStaffNotes = projectQuery(projectIdInput, {
  action: 'staff_notes',
  refused: 'Not authorised to see staff notes on this project',
  field: 'project_id',
})
  .meta(
    route('GET', '/api/projects/{project_id}/staff_notes', 'Staff notes', "The unit staff's private notes on a student's project", {
      description: 'Staff of the unit only; never the student. Oldest first. See docs/marking/notes-moderation-escalation.md.',
    }),
  )
  .output(z.array(staffNoteOut))
  .query(({ ctx }) => staffNoteRows(ctx.em, ctx.project.id));
