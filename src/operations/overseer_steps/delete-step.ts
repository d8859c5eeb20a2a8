// DELETE /api/overseer_steps/{id}: a step, found by its own id; its unit is the scope
// (docs/assessment-steps.md). Results already recorded keep the step's name and flags.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { notFound } from '../../lib/errors.ts';
import { definitionToChange } from '../units/task_definitions/overseer_steps/step-rows.ts';

const UNKNOWN_STEP = 'Unable to find requested Overseer step';
const INT32_MAX = 2_147_483_647;

/** The step and the unit it belongs to, for the unit scope (404 when unknown). */
export async function stepAndUnit(em: Em, id: number): Promise<{ record: { id: number; taskDefinitionId: number }; unitId: number }> {
  if (id > INT32_MAX) throw notFound(UNKNOWN_STEP);
  const row = await db(em)
    .selectFrom('overseer_steps as s')
    .innerJoin('task_definitions as d', 'd.id', 's.task_definition_id')
    .select(['s.id', 's.task_definition_id', 'd.unit_id'])
    .where('s.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_STEP);
  return { record: { id: row.id, taskDefinitionId: row.task_definition_id }, unitId: row.unit_id };
}

export async function deleteStep(em: Em, unitId: number, step: { id: number; taskDefinitionId: number }): Promise<{ id: number; deleted: true }> {
  await definitionToChange(em, unitId, step.taskDefinitionId);
  const gone = await db(em).deleteFrom('overseer_steps').where('id', '=', step.id).returning('id').executeTakeFirst();
  if (!gone) throw notFound(UNKNOWN_STEP);
  return { id: step.id, deleted: true };
}
