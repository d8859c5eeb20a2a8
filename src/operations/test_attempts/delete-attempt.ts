// DELETE /api/test_attempts/{id} (staff): the attempt goes, and its `scorm` comment with it (the
// foreign key cascades); answers the attempt as it was (200, as the original). It no longer counts
// towards the attempts allowed or the time delay; a status its pass moved the task to stays, as
// any other status change does.
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { notFound } from '../../lib/errors.ts';
import { publishTaskEvent } from '../live/publish-task-event.ts';
import { ATTEMPT_COLUMNS, attemptOut, type AttemptRow, type TestAttemptOut } from '../projects/task_def_id/test_attempts/attempt-out.ts';

export async function deleteAttempt(em: Em, attemptId: number): Promise<TestAttemptOut> {
  const gone = (await db(em).deleteFrom('test_attempts').where('id', '=', attemptId).returning(ATTEMPT_COLUMNS).executeTakeFirst()) as unknown as
    | AttemptRow
    | undefined;
  if (!gone) throw notFound('Unable to find requested Test attempt');
  await publishTaskEvent(em, 'comment', [gone.task_id]);
  return attemptOut(gone);
}
