// POST and PUT /api/units/{unit_id}/task_definitions/{task_def_id}/overseer_steps[/{id}]: a step's
// settings, checked as a whole (docs/assessment-steps.md), in the caller's transaction.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { MAX_STEPS, STEP_TIMEOUT_MS, type StepSettings, stepProblem } from '../../../../domain/overseer-steps.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { definitionToChange, STEP_COLUMNS, type StepRow } from './step-rows.ts';

/** A new step's settings where none are given; sort_order defaults to after the last step. */
export const STEP_DEFAULTS: Omit<StepSettings, 'name' | 'run_command' | 'sort_order'> = {
  display_name: null,
  description: null,
  display_description: null,
  enabled: true,
  step_type: 'command',
  timeout_ms: STEP_TIMEOUT_MS.default,
  stdin_input_file: null,
  expected_output_file: null,
  partial_output_diff: false,
  output_comparison: 'exact',
  feedback_message: null,
  status_on_success: null,
  status_on_failure: null,
  halt_on_success: false,
  halt_on_failure: false,
  show_expected_output: false,
  show_stdin: false,
  show_stdout: false,
};

function checked(settings: StepSettings): StepSettings {
  const problem = stepProblem(settings);
  if (problem) throw badRequest(problem);
  return { ...settings, name: settings.name.trim() };
}

async function refuseTakenName(em: Em, taskDefinitionId: number, name: string, exceptId: number | null): Promise<void> {
  let q = db(em).selectFrom('overseer_steps').select('id').where('task_definition_id', '=', taskDefinitionId).where('name', '=', name);
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst()) throw badRequest(`Name '${name}' is already taken by another step of this task definition`);
}

export async function createStep(
  em: Em,
  unitId: number,
  taskDefinitionId: number,
  given: Partial<StepSettings> & Pick<StepSettings, 'name' | 'run_command'>,
): Promise<StepRow> {
  await definitionToChange(em, unitId, taskDefinitionId);
  const last = await db(em)
    .selectFrom('overseer_steps')
    .select((eb) => [eb.fn.max('sort_order').as('max'), eb.fn.countAll<string>().as('count')])
    .where('task_definition_id', '=', taskDefinitionId)
    .executeTakeFirst();
  if (Number(last?.count ?? 0) >= MAX_STEPS) throw badRequest(`A task definition has at most ${MAX_STEPS} steps`);
  const settings = checked({ ...STEP_DEFAULTS, sort_order: last?.max == null ? 0 : Number(last.max) + 1, ...given });
  await refuseTakenName(em, taskDefinitionId, settings.name, null);
  const now = new Date().toISOString();
  return db(em)
    .insertInto('overseer_steps')
    .values({ ...settings, task_definition_id: taskDefinitionId, created_at: now, updated_at: now })
    .returning(STEP_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateStep(em: Em, unitId: number, taskDefinitionId: number, stepId: number, given: Partial<StepSettings>): Promise<StepRow> {
  await definitionToChange(em, unitId, taskDefinitionId);
  const current = await db(em)
    .selectFrom('overseer_steps')
    .select(STEP_COLUMNS)
    .where('id', '=', stepId)
    .where('task_definition_id', '=', taskDefinitionId)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw notFound('Unable to find requested Overseer step');
  const { id: _id, task_definition_id: _td, ...was } = current;
  const settings = checked({ ...was, ...given });
  await refuseTakenName(em, taskDefinitionId, settings.name, stepId);
  return db(em)
    .updateTable('overseer_steps')
    .set({ ...settings, updated_at: new Date().toISOString() })
    .where('id', '=', stepId)
    .returning(STEP_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The task-definition CSV's `overseer_steps` cell: the definition's steps become exactly these (checked already). */
export async function replaceSteps(em: Em, taskDefinitionId: number, steps: StepSettings[]): Promise<void> {
  await db(em).deleteFrom('overseer_steps').where('task_definition_id', '=', taskDefinitionId).execute();
  if (steps.length === 0) return;
  const now = new Date().toISOString();
  await db(em)
    .insertInto('overseer_steps')
    .values(steps.map((step) => ({ ...step, task_definition_id: taskDefinitionId, created_at: now, updated_at: now })))
    .execute();
}
