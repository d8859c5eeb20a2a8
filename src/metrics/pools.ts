// Database connections at scrape time, from memory (no query): each pg pool's connections in use,
// idle and the queries waiting for one, and the requests waiting for their turn with the database
// (src/db/admission.ts), which is where a busy API's requests actually queue.
import { Gauge } from 'prom-client';
import type { Admission } from '../db/admission.ts';
import type { Metrics } from './registry.ts';

/** Reports the pools of `metrics.databasePools` (one not made yet left out) and, when given, the admission queue. */
export function observeDatabase(metrics: Metrics, admission?: Admission): void {
  const pools = () => [...metrics.databasePools].map(([name, pool]) => [name, pool()] as const);
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of each database pool (requests: the API pool; jobs: the job runner), by state (in_use, idle)',
    labelNames: ['pool', 'state'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const [pool, p] of pools()) {
        if (!p) continue;
        this.set({ pool, state: 'in_use' }, p.totalCount - p.idleCount);
        this.set({ pool, state: 'idle' }, p.idleCount);
      }
    },
  });
  new Gauge({
    name: 'db_pool_waiting',
    help: 'Queries waiting for a connection of each database pool',
    labelNames: ['pool'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const [pool, p] of pools()) if (p) this.set({ pool }, p.waitingCount);
    },
  });
  if (!admission) return;
  new Gauge({
    name: 'db_admission_requests',
    help: 'API requests working with the database (running) and waiting in memory for their turn (waiting); DATABASE_POOL_SIZE run at once',
    labelNames: ['state'],
    registers: [metrics.registry],
    collect() {
      const { running, waiting } = admission.load;
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}
