// What the task definition procedures do: the API's fields in, the definition as staff see it out.
import type { IUnit } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import type { Storage } from '../../../storage/index.ts';
import { findTaskDefinition } from './find-task-definition.ts';
import { definitionForStaff, type TaskDefinitionOut } from './load-task-definitions.ts';
import { definitionFields, type WireFields } from './wire-fields.ts';
import { createTaskDefinition, deleteTaskDefinition, updateTaskDefinition, type TaskDefinitionFields } from './write-task-definition.ts';

type Unit = Pick<IUnit, 'id' | 'endDate' | 'draftTaskDefinition'>;

/** A new definition of `unit` from the API's fields; the create schema requires every field. */
export async function createDefinitionFromWire(em: Em, storage: Storage, unit: Unit, wire: WireFields): Promise<TaskDefinitionOut> {
  const td = await createTaskDefinition(em, unit, definitionFields(wire) as TaskDefinitionFields);
  return definitionForStaff(em, unit, td.id, storage);
}

/** Definition `id` of `unit` with the API's fields sent applied. */
export async function updateDefinitionFromWire(em: Em, storage: Storage, unit: Unit, id: number, wire: WireFields): Promise<TaskDefinitionOut> {
  const td = await findTaskDefinition(em, unit.id, id);
  await updateTaskDefinition(em, unit, td, definitionFields(wire));
  return definitionForStaff(em, unit, td.id, storage);
}

/** Deletes definition `id` of unit `unitId` (404 when it is not the unit's); its files are the caller's to remove once committed. */
export async function removeTaskDefinition(em: Em, unitId: number, id: number): Promise<void> {
  await deleteTaskDefinition(em, await findTaskDefinition(em, unitId, id));
}
