// A task definition's assessment steps as the API answers them, and the definition they belong to
// (docs/assessment-steps.md). Shared by the step routes, the CSV, rollover and the assessment job.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { forbidden, notFound } from '../../../../lib/errors.ts';

export const ASSESSMENT_OFF = 'Automated assessment is not enabled for this task definition';

/** Every column of a step, under the names the API uses. */
export const STEP_COLUMNS = [
  'id',
  'task_definition_id',
  'name',
  'display_name',
  'description',
  'display_description',
  'sort_order',
  'enabled',
  'step_type',
  'run_command',
  'timeout_ms',
  'stdin_input_file',
  'expected_output_file',
  'partial_output_diff',
  'output_comparison',
  'feedback_message',
  'status_on_success',
  'status_on_failure',
  'halt_on_success',
  'halt_on_failure',
  'show_expected_output',
  'show_stdin',
  'show_stdout',
] as const;

export async function stepRows(em: Em, taskDefinitionIds: number[]) {
  if (taskDefinitionIds.length === 0) return [];
  return db(em)
    .selectFrom('overseer_steps')
    .select(STEP_COLUMNS)
    .where('task_definition_id', 'in', taskDefinitionIds)
    .orderBy('task_definition_id')
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}
export type StepRow = Awaited<ReturnType<typeof stepRows>>[number];

/** A definition's steps in run order (sort_order, then id). */
export async function listSteps(em: Em, unitId: number, taskDefinitionId: number): Promise<StepRow[]> {
  await definitionOfUnit(em, unitId, taskDefinitionId);
  return stepRows(em, [taskDefinitionId]);
}

/** The definition in this unit (404 otherwise), with its automated-assessment switch. */
export async function definitionOfUnit(em: Em, unitId: number, taskDefinitionId: number) {
  const row = await db(em)
    .selectFrom('task_definitions')
    .select(['id', 'assessment_enabled'])
    .where('id', '=', taskDefinitionId)
    .where('unit_id', '=', unitId)
    .executeTakeFirst();
  if (!row) throw notFound('Unable to find requested Task definition');
  return row;
}

/** As definitionOfUnit, and locked for the change; 403 while its automated assessment is off. */
export async function definitionToChange(em: Em, unitId: number, taskDefinitionId: number): Promise<void> {
  await db(em).selectFrom('task_definitions').select('id').where('id', '=', taskDefinitionId).forUpdate().execute();
  const row = await definitionOfUnit(em, unitId, taskDefinitionId);
  if (!row.assessment_enabled) throw forbidden(ASSESSMENT_OFF);
}
