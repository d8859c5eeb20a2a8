import { runMigrations } from 'graphile-worker';
import { workerLogger } from '../lib/worker-logger.ts';
import { createOrm } from './orm.ts';

/** Brings a database up to date: our tables first, then graphile-worker's job tables. */
export async function migrate(databaseUrl: string, options: { quiet?: boolean } = {}): Promise<string[]> {
  const orm = await createOrm(databaseUrl, { poolMax: 2 });
  try {
    const applied = await orm.migrator.up();
    await runMigrations({ connectionString: databaseUrl, logger: workerLogger(options.quiet ?? true) });
    return applied.map((m) => m.name);
  } finally {
    await orm.close();
  }
}
