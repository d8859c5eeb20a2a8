// What every benchmark starts from: a migrated throw-away database, one signed-in Admin, the
// service exactly as main.ts builds it, and a bare Fastify server with a `pg` pool on the same
// database for the baseline routes. Both servers run in this process; the load generator runs
// on a worker thread.
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { User } from '../../schema/index.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { createServices } from '../../src/trpc/context.ts';
import { LoadGenerator, startDatabase, stopDatabase } from './support.ts';
import { ROLE } from '../../src/policy/index.ts';

export interface Bench {
  orm: Orm;
  pool: pg.Pool;
  /** Headers of the signed-in Admin `benchadmin`. */
  headers: Record<string, string>;
  /** Base URL of the service. */
  service: string;
  /** Add baseline routes here, then call `listenBare`. */
  bare: FastifyInstance;
  listenBare(): Promise<string>;
  load: LoadGenerator;
}

/** Runs `body` with a fresh bench, `seed` having filled the database first; always cleans up. */
export async function withBench(seed: (orm: Orm) => Promise<void>, body: (bench: Bench) => Promise<void>): Promise<void> {
  const db = await startDatabase();
  const orm = await createOrm(db.url);
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  // Stopping the server at the end kills connections the pool is still closing; that is expected.
  pool.on('error', () => {});
  const bare = Fastify({ logger: false });
  const load = new LoadGenerator();
  let app: FastifyInstance | undefined;
  try {
    await seed(orm);
    // The planner's statistics as autovacuum would have them a minute after a bulk load, whether or
    // not it has run yet: straight after the demo seed (300 students, no autoanalyze yet) the
    // workload dashboard answered in 500-630 ms, and in 120 ms once analysed.
    await orm.em.getConnection().execute('analyze');
    const em = orm.em.fork();
    const admin = em.create(User, {
      username: 'benchadmin',
      email: 'benchadmin@example.edu',
      firstName: 'Bench',
      lastName: 'Admin',
      systemRole: ROLE.admin,
      passwordHash: null,
      hasRunFirstTimeSetup: true,
    });
    await em.flush();
    const token = await issueToken(orm.em.fork(), admin, systemClock.now(), false);
    const headers = { Username: 'benchadmin', 'Auth-Token': token, Accept: 'application/json' };

    // LOG_LEVEL=error, so the service logs nothing but errors: no line per request during a benchmark.
    const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'course-bench-data-')), LOG_LEVEL: 'error' });
    app = await buildApp(createServices(orm, config, systemClock));
    const service = await app.listen({ host: '127.0.0.1', port: 0 });
    const listenBare = () => bare.listen({ host: '127.0.0.1', port: 0 });
    await body({ orm, pool, headers, service, bare, listenBare, load });
  } finally {
    await load.close();
    await app?.close();
    await bare.close();
    await pool.end();
    await orm.close();
    await stopDatabase(db);
  }
}
