import { User } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Orm } from '../../db/orm.ts';
import { START_UP_LOCK_SQL } from '../../db/start-up-lock.ts';
import { generatePassword, hashPassword } from '../../lib/passwords.ts';
import { ROLE } from '../../policy/index.ts';

/**
 * On first start with no users, creates the Admin so someone can sign in. A generated
 * password is returned so that it can be printed once; it is not stored anywhere in clear.
 * Replicas starting together take turns (the start-up lock, for this transaction): one creates
 * the Admin, the others find it, and none fails on the unique username.
 */
export async function ensureAdmin(orm: Orm, config: Config): Promise<{ created: boolean; generatedPassword?: string }> {
  return orm.em.fork().transactional(async (em) => {
    await em.execute(`select pg_advisory_xact_lock(${START_UP_LOCK_SQL})`);
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
    return { created: true, generatedPassword: config.adminPassword ? undefined : password };
  });
}
