import { Campus } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { findOr404 } from '../../db/lookup.ts';

/** Deletes a campus. Students and tutorials on it keep it: their foreign keys refuse and the caller gets a 400. */
export async function deleteCampus(em: Em, campusId: number): Promise<void> {
  em.remove(await findOr404(em, Campus, campusId));
  await em.flush();
}
