import type { Task } from 'graphile-worker';
import { deleteExpiredTokens } from '../../src/lib/sessions.ts';
import type { WorkerServices } from '../index.ts';

/** Removes sign-in tokens past their expiry; scheduled hourly by the worker's crontab. Idempotent. */
export function deleteExpiredTokensTask(services: WorkerServices): Task {
  return async (_payload, helpers) => {
    const deleted = await deleteExpiredTokens(services.orm.em.fork(), services.clock.now());
    if (deleted > 0) helpers.logger.info(`deleted ${deleted} expired sign-in tokens`);
  };
}
