// Job counts, durations and failures by task, from graphile-worker's events: job_duration_seconds
// (src/metrics/registry.ts) gets one observation per job this process ran, with its outcome.
import { performance } from 'node:perf_hooks';
import type { WorkerEvents } from 'graphile-worker';
import type { Metrics } from '../src/metrics/index.ts';

export function observeJobs(events: WorkerEvents, metrics: Metrics): void {
  const started = new Map<string, number>();
  events.on('job:start', ({ job }) => started.set(job.id, performance.now()));
  // `job:complete` follows both a success and an error (graphile-worker sends it as it writes the result).
  events.on('job:complete', ({ job, error }) => {
    const at = started.get(job.id);
    started.delete(job.id);
    if (at === undefined) return;
    metrics.jobDuration.observe({ task: job.task_identifier, outcome: error ? 'failure' : 'success' }, (performance.now() - at) / 1000);
  });
}
