// Replicas started together (compose `replicas: 2`, a Kubernetes rollout) each migrate the schema
// and make sure of the first Admin. MikroORM's migrator takes no lock of its own, so two of them on
// an empty database both run the first migration and all but one fail ("relation already exists").
// One PostgreSQL advisory lock orders them: the first migrates, the others wait for it, then find
// nothing left to do. The lock belongs to a session, so a replica that dies mid-way frees it.
import pg from 'pg';

/** The lock's two keys (the two-int form, as the code-similarity job's lock is spelled). */
export const START_UP_LOCK_SQL = "hashtext('start_up'), 0";

/** Runs `work` while this process holds the start-up lock, on a connection of its own. */
export async function withStartUpLock<T>(databaseUrl: string, work: () => Promise<T>, connectTimeoutMs = 5_000): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => {}); // a connection lost mid-way ends the session, and the lock with it
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${START_UP_LOCK_SQL})`);
    return await work();
  } finally {
    // Closing the session releases the lock.
    await client.end().catch(() => {});
  }
}
