import { startLogin } from '../../operations/lti/login.ts';
import { publicMutation } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { loginInput, loginOut } from './schemas.ts';

// A GET that stores (the login's state): served as a query, as OIDC requires GET, in one transaction.
export const ltiLogin = publicMutation
  .meta(
    route('GET', '/api/lti/login', 'LTI', 'OIDC third-party login initiation from an LTI 1.3 platform', {
      protect: false,
      description:
        "Answers 302 to the platform's `auth_login_url` with a single-use `state` and `nonce`. Also served as POST (a form). " +
        '400 for an unknown platform or deployment. See docs/lti.md.',
      rest: { redirect: true, aliases: [{ method: 'POST', path: '/api/lti/login' }] },
    }),
  )
  .input(loginInput)
  .output(loginOut)
  .query(({ ctx, input }) => startLogin(ctx.em, ctx.config, ctx.clock, input));
