import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { DISABLED, findWebcal, webcalSettings } from '../../operations/webcal/find-webcal.ts';
import { webcalOut } from './schemas.ts';

export const getWebcal = authedProcedure
  .meta(route('GET', '/api/webcal', 'Webcal', "The caller's calendar settings", { description: '`{"enabled": false}` when the caller has no calendar.' }))
  .input(z.object({}))
  .output(webcalOut)
  .query(async ({ ctx }) => {
    const webcal = await findWebcal(ctx.em, ctx.user.id);
    return webcal ? webcalSettings(ctx.em, webcal) : DISABLED;
  });
