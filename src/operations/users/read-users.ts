// Reading users in the API's shape: all of them, those able to hold a staff role, or one.
import type { SystemRole } from '../../../schema/enums.ts';
import { User } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { notFound } from '../../lib/errors.ts';
import { toUser, type UserOut } from './to-user.ts';

/**
 * Users exactly as the API shows them (`userOut`, keys in its order), selected as plain rows:
 * each column under its output name and the agreement flag computed by PostgreSQL, so nothing
 * is mapped per row. Entity hydration of 5,000 users took about 100 ms; this takes a tenth.
 */
export function selectUsersOut(em: Em) {
  return db(em)
    .selectFrom('users')
    .select([
      'id',
      'student_id',
      'email',
      'first_name',
      'last_name',
      'username',
      'nickname',
      'pronouns',
      'receive_task_notifications',
      'receive_portfolio_notifications',
      'receive_feedback_notifications',
      'opt_in_to_research',
      'has_run_first_time_setup',
    ])
    .select((eb) => eb('simcheck_eula_accepted_at', 'is not', null).$castTo<boolean>().as('accepted_tii_eula'))
    .select('system_role');
}

/** Every user, ordered by id. */
export async function allUsersOut(em: Em): Promise<UserOut[]> {
  return selectUsersOut(em).orderBy('id').execute();
}

/** The users whose system role is one of these (who can tutor, who can convene), ordered by id. */
export async function usersWithRoles(em: Em, roles: readonly SystemRole[]): Promise<UserOut[]> {
  return (await em.find(User, { systemRole: { $in: [...roles] } }, { orderBy: { id: 'asc' } })).map(toUser);
}

/** One user; 404 "Unable to find requested User". */
export async function getUser(em: Em, id: number): Promise<UserOut> {
  const user = await em.findOne(User, { id });
  if (!user) throw notFound('Unable to find requested User');
  return toUser(user);
}
