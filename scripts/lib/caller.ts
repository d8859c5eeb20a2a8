// Scripts act as a named user through the same procedures as the API: a session token is issued
// for them (as POST /api/auth would) and each call gets a fresh context, like a request.
import { User } from '../../schema/index.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createContext, type Services } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';

const callerOf = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof callerOf>;
/** A signed-in user's calls; each call gets a fresh context (its own entity manager). */
export type As = () => Caller;

/** Signs `username` in and returns their caller. */
export async function signIn(services: Services, username: string): Promise<As> {
  const em = services.orm.em.fork();
  const user = await em.findOne(User, { username });
  if (!user) throw new Error(`no user "${username}" to sign in as`);
  const token = await issueToken(em, user, services.clock.now(), false);
  return () => callerOf(createContext(services, { username, token }));
}
