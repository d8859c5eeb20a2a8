// Whose tutorials a batch of marking covers: the caller's own, or (for a unit's convenor)
// another staff member's of the same unit, named by `user_id`.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { canInUnit, type UnitRoleName } from '../../../policy/index.ts';
import { forbidden, notFound } from '../../../lib/errors.ts';

export async function markerFor(
  em: Em,
  unitId: number,
  caller: { id: number; unitRole: UnitRoleName | null },
  userId: number | undefined,
  refused: string,
): Promise<number> {
  if (userId === undefined || userId === caller.id) return caller.id;
  if (!canInUnit(caller.unitRole, 'mark_for_other_staff')) throw forbidden(refused);
  const user = await db(em)
    .selectFrom('users as u')
    .leftJoin('unit_roles as r', (j) => j.onRef('r.user_id', '=', 'u.id').on('r.unit_id', '=', unitId))
    .select(['u.id', 'r.id as role_id'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound('Unable to find requested User');
  if (user.role_id === null) throw forbidden(refused);
  return userId;
}
