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
        "`main_convenor_user_id` names the main convenor (a Convenor or Admin; 400 otherwise, 404 when unknown), who is employed as a Convenor; without it the caller is. A caller who is not an Admin is employed as a Convenor as well. With `teaching_period_id` the unit takes the period's dates (sending dates too is refused with 403); without either it starts the coming Monday and runs 16 weeks. `description` defaults to the name; `code` is unique within a teaching period.",
    }),
  )
  .output(unitOut)
  .mutation(async ({ ctx, input }) => {
    const unit = await createUnit(ctx.em, ctx.user, input.unit, toDay(ctx.clock.now()));
    return unitDetail(ctx.em, unit.id, await roleInUnit(ctx.em, ctx.user, unit.id), ctx.storage);
  });
