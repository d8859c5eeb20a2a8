// GET .../overseer_assessment/{oa_id}/steps[/{result_id}] (docs/assessment-steps.md): what each
// step did in one assessment run. Staff see every text; the student only what the step's show_*
// flags allowed when it ran (the flags are kept with the result).
import { isoTimestamp, db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { type StepOutcomeName, visibleTexts } from '../../../../domain/overseer-steps.ts';
import { notFound } from '../../../../lib/errors.ts';
import { sharingTaskIds } from '../submission/submission-files.ts';

const INT32_MAX = 2_147_483_647;
const UNKNOWN_ASSESSMENT = 'Unable to find requested automated assessment';

export interface StepResultOut {
  id: number;
  step_id: number | null;
  position: number;
  name: string;
  display_name: string | null;
  outcome: StepOutcomeName;
  pass: boolean;
  exit_status: number | null;
  duration_ms: number | null;
  feedback_message: string | null;
  stdout: string | null;
  stdout_sha256: string | null;
  stdin: string | null;
  stdin_sha256: string | null;
  expected_output: string | null;
  expected_output_sha256: string | null;
  show_stdout: boolean;
  show_stdin: boolean;
  show_expected_output: boolean;
}

export interface AssessmentStepsOut {
  assessment_id: number;
  status: string;
  result_task_status: string | null;
  submission_timestamp: string;
  steps: StepResultOut[];
}

/** The assessment's step results in run order, as `staff` or the student may see them (404 for another task's assessment). */
export async function assessmentStepResults(
  em: Em,
  taskId: number | null,
  assessmentId: number,
  staff: boolean,
  resultId?: number,
): Promise<AssessmentStepsOut> {
  if (taskId === null || assessmentId > INT32_MAX) throw notFound(UNKNOWN_ASSESSMENT);
  const k = db(em);
  const record = await k
    .selectFrom('overseer_assessments')
    .select(['id', 'status', 'result_task_status', 'submission_timestamp'])
    .where('id', '=', assessmentId)
    .where('task_id', 'in', await sharingTaskIds(em, taskId))
    .executeTakeFirst();
  if (!record) throw notFound(UNKNOWN_ASSESSMENT);
  let q = k.selectFrom('overseer_step_results').selectAll().where('assessment_id', '=', assessmentId).orderBy('position');
  if (resultId !== undefined) q = q.where('id', '=', Math.min(resultId, INT32_MAX));
  const rows = await q.execute();
  if (resultId !== undefined && rows.length === 0) throw notFound('Unable to find requested step result');
  return {
    assessment_id: record.id,
    status: record.status,
    result_task_status: record.result_task_status,
    submission_timestamp: isoTimestamp(record.submission_timestamp),
    steps: rows.map((r) => {
      const texts = visibleTexts(
        {
          stdout: r.stdout,
          stdoutSha256: r.stdout_sha256,
          stdin: r.stdin,
          stdinSha256: r.stdin_sha256,
          expectedOutput: r.expected_output,
          expectedOutputSha256: r.expected_output_sha256,
        },
        { showStdout: r.show_stdout, showStdin: r.show_stdin, showExpectedOutput: r.show_expected_output },
        staff,
      );
      return {
        id: r.id,
        step_id: r.step_id,
        position: r.position,
        name: r.name,
        display_name: r.display_name,
        outcome: r.outcome,
        pass: r.pass,
        exit_status: r.exit_status,
        duration_ms: r.duration_ms,
        feedback_message: r.feedback_message,
        stdout: texts.stdout,
        stdout_sha256: texts.stdoutSha256,
        stdin: texts.stdin,
        stdin_sha256: texts.stdinSha256,
        expected_output: texts.expectedOutput,
        expected_output_sha256: texts.expectedOutputSha256,
        show_stdout: r.show_stdout,
        show_stdin: r.show_stdin,
        show_expected_output: r.show_expected_output,
      };
    }),
  };
}
