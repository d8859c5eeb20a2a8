import { User } from '../../schema/index.ts';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { ROLE } from '../policy/index.ts';

/**
 * On first start with no users, creates the Admin so someone can sign in. A generated
 * password is returned so that it can be printed once; it is not stored anywhere in clear.
 */
export async function ensureAdmin(orm: Orm, config: Config): Promise<{ created: boolean; generatedPassword?: string }> {
  const em = orm.em.fork();
  if ((await em.count(User, {})) > 0) return { created: false };
  const password = config.adminPassword ?? generatePassword();
  em.create(User, {
    username: config.adminUsername,
    email: `${config.adminUsername}@localhost`,
    firstName: 'System',
    lastName: 'Administrator',
    nickname: ROLE.admin,
    systemRole: ROLE.admin,
    passwordHash: await hashPassword(password),
    hasRunFirstTimeSetup: true,
  });
  await em.flush();
  return { created: true, generatedPassword: config.adminPassword ? undefined : password };
}
