import { EventEmitter } from 'node:events';
import { runOnce, type WorkerEvents } from 'graphile-worker';
import { workerLogger } from '../../src/lib/worker-logger.ts';
import { dockerEngine, type DockerEngine } from '../../src/adapters/docker.ts';
import { smtpMailer, type Mailer } from '../../src/adapters/mailer.ts';
import { createJobPool, taskList } from '../../workers/index.ts';
import { observeJobs } from '../../workers/metrics.ts';
import type { TestEnv } from './env.ts';

async function lockedJobs(env: TestEnv): Promise<number> {
  const [row] = await env.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from graphile_worker._private_jobs where locked_at is not null');
  return Number(row.n);
}

/** Tests without a mail server of their own send nothing (test/workers/mail*.test.ts start one). */
const noMail = smtpMailer(undefined, 'tests@localhost');

/**
 * Runs every queued job once, for real. graphile-worker's runOnce resolves once no job is left
 * to start, but it does not await the statement that marks the last job complete; the pool is
 * ours so that statement can finish, and we wait for it before anyone looks at the queue.
 */
export async function runJobs(env: TestEnv, docker: DockerEngine = dockerEngine('tcp://127.0.0.1:9'), mailer: Mailer = noMail): Promise<void> {
  const pgPool = createJobPool(env.databaseUrl, 3, env.services.logger);
  // Counted in the app's metrics, as the running service's worker counts its jobs (workers/index.ts).
  const events: WorkerEvents = new EventEmitter();
  observeJobs(events, env.services.metrics);
  try {
    await runOnce({
      pgPool,
      events,
      taskList: taskList({ ...env.services, docker, mailer }),
      logger: workerLogger(env.services.logger),
      noHandleSignals: true,
    });
    for (let waited = 0; await lockedJobs(env); waited += 20) {
      if (waited > 5000) throw new Error('a job is still locked 5 s after runOnce returned');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await pgPool.end();
  }
}
