import { runMigrations } from 'graphile-worker';
import { createOrm } from './orm.ts';

/** Brings a database up to date: our tables first, then graphile-worker's job tables. */
export async function migrate(databaseUrl: string, options: { quiet?: boolean } = {}): Promise<string[]> {
  const orm = await createOrm(databaseUrl, { poolMax: 2 });
  try {
    const applied = await orm.migrator.up();
    await runMigrations({ connectionString: databaseUrl, logger: silentLogger(options.quiet ?? true) });
    return applied.map((m) => m.name);
  } finally {
    await orm.close();
  }
}

import { Logger } from 'graphile-worker';
export function silentLogger(quiet: boolean): Logger {
  return new Logger(() => (level, message) => {
    if (!quiet || level === 'error') console.error(`[worker:${level}] ${message}`);
  });
}
