import type { IUnit } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { loadTaskDefinition, toTaskDefinition, type TaskDefinitionOut } from './schemas.ts';

/** A definition just written, read back in the wire shape staff see. */
export async function definitionForStaff(em: Em, unit: Pick<IUnit, 'endDate'>, id: number): Promise<TaskDefinitionOut> {
  const row = await loadTaskDefinition(em, id);
  if (!row) throw new Error(`task definition ${id} vanished inside its own transaction`);
  return toTaskDefinition(row, { staff: true, unitEndDate: unit.endDate });
}
