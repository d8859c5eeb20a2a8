import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { createOrm } from './db/orm.ts';
import { ensureAdmin } from './lib/bootstrap.ts';
import { systemClock } from './lib/clock.ts';
import { createServices } from './trpc/context.ts';
import { dockerEngine } from '../workers/adapters/docker.ts';
import { startWorker } from '../workers/index.ts';

const config = loadConfig();
let embedded: EmbeddedDatabase | undefined;
let databaseUrl = config.databaseUrl;
if (!databaseUrl) {
  if (config.role !== 'all') throw new Error('SERVICE_ROLE=api or worker needs DATABASE_URL: separate processes must share one database server');
  embedded = await startEmbeddedPostgres(join(config.dataDir, 'pg'), { persistent: true });
  databaseUrl = embedded.url;
  console.log(`embedded PostgreSQL running with data in ${join(config.dataDir, 'pg')}`);
}

const applied = await migrate(databaseUrl);
if (applied.length) console.log(`applied migrations: ${applied.join(', ')}`);
const orm = await createOrm(databaseUrl);
mkdirSync(config.storageRoot, { recursive: true });

const admin = await ensureAdmin(orm, config);
if (admin.created) {
  console.log(`created Admin user "${config.adminUsername}"`);
  if (admin.generatedPassword) console.log(`  generated password (shown once): ${admin.generatedPassword}`);
}

const services = createServices(orm, config, systemClock);
const app = config.role === 'worker' ? undefined : await buildApp(services);
if (app) {
  await app.listen({ port: config.port, host: config.host });
  console.log(`API listening on http://localhost:${config.port} (docs at /api/docs)`);
}
const worker =
  config.role === 'api'
    ? undefined
    : await startWorker(databaseUrl, { ...services, docker: dockerEngine(config.docker.host, config.docker.registryProxy) });
if (worker) console.log(`job worker running (concurrency ${config.workerConcurrency})`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  await app?.close();
  await worker?.stop();
  await orm.close();
  await embedded?.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
