import { z } from 'zod';
import { publicProcedure } from '../../trpc/core.ts';

export const authMethod = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/auth/method',
      protect: false,
      tags: ['Authentication'],
      summary: 'How users sign in',
      description: '`redirect_to` is null for password sign-in; with single sign-on it is the identity provider address.',
    },
  })
  .input(z.object({}))
  .output(z.object({ method: z.string(), redirect_to: z.string().nullable() }))
  .query(({ ctx }) => ({
    method: ctx.config.authMethod,
    redirect_to: ctx.config.authMethod === 'saml' ? ctx.config.saml.ssoUrl : null,
  }));

export const signoutUrl = publicProcedure
  .meta({
    openapi: { method: 'GET', path: '/api/auth/signout_url', protect: false, tags: ['Authentication'], summary: 'Where to send users after sign-out' },
  })
  .input(z.object({}))
  .output(z.object({ auth_signout_url: z.string().nullable() }))
  .query(({ ctx }) => ({ auth_signout_url: ctx.config.authMethod === 'saml' ? ctx.config.saml.signoutUrl : null }));
