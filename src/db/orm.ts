import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../../schema/index.ts';
import { migrationsList } from '../../schema/migrations/index.ts';

export type Orm = MikroORM;
export type Em = EntityManager;

export async function createOrm(databaseUrl: string, options: { poolMax?: number } = {}): Promise<Orm> {
  return MikroORM.init({
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      path: 'schema/migrations',
      pathTs: 'schema/migrations',
      emit: 'ts',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Without a bound, a request waits forever for a database that accepts no connections.
    driverOptions: { connectionTimeoutMillis: 5_000 },
    // graphile-worker's tables are its own; a generated migration must never touch them.
    schemaGenerator: { ignoreSchema: ['graphile_worker'] },
    // Every request works in its own fork; the global manager must never collect state.
    allowGlobalContext: false,
    debug: false,
  });
}
