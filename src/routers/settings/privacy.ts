import { z } from 'zod';
import { publicProcedure } from '../../trpc/core.ts';
import { privacyOut, toPrivacy } from './schemas.ts';

export const getPrivacy = publicProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/settings/privacy', protect: false, tags: ['Settings'], summary: 'Privacy and plagiarism statements' },
  })
  .input(z.object({}))
  .output(privacyOut)
  .query(({ ctx }) => toPrivacy(ctx.config));
