import { run, type Runner, type Task, type TaskList } from 'graphile-worker';
import type { JobName } from '../src/lib/jobs.ts';
import type { Config } from '../src/config.ts';
import type { Orm } from '../src/db/orm.ts';
import { silentLogger } from '../src/db/migrate.ts';
import type { Clock } from '../src/lib/clock.ts';
import type { DockerEngine } from './adapters/docker.ts';
import { deleteExpiredTokensTask } from './tasks/delete-expired-tokens.ts';
import { pullOverseerImage } from './tasks/pull-overseer-image.ts';

export interface WorkerServices {
  orm: Orm;
  config: Config;
  clock: Clock;
  docker: DockerEngine;
}

/** Every job the service runs, by the name procedures enqueue it under. */
export function taskList(services: WorkerServices): TaskList & Record<JobName, Task> {
  return {
    pull_overseer_image: pullOverseerImage(services),
    delete_expired_tokens: deleteExpiredTokensTask(services),
  };
}

/** Scheduled jobs, in graphile-worker's crontab format. */
export const CRONTAB = '0 * * * * delete_expired_tokens';

export async function startWorker(databaseUrl: string, services: WorkerServices): Promise<Runner> {
  return run({
    connectionString: databaseUrl,
    concurrency: services.config.workerConcurrency,
    taskList: taskList(services),
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: silentLogger(true),
  });
}
