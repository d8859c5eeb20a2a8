import { User, type IUser } from '../../schema/index.ts';
import type { SystemRole } from '../../schema/enums.ts';
import { hashPassword } from '../../src/lib/passwords.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import type { TestEnv } from './env.ts';
import type { Credentials } from './http.ts';

export const PASSWORD = 'password';
let passwordHash: Promise<string> | undefined;

export async function createUser(
  env: TestEnv,
  username: string,
  systemRole: SystemRole,
  extra: Partial<Pick<IUser, 'firstName' | 'lastName' | 'email' | 'studentId' | 'nickname'>> = {},
): Promise<IUser> {
  passwordHash ??= hashPassword(PASSWORD);
  const em = env.orm.em.fork();
  const user = em.create(User, {
    username,
    email: `${username}@example.edu`,
    firstName: username.charAt(0).toUpperCase() + username.slice(1),
    lastName: 'Tester',
    nickname: username,
    systemRole,
    passwordHash: await passwordHash,
    hasRunFirstTimeSetup: true,
    ...extra,
  });
  await em.flush();
  return user;
}

/** A signed-in user: the record and the credentials a client would send. */
export interface Actor {
  user: IUser;
  creds: Credentials;
}

export async function signedIn(env: TestEnv, username: string, role: SystemRole): Promise<Actor> {
  const user = await createUser(env, username, role);
  const token = await issueToken(env.orm.em.fork(), user, env.clock.now(), false);
  return { user, creds: { username, token } };
}

/** One signed-in user of each system role. */
export async function everyone(env: TestEnv) {
  return {
    admin: await signedIn(env, 'aadmin', 'Admin'),
    convenor: await signedIn(env, 'aconvenor', 'Convenor'),
    tutor: await signedIn(env, 'atutor', 'Tutor'),
    student: await signedIn(env, 'astudent', 'Student'),
  };
}

export type People = Awaited<ReturnType<typeof everyone>>;

/**
 * Moves the clock to `when` and signs everyone in again there (tokens last two hours), for tests
 * of dates: due days, late work, extensions.
 */
export async function travelTo(env: TestEnv, people: People, when: Date | string): Promise<void> {
  env.clock.set(typeof when === 'string' ? new Date(when) : when);
  for (const actor of Object.values(people)) actor.creds.token = await issueToken(env.orm.em.fork(), actor.user, env.clock.now(), false);
}
