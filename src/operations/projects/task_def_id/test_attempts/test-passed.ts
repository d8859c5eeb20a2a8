// The upload's gate (docs/online-tests.md, "passing"): where a definition's online test is on and
// `scorm_bypass_test` is off, a student uploads work only once an attempt of the task counts as
// passed. Staff are not held back.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { forbidden } from '../../../../lib/errors.ts';

export const PASS_TEST_FIRST = "Pass this task's online test before uploading your work.";

export async function refuseUploadUntilPassed(em: Em, definition: { scormEnabled: boolean; scormBypassTest: boolean }, taskId: number | null): Promise<void> {
  if (!definition.scormEnabled || definition.scormBypassTest) return;
  const passed =
    taskId !== null &&
    (await db(em).selectFrom('test_attempts').select('id').where('task_id', '=', taskId).where('success_status', '=', true).limit(1).executeTakeFirst()) !==
      undefined;
  if (!passed) throw forbidden(PASS_TEST_FIRST);
}
