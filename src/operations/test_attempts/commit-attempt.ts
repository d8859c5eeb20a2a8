// The student's PATCH /api/test_attempts/{id}: a commit of the package's data model, and the end
// of the attempt (docs/online-tests.md, "Attempts"). The attempt row is locked, so a commit and
// the end cannot cross. A commit must be a valid SCORM 2004 data model (src/domain/scorm-datamodel.ts);
// an ended attempt takes none.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { applyCommit, dataModelFacts, parseCommit } from '../../domain/scorm-datamodel.ts';
import { countedPass } from '../../domain/test-attempts.ts';
import type { ProjectRole } from '../../policy/index.ts';
import { badRequest, notFound, tooLarge } from '../../lib/errors.ts';
import { ATTEMPT_COLUMNS, attemptOut, jsonb, findAttempt, type AttemptRow, type TestAttemptOut } from '../projects/task_def_id/test_attempts/attempt-out.ts';
import { loadAttemptTask, movePassedTask, stateResult } from './attempt-result.ts';

export const ENDED = 'This attempt has ended: its data can no longer change.';

/**
 * Applies the commit and, with `terminated`, ends the attempt: its comment states the result, and
 * a pass on the package's word moves the task to the pass status as the student's own change. An
 * end of an incomplete attempt with cmi.exit "suspend" closes the session only: the attempt stays
 * open to be resumed. No
 * fields at all (the player resuming) answers the attempt as it is.
 */
export async function commitAttempt(
  em: Em,
  attemptId: number,
  by: { userId: number; role: ProjectRole },
  fields: { cmi_datamodel?: string; terminated?: boolean },
  now: Date,
): Promise<TestAttemptOut> {
  const attempt = await findAttempt(em, attemptId, true);
  if (!attempt) throw notFound('Unable to find requested Test attempt');
  const ending = fields.terminated === true;
  if (fields.cmi_datamodel === undefined && !ending) return attemptOut(attempt);
  if (attempt.terminated) throw badRequest(ENDED);

  let model = attempt.cmi_datamodel;
  if (fields.cmi_datamodel !== undefined) {
    const parsed = parseCommit(fields.cmi_datamodel);
    if (!parsed.ok) throw parsed.tooLarge ? tooLarge(parsed.error) : badRequest(parsed.error);
    const applied = applyCommit(model, parsed.commit);
    if (!applied.ok) throw applied.tooLarge ? tooLarge(applied.error) : badRequest(applied.error);
    model = applied.model;
  }
  const task = await loadAttemptTask(em, attempt.task_id);
  const facts = dataModelFacts(model);
  const passed = countedPass(task.definition.scormTrust, facts.reportedPass, null);
  // Numbas sets cmi.exit "suspend" when an exam starts and never changes it: a completed attempt
  // ends whatever its exit says.
  const ends = ending && (facts.completed || !facts.suspended);
  const row = (await db(em)
    .updateTable('test_attempts')
    .set({
      cmi_datamodel: jsonb(model),
      completion_status: facts.completed,
      success_status: passed,
      score_scaled: facts.scoreScaled,
      ...(ends && { terminated: true, terminated_at: now.toISOString() }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', attempt.id)
    .returning(ATTEMPT_COLUMNS)
    .executeTakeFirstOrThrow()) as unknown as AttemptRow;
  if (ends) {
    await stateResult(em, task, attempt.id, passed, model, now);
    if (passed) await movePassedTask(em, task, by, undefined, now);
  }
  return attemptOut(row);
}
