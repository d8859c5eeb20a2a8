import { unitWorkload } from '../../../operations/units/workload/workload.ts';
import { weekStartOf } from '../../../domain/workload.ts';
import { canInUnit } from '../../../policy/index.ts';
import { forbidden, notFound } from '../../../lib/errors.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { workloadInput, workloadOut } from './schemas.ts';

export const getWorkload = unitQuery(workloadInput, { action: 'view_workload', refused: 'Not authorised to view the workload of this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/workload', 'Units', 'The workload dashboard', {
      description:
        "Tutor: their own row. Convenor or Admin: every staff member's row, the tasks without a tutor and each task definition. " +
        'A fixed number of SQL statements whatever the unit size. See docs/marking/dashboard.md.',
    }),
  )
  .output(workloadOut)
  .query(async ({ ctx, input }) => {
    // What the answer shows: every tutor's figures are the convenor's; a tutor sees their own.
    const everyone = canInUnit(ctx.unitRole, 'view_staff_workload');
    if (!everyone && input.tutor_id !== undefined && input.tutor_id !== ctx.user.id) throw forbidden("Not authorised to view another tutor's workload");
    const now = ctx.clock.now();
    const workload = await unitWorkload(ctx.em, {
      unitId: ctx.unit.id,
      now,
      weekStart: input.week_start ?? weekStartOf(now),
      onlyUserId: everyone ? input.tutor_id : ctx.user.id,
    });
    if (input.tutor_id !== undefined && workload.tutors.length === 0) throw notFound(`No staff member with user id=${input.tutor_id} in this unit`);
    return workload;
  });
