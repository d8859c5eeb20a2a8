import { z } from 'zod';
import { publicProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';

export const authMethod = publicProcedure
  .meta(
    route('GET', '/api/auth/method', 'Authentication', 'How users sign in', {
      protect: false,
      description: '`redirect_to` is null for password sign-in; with single sign-on it is the identity provider address.',
    }),
  )
  .input(z.object({}))
  .output(z.object({ method: z.string(), redirect_to: z.string().nullable() }))
  .query(({ ctx }) => ({
    method: ctx.config.authMethod,
    redirect_to: ctx.config.authMethod === 'saml' ? ctx.config.saml.ssoUrl : null,
  }));

export const signoutUrl = publicProcedure
  .meta(route('GET', '/api/auth/signout_url', 'Authentication', 'Where to send users after sign-out', { protect: false }))
  .input(z.object({}))
  .output(z.object({ auth_signout_url: z.string().nullable() }))
  .query(({ ctx }) => ({ auth_signout_url: ctx.config.authMethod === 'saml' ? ctx.config.saml.signoutUrl : null }));
