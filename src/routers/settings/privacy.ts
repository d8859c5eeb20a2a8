import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { privacyOut, toPrivacy } from './schemas.ts';

export const getPrivacy = publicProcedure
  .meta(route('GET', '/api/settings/privacy', 'Settings', 'Privacy and plagiarism statements', { protect: false }))
  .input(z.object({}))
  .output(privacyOut)
  .query(({ ctx }) => toPrivacy(ctx.config));
