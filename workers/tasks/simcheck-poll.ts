import type { Task } from 'graphile-worker';
import { actionRun, actionsWaitingSince } from '../../src/operations/similarity/simcheck-actions.ts';
import { runAction } from '../../src/operations/similarity/simcheck.ts';
import type { WorkerServices } from '../services.ts';

/** An action waits this long after its last run before the poll runs it again. */
const WAIT_MS = 30 * 60_000;

/**
 * Cron (every 30 minutes): runs each action that is waiting to retry and has not run for half an
 * hour. This is what moves documents on when a webhook never arrives, and what resumes work after
 * an outage; it stops at the first sign the service is unavailable, and spaces its calls
 * (`pauseMs`) to stay far below the service's rate limit.
 */
export function simcheckPoll(services: WorkerServices, pauseMs = 2_000): Task {
  return async (_payload, helpers) => {
    const em = services.orm.em.fork();
    const run = actionRun(em, services);
    if (!run) return;
    const before = new Date(run.now.getTime() - WAIT_MS);
    const waiting = await actionsWaitingSince(em, before);
    for (const [i, action] of waiting.entries()) {
      if (helpers.abortSignal?.aborted) return;
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      await runAction(run, action);
      if (action.errorCode === 'service_not_available') return;
    }
  };
}
