import type { IUnit } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { definitionFiles, type Storage } from '../../../storage/index.ts';
import { loadTaskDefinition, toTaskDefinition, type TaskDefinitionOut } from './schemas.ts';

/** A definition just written, read back in the wire shape staff see. */
export async function definitionForStaff(em: Em, unit: Pick<IUnit, 'endDate'>, id: number, storage: Storage): Promise<TaskDefinitionOut> {
  const row = await loadTaskDefinition(em, id);
  if (!row) throw new Error(`task definition ${id} vanished inside its own transaction`);
  const files = (await definitionFiles(storage, [id])).get(id);
  return toTaskDefinition(row, { staff: true, unitEndDate: unit.endDate, files });
}
