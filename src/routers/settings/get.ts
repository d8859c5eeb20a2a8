import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { settingsOut, toSettings } from './schemas.ts';

export const getSettings = publicProcedure
  .meta(
    route('GET', '/api/settings', 'Settings', 'Front-end settings', {
      protect: false,
      description: '`tiiEnabled` repeats `simcheckEnabled` under the name the web client reads.',
    }),
  )
  .input(z.object({}))
  .output(settingsOut)
  .query(({ ctx }) => toSettings(ctx.config));
