// A staff override of an attempt's result: PATCH /api/test_attempts/{id} with `success_status`
// (the newer web client sends it in the query string, with an empty body). The result is set in
// the attempt and its data model, who and when are recorded, the attempt's comment is rewritten,
// and a pass moves the task to the definition's pass status as the staff member's change. An open
// attempt is ended by it.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { ProjectRole } from '../../policy/index.ts';
import { notFound } from '../../lib/errors.ts';
import { ATTEMPT_COLUMNS, attemptOut, jsonb, findAttempt, type AttemptRow, type TestAttemptOut } from '../projects/task_def_id/test_attempts/attempt-out.ts';
import { loadAttemptTask, movePassedTask, stateResult } from './attempt-result.ts';

export async function overrideResult(
  em: Em,
  attemptId: number,
  by: { userId: number; role: ProjectRole },
  fields: { success_status: boolean; comment?: string },
  now: Date,
): Promise<TestAttemptOut> {
  const attempt = await findAttempt(em, attemptId, true);
  if (!attempt) throw notFound('Unable to find requested Test attempt');
  const passed = fields.success_status;
  const model = { ...attempt.cmi_datamodel, 'cmi.success_status': passed ? 'passed' : 'failed' };
  const row = (await db(em)
    .updateTable('test_attempts')
    .set({
      cmi_datamodel: jsonb(model),
      success_status: passed,
      success_overridden_by_id: by.userId,
      success_overridden_at: now.toISOString(),
      ...(!attempt.terminated && { terminated: true, terminated_at: now.toISOString() }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', attempt.id)
    .returning(ATTEMPT_COLUMNS)
    .executeTakeFirstOrThrow()) as unknown as AttemptRow;
  const task = await loadAttemptTask(em, attempt.task_id);
  await stateResult(em, task, attempt.id, passed, model, now);
  if (passed) await movePassedTask(em, task, by, fields.comment, now);
  return attemptOut(row);
}
