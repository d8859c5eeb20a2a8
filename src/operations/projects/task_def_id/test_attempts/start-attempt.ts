// POST .../test_attempts: the task's student starts an attempt at its online test. The task row is
// locked first, so two starts at once queue on it and the second sees the first's open attempt.
// Refused (400) while the last attempt is open or passed, or once the attempts allowed are used;
// with the definition's time delay, too early a start gets 429 and when it may start.
import { sql } from 'kysely';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { initialDataModel } from '../../../../domain/scorm-datamodel.ts';
import { mayStartAttempt, passBlocksNewAttempt } from '../../../../domain/test-attempts.ts';
import { badRequest, forbidden, tooManyRequests } from '../../../../lib/errors.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { ATTEMPT_COLUMNS, attemptOut, jsonb, attemptsOfTask, type AttemptRow, type TestAttemptOut } from './attempt-out.ts';

export interface AttemptDefinition {
  id: number;
  scormEnabled: boolean;
  scormAttemptLimit: number;
  scormTimeDelayEnabled: boolean;
}

export const NO_TEST = 'This task has no online test: attempts can be made only while it is enabled.';

export async function startAttempt(
  em: Em,
  on: { taskId: number | null; projectId: number; definition: AttemptDefinition },
  now: Date,
): Promise<TestAttemptOut> {
  const { definition } = on;
  if (!definition.scormEnabled) throw forbidden(NO_TEST);
  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, definition.id, now));
  const task = await sql<{ scorm_extensions: number; student_id: string | null; username: string; first_name: string; last_name: string }>`
    select t.scorm_extensions, u.student_id, u.username, u.first_name, u.last_name
    from tasks t join projects p on p.id = t.project_id join users u on u.id = p.user_id
    where t.id = ${taskId} for update of t`.execute(db(em));
  const { scorm_extensions, student_id, username, first_name, last_name } = task.rows[0];

  const counted = await db(em)
    .selectFrom('test_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
  const [last] = await attemptsOfTask(em, taskId, { limit: 1 });
  const check = mayStartAttempt(
    {
      count: Number(counted.n),
      last: last ? lastState(last) : null,
      limit: definition.scormAttemptLimit,
      extraAttempts: scorm_extensions,
      timeDelay: definition.scormTimeDelayEnabled,
    },
    now,
  );
  if (!check.ok) {
    if ('retryAt' in check) throw tooManyRequests(check.error, Math.max(1, Math.ceil((check.retryAt.getTime() - now.getTime()) / 1000)));
    throw badRequest(check.error);
  }

  const model = initialDataModel({ id: student_id ?? username, name: `${first_name} ${last_name}`.trim() });
  const row = await db(em)
    .insertInto('test_attempts')
    .values({ task_id: taskId, attempted_time: now.toISOString(), cmi_datamodel: jsonb(model), updated_at: now.toISOString() })
    .returning(ATTEMPT_COLUMNS)
    .executeTakeFirstOrThrow();
  return attemptOut(row as unknown as AttemptRow);
}

function lastState(row: AttemptRow) {
  return {
    terminated: row.terminated,
    blocksNew: passBlocksNewAttempt({
      successStatus: row.success_status,
      overridden: row.success_overridden_at !== null,
      reportedPass: row.cmi_datamodel['cmi.success_status'] === 'passed',
    }),
    endedAt: timestamp(row.terminated_at ?? row.attempted_time),
  };
}
