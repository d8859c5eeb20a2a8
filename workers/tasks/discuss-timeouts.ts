import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { runDiscussTimeouts } from '../../src/operations/tasks/discuss-timeouts.ts';
import type { WorkerServices } from '../services.ts';

// Nothing to choose: the cron's own `_cron` field is all it carries (a test's add has `{}`); the day is the clock's.
const payloadSchema = z.object({ _cron: z.object({ ts: z.string() }).passthrough().optional() });

/**
 * The daily discuss timeouts (docs/discuss-timeouts.md; cron, 06:00 UTC, in a queue of its own so
 * two runs never overlap): warns the students whose tasks have waited in discuss for their unit's
 * warning days, and sends back to fix_and_resubmit those past the expiry days. "Today" is the UTC
 * date of the clock. Each task's notice commits on its own with its mark, so a run that stops
 * half-way leaves nothing to repeat, and running again the same day changes nothing.
 */
export function discussTimeoutsTask(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    payloadSchema.parse(rawPayload ?? {});
    const run = await runDiscussTimeouts(services.orm.em.fork(), services.clock.now());
    if (run.warned + run.expired + run.skipped > 0) {
      helpers.logger.info(`discuss timeouts: ${run.warned} warned, ${run.expired} sent back to fix and resubmit, ${run.skipped} left for the next run`);
    }
    for (const problem of run.problems) helpers.logger.error(`discuss timeouts could not send back ${problem}`);
  };
}
