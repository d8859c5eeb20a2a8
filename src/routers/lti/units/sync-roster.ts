import { syncUnitRoster } from '../../../operations/lti/roster-sync.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { rosterReportOut, syncRosterInput } from './schemas.ts';

// A unit-scoped read builder on purpose: the LMS is read outside any transaction, and the
// operation applies what it read in a transaction of its own.
export const syncRoster = unitQuery(syncRosterInput, { action: 'sync_lti_roster', refused: 'Not authorised to sync the roster of this unit' })
  .meta(
    route('POST', '/api/lti/units/{unit_id}/sync_roster', 'LTI', "Sync the unit's students and staff from its LMS course(s) now (its Convenor, Admin)", {
      description:
        'Reads the roster of every linked LMS course (LTI NRPS): active learners are enrolled, instructors and TAs employed, students who left withdrawn. 502 when a roster cannot be read (nothing changes). See docs/lti.md.',
    }),
  )
  .output(rosterReportOut)
  .mutation(({ ctx }) => syncUnitRoster(ctx.em, ctx.config, ctx.clock, ctx.unit.id));
