import type { FastifyInstance } from 'fastify';
import { migrationsList } from '../schema/migrations/index.ts';
import type { Orm } from './db/orm.ts';

const CHECK_TIMEOUT_MS = 3_000;

/** Why the service cannot serve now, or undefined when the database answers and is up to date. */
async function notReadyBecause(orm: Orm): Promise<string | undefined> {
  const em = orm.em.fork();
  try {
    const applied = await em.execute<{ name: string }[]>('select name from mikro_orm_migrations');
    const names = new Set(applied.map((row) => row.name.replace(/\.[jt]s$/, '')));
    const pending = migrationsList.filter((m) => !names.has(m.name)).map((m) => m.name);
    if (pending.length) return `migrations not applied: ${pending.join(', ')}`;
    await em.execute('select 1 from graphile_worker.migrations limit 1');
    return undefined;
  } catch (error) {
    return `database unavailable: ${(error as Error).message.split('\n')[0]}`;
  }
}

function withTimeout(check: Promise<string | undefined>): Promise<string | undefined> {
  let timer: NodeJS.Timeout;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('database did not answer in time'), CHECK_TIMEOUT_MS)));
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

/**
 * Probes for load balancers and orchestrators: `/api/health` says only that the process serves
 * HTTP (restart it if not); `/api/ready` says whether it can do its work now (send it traffic).
 * While the service stops, Fastify itself answers 503 to both.
 */
export function registerHealthRoutes(app: FastifyInstance, orm: Orm): void {
  app.get('/api/health', async () => ({ status: 'ok' }));
  app.get('/api/ready', async (_request, reply) => {
    const reason = await withTimeout(notReadyBecause(orm));
    if (reason) return reply.code(503).send({ error: `Not ready: ${reason}` });
    return { status: 'ready' };
  });
}
