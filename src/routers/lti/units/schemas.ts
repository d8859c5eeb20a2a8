import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';

export const syncRosterInput = z.object({ unit_id: idField() });

/** What a roster sync did, counted by member of the LMS course(s); docs/lti.md "Roster sync (NRPS)". */
export const rosterReportOut = z.object({
  added: z.number().int().describe('Members newly enrolled (or enrolled again), or newly employed as staff'),
  withdrawn: z.number().int().describe('Students withdrawn: linked to the LMS but no longer active members of its course(s)'),
  unchanged: z.number().int().describe('Members whose enrolment or role was already right, or who have nothing to change here'),
  errors: z.array(z.object({ user_id: z.string(), error: z.string() })).describe('Members the sync could not act on (the others were applied)'),
});
