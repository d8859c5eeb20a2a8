import { Logger as JobRunnerLogger } from 'graphile-worker';
import type { Logger } from './logger.ts';
import { currentScope } from './request-scope.ts';

/**
 * graphile-worker's logger, writing through the service's: its errors and warnings as such, its
 * info lines (every job started and finished, "looking for jobs") at debug, since the worker
 * writes its own line per job (workers/job-log.ts). A line written while a job runs carries the
 * job, its task and the id of the request that queued it.
 */
export function workerLogger(logger: Logger): JobRunnerLogger {
  const log = logger.child({ component: 'graphile-worker' });
  return new JobRunnerLogger((scope) => (level, message) => {
    const fields = { jobId: scope.jobId, task: scope.taskIdentifier, requestId: currentScope()?.requestId };
    if (level === 'error') log.error(fields, message);
    else if (level === 'warning') log.warn(fields, message);
    else log.debug(fields, message);
  });
}
