import type { Config } from '../config.ts';
import type { Admission } from '../db/admission.ts';
import { poolOf, type Orm } from '../db/orm.ts';
import type { Logger } from '../lib/logger.ts';
import { observeDatabase } from './pools.ts';
import { observeQueue } from './queue.ts';
import { createMetrics, type Metrics } from './registry.ts';

export type { Metrics } from './registry.ts';

/**
 * A process's metrics: the defaults (memory, event loop), HTTP and job histograms (filled by the
 * API and the job runner), the request pool and admission queue, and the shared job queue's depth.
 */
export function serviceMetrics(orm: Orm, config: Config, admission: Admission, logger: Logger): Metrics {
  const metrics = createMetrics((message) => logger.warn({ component: 'metrics' }, message));
  metrics.databasePools.set('requests', () => poolOf(orm));
  observeDatabase(metrics, admission);
  observeQueue(metrics, orm.config.get('clientUrl') as string, config.workerLiveness.staleSeconds);
  return metrics;
}
