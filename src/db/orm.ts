import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type pg from 'pg';
import { entities } from '../../schema/index.ts';
import { migrationsList } from '../../schema/migrations/index.ts';
import type { Logger } from '../lib/logger.ts';

export type Orm = MikroORM;
export type Em = EntityManager;

export interface PoolOptions {
  /** Connections in the pool (DATABASE_POOL_SIZE). */
  poolMax?: number;
  /** How long a query may wait for a connection of a busy pool (then "timeout exceeded when trying to connect"). */
  queueTimeoutMs?: number;
  /** How long one attempt to connect may take (then "timeout expired"). */
  connectTimeoutMs?: number;
  /** Where MikroORM's own lines go (the migrator's "Applied …"); unset: MikroORM's default, the console. */
  logger?: Logger;
}

/**
 * pg-pool bounds two different waits with its one `connectionTimeoutMillis`: waiting in its queue
 * for a busy pool's connection (slowness) and connecting (the database may be gone). The pool
 * keeps the queue's bound, and its clients get the connect bound of their own, so that a busy
 * pool is never taken for a database that is away (src/db/unavailable.ts tells the two apart).
 */
function boundConnects(pool: pg.Pool, connectTimeoutMs: number): void {
  const mutable = pool as unknown as { Client: new (config: pg.ClientConfig) => pg.Client };
  const Base = mutable.Client;
  mutable.Client = class extends Base {
    constructor(config: pg.ClientConfig) {
      // The pool hides the password from enumeration (and so from a spread): pass it on by name.
      super({ ...config, password: config.password, connectionTimeoutMillis: connectTimeoutMs });
    }
  };
}

/** Each ORM's pg pool, once MikroORM has made it (for its metrics: src/metrics/pools.ts). */
const pools = new WeakMap<Orm, { pool?: pg.Pool }>();

/** The ORM's pg pool, undefined before its first connection. */
export function poolOf(orm: Orm): pg.Pool | undefined {
  return pools.get(orm)?.pool;
}

export async function createOrm(databaseUrl: string, options: PoolOptions = {}): Promise<Orm> {
  const { poolMax = 10, queueTimeoutMs = 60_000, connectTimeoutMs = 5_000, logger } = options;
  const made: { pool?: pg.Pool } = {};
  const orm = await MikroORM.init({
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
    pool: { min: 0, max: poolMax },
    // Without bounds, a request waits forever for a database that accepts no connections.
    driverOptions: {
      connectionTimeoutMillis: queueTimeoutMs,
      onPoolCreated: (pool: pg.Pool) => {
        made.pool = pool;
        boundConnects(pool, connectTimeoutMs);
      },
    },
    // graphile-worker's tables are its own; a generated migration must never touch them.
    schemaGenerator: { ignoreSchema: ['graphile_worker'] },
    // Every request works in its own fork; the global manager must never collect state.
    allowGlobalContext: false,
    debug: false,
    // The service's JSON lines (src/lib/logger.ts), uncoloured.
    ...(logger && { logger: (message: string) => logger.info({ component: 'mikro-orm' }, message), colors: false }),
  });
  pools.set(orm, made);
  return orm;
}
