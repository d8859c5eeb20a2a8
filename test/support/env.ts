import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { manualClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { createServices, type Services } from '../../src/trpc/context.ts';
import { entities } from '../../schema/index.ts';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestEnv {
  app: FastifyInstance;
  orm: Orm;
  config: Config;
  clock: ReturnType<typeof manualClock>;
  services: Services;
  databaseUrl: string;
}

export const TEST_NOW = new Date('2026-03-02T00:00:00.000Z');
/** LTI_KEY_SECRET of the tests' app: LTI is on, as every route must answer (tests of the unset case clear it). */
export const TEST_LTI_KEY_SECRET = 'test-lti-key-secret-of-at-least-32-characters';

let current: Promise<TestEnv> | undefined;

/** One app and ORM for the whole run, on the database that test/run.ts started. */
export function testEnv(): Promise<TestEnv> {
  current ??= (async () => {
    const databaseUrl = process.env.TEST_DATABASE_URL;
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with npm test');
    const config = {
      ...loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'course-files-')) }),
      overseerEnabled: true,
      lti: { keySecret: TEST_LTI_KEY_SECRET },
    };
    const orm = await createOrm(databaseUrl);
    const clock = manualClock(TEST_NOW);
    // Errors only, as before structured logs: a line per request would bury the tests' own output
    // (test/rest/request-log.test.ts reads the lines of an app of its own).
    const services = createServices(orm, config, clock, createLogger({ level: 'error' }));
    const app = await buildApp(services);
    await app.ready();
    return { app, orm, config, clock, services, databaseUrl };
  })();
  return current;
}

export async function closeTestEnv(): Promise<void> {
  if (!current) return;
  const env = await current;
  await env.app.close();
  await env.services.live.close();
  await env.orm.close();
}

const TABLES = [...entities.map((e) => `"${(e as unknown as { meta: { tableName: string } }).meta.tableName}"`), 'graphile_worker._private_jobs'];

/**
 * The statement that empties the tables. TRUNCATE makes new files for every table and index, about
 * 130 ms each time, ~1,000 times a run; deleting the few rows a test wrote and putting the tables'
 * own sequences back (what RESTART IDENTITY does) costs ~3 ms. Foreign keys are not checked while
 * everything goes (session_replication_role, a superuser's setting: the embedded server's user is
 * one); on another server without it, TRUNCATE as before.
 */
let emptying: Promise<string> | undefined;
function emptyTables(env: TestEnv): Promise<string> {
  emptying ??= (async () => {
    const em = env.orm.em.fork();
    const [{ superuser }] = await em.execute<{ superuser: string }[]>(`select current_setting('is_superuser') as superuser`);
    if (superuser !== 'on') return `truncate ${TABLES.join(', ')} restart identity cascade`;
    const sequences = await em.execute<{ seq: string; start: string }[]>(
      `select d.objid::regclass::text as seq, s.seqstart::text as start from pg_depend d join pg_sequence s on s.seqrelid = d.objid
       where d.classid = 'pg_class'::regclass and d.refobjid = any(string_to_array(?, ',')::regclass[]) and d.deptype in ('a', 'i')`,
      [TABLES.join(',')],
    );
    return [
      'begin',
      'set local session_replication_role = replica',
      ...TABLES.map((table) => `delete from ${table}`),
      ...sequences.map(({ seq, start }) => `select setval('${seq}', ${start}, false)`),
      'commit',
    ].join(';\n');
  })();
  return emptying;
}

/**
 * Empties every table, the job queue and the stored files (keyed by ids, which restart), and puts
 * the clock back, so each test starts alike.
 */
export async function resetDatabase(env: TestEnv): Promise<void> {
  env.clock.set(TEST_NOW);
  await rm(env.config.storageRoot, { recursive: true, force: true });
  env.config.overseerEnabled = true;
  env.config.lti = { keySecret: TEST_LTI_KEY_SECRET };
  await env.orm.em.fork().execute(await emptyTables(env));
}

let listening: Promise<string> | undefined;

/**
 * The shared test app's base URL on 127.0.0.1, for clients that need a real socket (tRPC links,
 * SSE). The app is per test process and listens once: several files in one process share it.
 */
export function listeningBaseUrl(env: TestEnv): Promise<string> {
  listening ??= (async () => {
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const address = env.app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  })();
  return listening;
}
