import { runMigrations } from 'graphile-worker';
import { createLogger, type Logger } from '../lib/logger.ts';
import { workerLogger } from '../lib/worker-logger.ts';
import { createOrm } from './orm.ts';

/** Brings a database up to date: our tables first, then graphile-worker's job tables. */
/** `logger` hears graphile-worker's migration lines (errors only by default). */
export async function migrate(databaseUrl: string, options: { logger?: Logger } = {}): Promise<string[]> {
  const orm = await createOrm(databaseUrl, { poolMax: 2, logger: options.logger });
  try {
    const applied = await orm.migrator.up();
    await runMigrations({ connectionString: databaseUrl, logger: workerLogger(options.logger ?? createLogger({ level: 'error' })) });
    return applied.map((m) => m.name);
  } finally {
    await orm.close();
  }
}
