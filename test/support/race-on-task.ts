// Requests that race on one task's row: a transaction of our own holds the row's lock while the
// requests start one after the other (each waiting for the lock before the next starts), then
// lets them all go. A request that does not lock the task then reads it before the others' changes.
// raceOnLock does the same with any lock a statement takes (an advisory lock, say).
import pg from 'pg';
import type { TestEnv } from './env.ts';
import type { TestResponse } from './http.ts';

export function raceOnTask(env: TestEnv, taskId: number, requests: (() => Promise<TestResponse>)[]): Promise<TestResponse[]> {
  return raceOnLock(env, { sql: 'select id from tasks where id = $1 for update', params: [taskId] }, requests);
}

/** The requests start while a transaction of our own holds the lock `hold` takes, each waiting on it before the next starts. */
export async function raceOnLock(env: TestEnv, hold: { sql: string; params: unknown[] }, requests: (() => Promise<TestResponse>)[]): Promise<TestResponse[]> {
  const holder = new pg.Client({ connectionString: env.databaseUrl });
  // Outside the holder's transaction, which would see one snapshot of pg_stat_activity throughout.
  const observer = new pg.Client({ connectionString: env.databaseUrl });
  await holder.connect();
  await observer.connect();
  try {
    await holder.query('begin');
    await holder.query(hold.sql, hold.params);
    const started: Promise<TestResponse>[] = [];
    for (const request of requests) {
      started.push(request());
      await waitForLockWaiters(observer, started.length);
    }
    await holder.query('commit');
    return await Promise.all(started);
  } finally {
    await holder.end();
    await observer.end();
  }
}

async function waitForLockWaiters(observer: pg.Client, count: number): Promise<void> {
  // Only a hang: on a busy machine the requests may take a while to reach the lock.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await observer.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and wait_event_type = 'Lock'",
    );
    if (rows[0].n >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${count} requests waited for the lock`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
