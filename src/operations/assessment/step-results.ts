// What an assessment in steps records (docs/assessment-steps.md): a row per step and run in
// overseer_step_results, the status the run asks for, and its one summary comment.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { statusOfRun, summaryComment } from '../../domain/overseer-steps.ts';
import type { TaskStatus } from '../../domain/vocabulary.ts';
import { flowOf, type StepResultToStore } from './run-steps.ts';

const title = (r: StepResultToStore) => r.step.display_name || r.step.name;

/** The run's status (of the last step that ran and names one) and its summary comment, holding only what the flags show. */
export function stepsOutcome(results: StepResultToStore[]): { status: TaskStatus | null; comment: string } {
  const status = statusOfRun(results.map((r) => ({ flow: flowOf(r.step), passed: r.outcome === 'skipped' ? null : r.outcome === 'passed' })));
  const comment = summaryComment(
    results.map((r) => ({
      title: title(r),
      outcome: r.outcome,
      feedback: r.feedback,
      stdout: r.stdout?.text ?? null,
      stdin: r.stdin?.text ?? null,
      expectedOutput: r.expected?.text ?? null,
      showStdout: r.step.show_stdout,
      showStdin: r.step.show_stdin,
      showExpectedOutput: r.step.show_expected_output,
    })),
  );
  return { status, comment };
}

/** Replaces the assessment's step results with these, in one statement each (inside the caller's transaction). */
export async function storeStepResults(em: Em, assessmentId: number, results: StepResultToStore[], now: Date): Promise<void> {
  const k = db(em);
  await k.deleteFrom('overseer_step_results').where('assessment_id', '=', assessmentId).execute();
  if (results.length === 0) return;
  // A step deleted while the run went on keeps its result, without the link.
  const still = new Set(
    (
      await k
        .selectFrom('overseer_steps')
        .select('id')
        .where(
          'id',
          'in',
          results.map((r) => r.step.id),
        )
        .execute()
    ).map((r) => r.id),
  );
  await k
    .insertInto('overseer_step_results')
    .values(
      results.map((r) => ({
        assessment_id: assessmentId,
        step_id: still.has(r.step.id) ? r.step.id : null,
        position: r.position,
        name: r.step.name,
        display_name: r.step.display_name,
        outcome: r.outcome,
        pass: r.outcome === 'passed',
        exit_status: r.exitStatus,
        duration_ms: r.durationMs,
        stdout: r.stdout?.text ?? null,
        stdout_sha256: r.stdout?.sha256 ?? null,
        stdout_bytes: r.stdout?.bytes ?? null,
        stdin: r.stdin?.text ?? null,
        stdin_sha256: r.stdin?.sha256 ?? null,
        expected_output: r.expected?.text ?? null,
        expected_output_sha256: r.expected?.sha256 ?? null,
        feedback_message: r.feedback,
        show_expected_output: r.step.show_expected_output,
        show_stdin: r.step.show_stdin,
        show_stdout: r.step.show_stdout,
        created_at: now.toISOString(),
      })),
    )
    .execute();
}
