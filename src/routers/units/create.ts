import { roleInUnit } from '../../policy/index.ts';
import { route } from '../../trpc/route.ts';
import { toDay } from '../../domain/dates.ts';
import { unitDetail } from '../../operations/units/unit-detail.ts';
import { createUnit } from '../../operations/units/create-unit.ts';
import { createUnitInput, unitOut } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const createUnitProcedure = systemMutation(createUnitInput, { action: 'create_unit', refused: 'Not authorised to create a unit' })
  .meta(
    route('POST', '/api/units', 'Units', 'Create a unit (Admin, Convenor)', {
      description:
        'The main convenor (or the caller) is employed as a Convenor; the dates come from `teaching_period_id`, or default to 16 weeks ' +
        'from the coming Monday. See docs/api/units.md.',
    }),
  )
  .output(unitOut)
  .mutation(async ({ ctx, input }) => {
    const unit = await createUnit(ctx.em, ctx.user, input.unit, toDay(ctx.clock.now()));
    return unitDetail(ctx.em, unit.id, await roleInUnit(ctx.em, ctx.user, unit.id), ctx.storage);
  });
