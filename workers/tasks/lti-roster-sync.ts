import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { AppError, type ErrorKind } from '../../src/lib/errors.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { syncUnitRoster, unitsWithRosters } from '../../src/operations/lti/roster-sync.ts';
import type { WorkerServices } from '../services.ts';

const payload = z.object({ unitId: z.number().int() });

/**
 * The daily cron item: queues one `lti_roster_sync` per unit linked to an LMS course that offers a
 * roster. The job key is the unit's, so a unit still waiting (a second worker's cron run, a retry
 * in back-off) is queued once. Nothing without LTI_KEY_SECRET.
 */
export function ltiRosterSyncDueTask(services: WorkerServices): Task {
  return async (_payload, helpers) => {
    if (!services.config.lti.keySecret) return;
    const em = services.orm.em.fork();
    const units = await unitsWithRosters(em);
    await em.transactional(async (tx) => {
      const jobs = jobQueue(tx);
      for (const unitId of units) await jobs.add('lti_roster_sync', { unitId }, { jobKey: `lti_roster_sync:${unitId}` });
    });
    if (units.length > 0) helpers.logger.info(`queued the LMS roster sync of ${units.length} units`);
  };
}

/**
 * One unit's roster sync (src/operations/lti/roster-sync.ts), the same as a convenor's. An LMS that
 * cannot be read fails the job, which graphile-worker retries with back-off; a unit no longer
 * linked, or LTI turned off, is logged and not retried. Running it twice changes nothing more.
 */
/** What a retry will not mend: bad input (a unit no longer linked) and the service-unavailable kinds (LTI turned off among them). */
const NOT_RETRIED = new Set<ErrorKind>(['badRequest', 'unavailable', 'storageFull', 'notConfigured']);

export function ltiRosterSyncTask(services: WorkerServices): Task {
  return async (raw, helpers) => {
    const { unitId } = payload.parse(raw);
    try {
      const report = await syncUnitRoster(services.orm.em.fork(), services.config, services.clock, unitId);
      const errors = report.errors.length ? `; ${report.errors.length} members not synced, first: ${report.errors[0].user_id}: ${report.errors[0].error}` : '';
      helpers.logger.info(`unit ${unitId} roster synced: ${report.added} added, ${report.withdrawn} withdrawn, ${report.unchanged} unchanged${errors}`);
    } catch (error) {
      if (error instanceof AppError && NOT_RETRIED.has(error.kind)) {
        helpers.logger.warn(`unit ${unitId} roster not synced: ${error.message}`);
        return;
      }
      throw error;
    }
  };
}
