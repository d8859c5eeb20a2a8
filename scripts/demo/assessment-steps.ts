// The demo seed's automated assessment in steps (docs/assessment-steps.md): the first definition
// that asks for code gets automated assessment on and three steps (a check that the program is
// there, a sum compared with an expected output, hidden tests that stop at the first failure), made
// by the operation the routes use. No image is registered, so nothing runs until an admin adds one.
import { db } from '../../src/db/kysely.ts';
import { createStep } from '../../src/operations/units/task_definitions/overseer_steps/save-step.ts';
import type { Services } from '../../src/trpc/context.ts';

const STEPS = [
  { name: 'present', display_name: 'Program handed in', run_command: 'test -s program.c && echo found', halt_on_failure: true, show_stdout: true },
  {
    name: 'sum',
    display_name: 'Adds two numbers',
    run_command: 'cc -o sum program.c && ./sum',
    timeout_ms: 10_000,
    stdin_input_file: 'input.txt',
    expected_output_file: 'expected.txt',
    output_comparison: 'whitespace' as const,
    feedback_message: 'Your program should print the sum of the two numbers it reads.',
    status_on_failure: 'fix_and_resubmit' as const,
    halt_on_failure: true,
    show_stdin: true,
    show_stdout: true,
  },
  {
    name: 'hidden',
    display_name: 'Hidden tests',
    run_command: 'sh hidden-tests.sh',
    timeout_ms: 20_000,
    feedback_message: 'Some hidden cases fail: think about negative numbers.',
    status_on_success: 'discuss' as const,
  },
];

/** Returns the definition given steps (null when the unit has none) and how many steps it got. */
export async function seedAssessmentSteps(services: Services, unitId: number): Promise<{ taskDefinitionId: number | null; steps: number }> {
  return services.orm.em.fork().transactional(async (em) => {
    const k = db(em);
    const definitions = await k.selectFrom('task_definitions').select(['id', 'upload_requirements']).where('unit_id', '=', unitId).orderBy('id').execute();
    const code = definitions.find((d) => (d.upload_requirements as { type?: string }[]).some((r) => r.type === 'code')) ?? definitions[0];
    if (!code) return { taskDefinitionId: null, steps: 0 };
    await k.updateTable('task_definitions').set({ assessment_enabled: true }).where('id', '=', code.id).execute();
    for (const step of STEPS) await createStep(em, unitId, code.id, step);
    return { taskDefinitionId: code.id, steps: STEPS.length };
  });
}
