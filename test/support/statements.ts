import { createRequire } from 'node:module';
import pg from 'pg';

// MikroORM may bring its own copy of pg; patch the client class of every copy in use.
const ormRequire = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/postgresql'));
const clientClasses = [...new Set([pg.Client, (ormRequire('pg') as typeof pg).Client])];

/**
 * Counts the SQL statements sent to PostgreSQL while `fn` runs, whichever way they are sent
 * (MikroORM's connection or a Kysely query), by watching the pg clients themselves. Tests run
 * one at a time, so nothing else is counted.
 */
export async function countStatements(fn: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const originals = clientClasses.map((Client) => {
    const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
    return () => (proto.query = original);
  });
  try {
    await fn();
  } finally {
    for (const restore of originals) restore();
  }
  return count;
}
