import { z } from 'zod';
import { publicProcedure } from '../../trpc/core.ts';
import { settingsOut, toSettings } from './schemas.ts';

export const getSettings = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/settings',
      protect: false,
      tags: ['Settings'],
      summary: 'Front-end settings',
      description: '`tiiEnabled` repeats `simcheckEnabled` under the name the web client reads.',
    },
  })
  .input(z.object({}))
  .output(settingsOut)
  .query(({ ctx }) => toSettings(ctx.config));
