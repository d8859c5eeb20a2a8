import { runMigrations } from 'graphile-worker';
import { workerLogger } from '../lib/worker-logger.ts';
import { createOrm } from './orm.ts';
import { withStartUpLock } from './start-up-lock.ts';

/**
 * Brings a database up to date: our tables first, then graphile-worker's job tables. One process
 * at a time (src/db/start-up-lock.ts): replicas starting together wait for the first one's.
 */
export async function migrate(databaseUrl: string, options: { quiet?: boolean } = {}): Promise<string[]> {
  return withStartUpLock(databaseUrl, async () => {
    const orm = await createOrm(databaseUrl, { poolMax: 2 });
    try {
      const applied = await orm.migrator.up();
      await runMigrations({ connectionString: databaseUrl, logger: workerLogger(options.quiet ?? true) });
      return applied.map((m) => m.name);
    } finally {
      await orm.close();
    }
  });
}
