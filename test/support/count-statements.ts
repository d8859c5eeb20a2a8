import { createRequire } from 'node:module';

// The ORM's driver has its own copy of pg (a different version from ours): patch that one.
const pg = createRequire(import.meta.resolve('@mikro-orm/postgresql'))('pg') as { Client: { prototype: unknown } };

/**
 * Counts every SQL statement sent to PostgreSQL while `fn` runs, through the ORM or Kysely alike
 * (`countQueries` in seed.ts sees only the ORM's own connection, not Kysely queries).
 */
export async function countStatements(fn: () => Promise<unknown>): Promise<number> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let count = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return count;
}
