import { runMigrations } from 'graphile-worker';
import { createLogger, type Logger } from '../lib/logger.ts';
import { workerLogger } from '../lib/worker-logger.ts';
import { createOrm } from './orm.ts';
import { withStartUpLock } from './start-up-lock.ts';

/**
 * Brings a database up to date: our tables first, then graphile-worker's job tables. One process
 * at a time (src/db/start-up-lock.ts): replicas starting together wait for the first one's.
 * `logger` hears the migration lines (graphile-worker's: errors only by default).
 */
export async function migrate(databaseUrl: string, options: { logger?: Logger } = {}): Promise<string[]> {
  return withStartUpLock(databaseUrl, async () => {
    const orm = await createOrm(databaseUrl, { poolMax: 2, logger: options.logger });
    try {
      const applied = await orm.migrator.up();
      await runMigrations({ connectionString: databaseUrl, logger: workerLogger(options.logger ?? createLogger({ level: 'error' })) });
      return applied.map((m) => m.name);
    } finally {
      await orm.close();
    }
  });
}
