// GET .../test_attempts and .../test_attempts/latest: a task's attempts, newest first, and the
// newest (completed) one. A task that does not exist yet has none.
import type { Em } from '../../../../db/orm.ts';
import { notFound } from '../../../../lib/errors.ts';
import { attemptOut, attemptsOfTask, type TestAttemptOut } from './attempt-out.ts';

export async function listAttempts(em: Em, taskId: number | null): Promise<TestAttemptOut[]> {
  if (taskId === null) return [];
  return (await attemptsOfTask(em, taskId)).map((row) => attemptOut(row));
}

export async function latestAttempt(em: Em, taskId: number | null, completed: boolean): Promise<TestAttemptOut> {
  const [row] = taskId === null ? [] : await attemptsOfTask(em, taskId, { completedOnly: completed, limit: 1 });
  if (!row) throw notFound('No tests found for this task');
  return attemptOut(row);
}
