// Starting the whole service, and stopping it in the one order that loses nothing: stop taking
// requests, let those in flight and the running jobs finish (or hand the jobs back), close the
// pools, and stop the embedded database last.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { discardCutOffUploads } from '../compat/multipart.ts';
import { sweepIncomingNowAndHourly } from '../compat/incoming-sweep.ts';
import { buildApp } from './app.ts';
import { beginStop } from './http/drain.ts';
import type { Config } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { embeddedClusterDirectory, postgresRunAs } from './db/postgres-host.ts';
import { migrate } from './db/migrate.ts';
import { createOrm, type Orm } from './db/orm.ts';
import { ensureAdmin } from './operations/users/ensure-admin.ts';
import { systemClock } from './lib/clock.ts';
import { closeThreads } from './threads/pool.ts';
import { createServices, type Services } from './trpc/context.ts';
import type { Logger } from './lib/logger.ts';
import { startMetricsListener, type MetricsListener } from './metrics/listener.ts';
import { dockerEngine } from './adapters/docker.ts';
import { smtpMailer } from './adapters/mailer.ts';
import { createJobPool, releaseAbandonedJobs, startWorker, type JobWorker } from '../workers/index.ts';

export interface RunningService {
  /** The address the API listens on, when this process serves HTTP. */
  address?: string;
  /** The ordered stop; safe to call more than once. */
  stop(): Promise<void>;
}

/** Resolves to 'timeout' if `work` takes longer than `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout;
  const late = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  return Promise.race([work.then(() => 'done' as const), late]).finally(() => clearTimeout(timer));
}

/**
 * Lets requests in flight finish for up to `graceMs` (answering each with `Connection: close`, idle
 * connections closed at once: src/http/drain.ts), then cuts the connections still open.
 */
async function drainHttp(app: FastifyInstance, graceMs: number): Promise<void> {
  const closing = beginStop(app);
  if ((await within(closing, graceMs)) === 'timeout') {
    app.log.warn(`requests still running after ${graceMs / 1000} s; closing their connections`);
    app.server.closeAllConnections();
    await closing;
  }
  await discardCutOffUploads();
}

/** Starts what `config.role` asks for; everything it says goes to `logger` (src/lib/logger.ts). */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const log = (message: string) => logger.info(message);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    if (config.role !== 'all') throw new Error('SERVICE_ROLE=api or worker needs DATABASE_URL: separate processes must share one database server');
    const cluster = embeddedClusterDirectory(config.dataDir, postgresRunAs());
    if (cluster.outside)
      log(
        `the system user "postgres" cannot reach ${config.dataDir}, so the embedded database keeps its data in ${cluster.dir} (recorded in ` +
          `${join(config.dataDir, 'pg.location')})`,
      );
    embedded = await startEmbeddedPostgres(cluster.dir, { persistent: true, log: (message) => logger.warn({ component: 'embedded-postgres' }, message) });
    databaseUrl = embedded.url;
    log(`embedded PostgreSQL running with data in ${cluster.dir}`);
  }

  let orm: Orm | undefined;
  let jobPool: pg.Pool | undefined;
  let app: FastifyInstance | undefined;
  let worker: JobWorker | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let services: Services | undefined;
  let metricsListener: MetricsListener | undefined;
  let stopped: Promise<void> | undefined;

  const stop = () =>
    (stopped ??= (async () => {
      const graceMs = config.shutdownGraceSeconds * 1000;
      clearInterval(sweeper);
      await Promise.all([app && drainHttp(app, graceMs), worker?.stop(graceMs)]);
      await services?.live.close();
      // Scraped until the work is done, so the last jobs' metrics can still be read.
      await metricsListener?.close();
      await services?.metrics.close();
      // Jobs were handed back above, which ended their threads; nothing is left running in the pool.
      await closeThreads();
      await orm?.close();
      await jobPool?.end();
      await embedded?.stop();
    })());

  try {
    const applied = await migrate(databaseUrl, { logger });
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    const { poolSize, queueTimeoutMs, connectTimeoutMs } = config.database;
    orm = await createOrm(databaseUrl, { poolMax: poolSize, queueTimeoutMs, connectTimeoutMs, logger });
    if (!config.objectStorage) mkdirSync(config.storageRoot, { recursive: true });

    const admin = await ensureAdmin(orm, config);
    if (admin.created) {
      log(`created Admin user "${config.adminUsername}"`);
      if (admin.generatedPassword) log(`  generated password (shown once): ${admin.generatedPassword}`);
    }

    services = createServices(orm, config, systemClock, logger);
    // The worker first, so that once the API answers (and /api/ready says 200) everything runs.
    if (config.role !== 'api') {
      jobPool = createJobPool(databaseUrl, config.workerConcurrency + 2, logger);
      if (embedded) {
        const released = await releaseAbandonedJobs(jobPool);
        if (released) log(`released ${released} job(s) left locked by an earlier run`);
      }
      worker = await startWorker(jobPool, {
        ...services,
        docker: dockerEngine(config.docker.host, config.docker.registryProxy, config.docker),
        mailer: smtpMailer(config.mail.smtpUrl, config.mail.from, logger),
      });
      log(`job worker running (concurrency ${config.workerConcurrency})`);
    }
    if (config.metrics.port !== undefined) {
      metricsListener = await startMetricsListener(services.metrics, config.metrics.token, config.metrics.port, config.host);
      log(`metrics at http://localhost:${metricsListener.port}/metrics`);
    }
    if (config.role !== 'worker') {
      sweeper = await sweepIncomingNowAndHourly(config, log);
      app = await buildApp(services);
      await app.listen({ port: config.port, host: config.host });
      log(`API listening on http://localhost:${config.port} (docs at /api/docs)`);
    }
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }

  const address = app?.server.address();
  return { address: typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : undefined, stop };
}
