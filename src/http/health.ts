import { hostname } from 'node:os';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { migrationsList } from '../../schema/migrations/index.ts';
import { isStopping } from './drain.ts';
import { isOutOfFileHandles, outOfFileHandlesRecently } from '../lib/file-handles.ts';
import type { Services } from '../trpc/context.ts';

const CHECK_TIMEOUT_MS = 3_000;
const TOO_MANY_FILES = 'too many open files (connections and files use up what the process may hold)';
/** Storage is probed at most this often; readiness answers from the last probe in between. */
const STORAGE_PROBE_EVERY_MS = 5_000;
/** A storage probe still unfinished after this long means storage is not answering. */
const STORAGE_STALLED_MS = 30_000;

/**
 * Why the database keeps the service from serving, or undefined when it answers and is up to date.
 * Asked on a connection of its own, never one of the requests' pool: a busy pool is slowness,
 * not a reason to take the instance out of service. Once every migration was found applied, later
 * checks only ask the database to answer (migrations are not taken back), which keeps the probe
 * cheap while the database is busiest.
 */
function databaseCheck(probe: pg.Pool): () => Promise<string | undefined> {
  let migrated = false;
  return async () => {
    try {
      if (migrated) {
        await probe.query('select 1');
        return undefined;
      }
      const applied = await probe.query<{ name: string }>('select name from mikro_orm_migrations');
      const names = new Set(applied.rows.map((row) => row.name.replace(/\.[jt]s$/, '')));
      const pending = migrationsList.filter((m) => !names.has(m.name)).map((m) => m.name);
      if (pending.length) return `migrations not applied: ${pending.join(', ')}`;
      await probe.query('select 1 from graphile_worker.migrations limit 1');
      migrated = true;
      return undefined;
    } catch (error) {
      if (isOutOfFileHandles(error)) return TOO_MANY_FILES;
      return `database unavailable: ${(error as Error).message.split('\n')[0]}`;
    }
  };
}

/**
 * Writes and deletes a small file in the store (through the storage module, as uploads do) and
 * in the directory uploads stream to, so that full or read-only storage shows here before
 * uploads fail with 507 or 503.
 */
function storageProbe(services: Services): () => Promise<string | undefined> {
  const key = `ready-probe/${hostname().replace(/[^A-Za-z0-9_.-]/g, '_')}-${process.pid}`;
  const incoming = join(services.config.dataDir, 'incoming');
  const probe = async (): Promise<string | undefined> => {
    const step = async (where: string, work: () => Promise<unknown>) => {
      try {
        await work();
        return undefined;
      } catch (error) {
        if (isOutOfFileHandles(error)) return TOO_MANY_FILES;
        const e = error as NodeJS.ErrnoException;
        return `${where} cannot be written: ${e.code ?? e.message}`;
      }
    };
    return (
      (await step(`storage (${services.storage.location})`, async () => {
        await services.storage.put(key, Readable.from([Buffer.from('ready\n')]));
        await services.storage.delete(key);
      })) ??
      (await step(`the upload directory (${incoming})`, async () => {
        await mkdir(incoming, { recursive: true });
        const file = join(incoming, `.ready-probe-${process.pid}`);
        await writeFile(file, 'ready\n');
        await rm(file, { force: true });
      }))
    );
  };
  // Readiness answers from the last finished probe and starts the next in the background: a probe
  // is several file operations in a row, each waiting for a turn of the event loop, and a loop
  // busy with a flood of requests makes it slow, which is not a reason to take traffic away.
  // Only a probe that fails, or one that has not finished for STORAGE_STALLED_MS, says not ready.
  let last: { at: number; reason: string | undefined } | undefined;
  let running: { since: number; done: Promise<void> } | undefined;
  return async () => {
    const now = performance.now();
    if (!running && (!last || now - last.at >= STORAGE_PROBE_EVERY_MS)) {
      const done = probe().then((reason) => {
        last = { at: performance.now(), reason };
        running = undefined;
      });
      running = { since: now, done };
    }
    if (!last)
      await withTimeout(
        running!.done.then(() => undefined),
        'storage did not answer in time',
      );
    if (running && now - running.since > STORAGE_STALLED_MS) return `storage did not answer within ${STORAGE_STALLED_MS / 1000} s`;
    return last ? last.reason : 'storage did not answer in time';
  };
}

function withTimeout(check: Promise<string | undefined>, late: string): Promise<string | undefined> {
  let timer: NodeJS.Timeout;
  // After the I/O that arrived meanwhile: a busy event loop that runs the timer late must not
  // report an answer that is already waiting as missing.
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => setImmediate(() => resolve(late)), CHECK_TIMEOUT_MS)));
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Probes for load balancers and orchestrators: `/api/health` says only that the process serves
 * HTTP (restart it if not); `/api/ready` says whether it can do its work now (send it traffic):
 * the database answers on the probe's own connection, migrations are applied, storage can be
 * written, and the process has file descriptors left. While the service stops, both answer 503.
 */
export function registerHealthRoutes(app: FastifyInstance, services: Services): void {
  // One connection, kept open: it needs no new socket even when the process has none to spare.
  const probe = new pg.Pool({
    connectionString: services.orm.config.get('clientUrl'),
    max: 1,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: CHECK_TIMEOUT_MS,
  });
  probe.on('error', () => {}); // a dropped idle connection: the next probe reconnects
  app.addHook('onClose', async () => probe.end());
  const databaseNotReady = databaseCheck(probe);
  const storageNotReady = storageProbe(services);

  app.get('/api/health', async (_request, reply) => {
    if (isStopping(app)) return reply.code(503).send({ error: 'The service is stopping.' });
    return { status: 'ok' };
  });
  app.get('/api/ready', async (_request, reply) => {
    const reason = isStopping(app)
      ? 'the service is stopping'
      : outOfFileHandlesRecently()
        ? TOO_MANY_FILES
        : ((await withTimeout(databaseNotReady(), 'database did not answer in time')) ?? (await storageNotReady()));
    if (reason) return reply.code(503).send({ error: `Not ready: ${reason}` });
    return { status: 'ready' };
  });
}
