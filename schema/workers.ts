import { defineEntity, p } from '@mikro-orm/core';

/**
 * One row per running job worker process (workers/liveness.ts): it refreshes `seenAt` every few
 * seconds and removes its row on a clean stop, so the table is the view of live workers. A row
 * whose `seenAt` is stale names a dead worker (or one cut off from the database); any other worker
 * then frees the jobs it had locked. `poolId` is graphile-worker's worker-pool id, the value that
 * job locks carry in `locked_by`.
 */
export const WorkerHeartbeat = defineEntity({
  name: 'WorkerHeartbeat',
  tableName: 'worker_heartbeats',
  properties: {
    poolId: p.string().length(100).primary(),
    hostname: p.string().length(255),
    pid: p.integer(),
    startedAt: p.datetime(),
    seenAt: p.datetime(),
  },
});
