// One log line per job run, in the scope of the request that queued it: the line, every line the
// task writes (through helpers.logger, src/lib/worker-logger.ts) and the jobs it queues in turn
// carry that request's id (src/lib/request-scope.ts), so one id finds a request and all its work.
import { performance } from 'node:perf_hooks';
import type { Task } from 'graphile-worker';
import type { Logger } from '../src/lib/logger.ts';
import { inScope, requestIdOf } from '../src/lib/request-scope.ts';

export function withJobLog(task: Task, logger: Logger): Task {
  return (payload, helpers) => {
    const requestId = requestIdOf(payload);
    return inScope({ requestId }, async () => {
      // `job` is always there when graphile-worker runs the task; tests that call a task directly may leave it out.
      const job = helpers?.job as typeof helpers.job | undefined;
      const fields = { task: job?.task_identifier, jobId: job?.id, attempt: job?.attempts, requestId };
      const started = performance.now();
      const durationMs = () => Math.round((performance.now() - started) * 10) / 10;
      try {
        const result = await task(payload, helpers);
        logger.info({ ...fields, outcome: 'success', durationMs: durationMs() }, 'job completed');
        return result;
      } catch (error) {
        // graphile-worker retries it with back-off until max_attempts; its own line says when it gives up.
        logger.warn({ ...fields, outcome: 'failure', durationMs: durationMs(), err: error }, 'job failed');
        throw error;
      }
    });
  };
}
