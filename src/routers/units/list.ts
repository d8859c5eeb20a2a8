import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { listUnits } from '../../operations/units/list-units.ts';
import { listUnitsInput, unitSummaryOut } from './schemas.ts';
import { systemQuery } from '../../trpc/scopes/index.ts';

// A unit in no teaching period has no teaching_period_id (the spec's summary form).
const listedUnitOut = unitSummaryOut.extend({ teaching_period_id: z.number().int().optional() });

export const listUnitsProcedure = systemQuery(listUnitsInput, { action: 'convene_units', refused: 'Unable to list units' })
  .meta(
    route('GET', '/api/units', 'Units', 'Units the caller convenes (Admin: every unit)', {
      description:
        'Convenors see the units where they hold a Convenor unit role, admins every unit; tutors and students are refused. Inactive units ' +
        "are left out unless `include_in_active=true`. Each carries the caller's `my_role`.",
    }),
  )
  .output(z.array(listedUnitOut))
  .query(({ ctx, input }) => listUnits(ctx.em, ctx.user, input.include_in_active));
