import { TaskDefinition, type ITaskDefinition } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../lib/errors.ts';

/** The definition `id` of unit `unitId`; 404 when there is none (or it is another unit's). */
export async function findTaskDefinition(em: Em, unitId: number, id: number): Promise<ITaskDefinition> {
  const found = await em.findOne(TaskDefinition, { id, unit: unitId });
  if (!found) throw notFound('Unable to find requested Task Definition');
  return found as ITaskDefinition;
}
