import { User } from '../../schema/index.ts';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { ROLE } from '../policy/index.ts';

/** The transaction-level advisory lock under which a start looks for users and creates the Admin. */
const FIRST_ADMIN_LOCK = 7_164_031_917;

/**
 * On first start with no users, creates the Admin so someone can sign in. A generated
 * password is returned so that it can be printed once; it is not stored anywhere in clear.
 * Processes starting together take turns, so exactly one of them creates it (and prints it).
 */
export async function ensureAdmin(orm: Orm, config: Config): Promise<{ created: boolean; generatedPassword?: string }> {
  return orm.em.fork().transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(?)', [FIRST_ADMIN_LOCK]);
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
