import { signIn as signInWithPassword } from '../../operations/auth/sign-in.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { signInInput, signInOut } from './schemas.ts';

// Not in a transaction (publicProcedure): a failed attempt must stay counted (see the operation).
export const signIn = publicProcedure
  .meta(
    route('POST', '/api/auth', 'Authentication', 'Sign in', {
      protect: false,
      description:
        'Signs in with username and password, or exchanges a valid token of the same user, and returns a token for the `Auth-Token` header. ' +
        'Wrong credentials get 401; too many failures from an address get 429 with `Retry-After`. See docs/api/users.md.',
      rest: { errors: [401, 429] },
    }),
  )
  .input(signInInput)
  .output(signInOut)
  .mutation(({ ctx, input }) => signInWithPassword(ctx.em, input, { now: ctx.clock.now(), clientIp: ctx.clientIp, throttle: ctx.config.signInThrottle }));
