import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import { workerLogger } from '../lib/worker-logger.ts';
import { createOrm } from './orm.ts';

/**
 * The session-level advisory lock every start (and `npm run migrate`) holds while it migrates. The
 * processes of a deployment start together (`deploy.replicas: 2`, a rolling upgrade); without it
 * they apply the same migrations at once and all but one fail ("relation mikro_orm_migrations
 * already exists"). The key is an arbitrary constant of this service; docs/operating/scaling.md.
 */
export const MIGRATION_LOCK = 7_164_031_916;

/**
 * Brings a database up to date: our tables first, then graphile-worker's job tables. One process
 * at a time: the others wait for the lock, then find the migrations done.
 */
export async function migrate(databaseUrl: string, options: { quiet?: boolean } = {}): Promise<string[]> {
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    // Released with the session as well, should this process die while it migrates.
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const orm = await createOrm(databaseUrl, { poolMax: 2 });
    try {
      const applied = await orm.migrator.up();
      await runMigrations({ connectionString: databaseUrl, logger: workerLogger(options.quiet ?? true) });
      return applied.map((m) => m.name);
    } finally {
      await orm.close();
    }
  } finally {
    await lock.end();
  }
}
