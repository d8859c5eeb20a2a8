import { authedMutation } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { updateWebcal } from '../../operations/webcal/update-webcal.ts';
import { updateWebcalInput, webcalOut } from './schemas.ts';

export const updateWebcalProcedure = authedMutation
  .meta(
    route('PUT', '/api/webcal', 'Webcal', "Change the caller's calendar settings", {
      description:
        '`enabled` true creates the calendar, false deletes it. `should_change_guid` issues a new address. ' +
        '`unit_exclusions` replaces the list, keeping only active units the caller is enrolled in. ' +
        '`reminder` needs both `time` (>= 1) and `unit` (w, d, h, m); null clears it.',
    }),
  )
  .input(updateWebcalInput)
  .output(webcalOut)
  .mutation(({ ctx, input }) => updateWebcal(ctx.em, ctx.user.id, input.webcal, ctx.clock.now()));
