import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

/** Every campus, read at every client start-up: plain rows, already in the wire shape. */
export function listCampuses(em: Em) {
  return db(em).selectFrom('campuses').select(['id', 'name', 'abbreviation', 'active', 'mode']).orderBy('id').execute();
}
