import type { Task } from 'graphile-worker';
import { deleteExpiredAssertions } from '../../src/operations/auth/saml-replay.ts';
import { deleteExpiredTokens } from '../../src/operations/auth/session-tokens.ts';
import { deleteEndedWindows } from '../../src/operations/auth/sign-in-throttle.ts';
import type { WorkerServices } from '../services.ts';

/**
 * Removes what sign-in leaves behind once it no longer matters: tokens past their expiry (SCORM asset tokens too),
 * sign-in failure counts whose window has ended, and records of SAML assertions that would be refused
 * as expired anyway. Scheduled hourly by the worker's crontab. Idempotent.
 */
export function deleteExpiredTokensTask(services: WorkerServices): Task {
  return async (_payload, helpers) => {
    const em = services.orm.em.fork();
    const now = services.clock.now();
    const tokens = await deleteExpiredTokens(em, now);
    const throttles = await deleteEndedWindows(em, now);
    const assertions = await deleteExpiredAssertions(em, now);
    if (tokens + throttles + assertions > 0) {
      helpers.logger.info(
        `deleted ${tokens} expired sign-in and SCORM tokens, ${throttles} ended throttle windows, ${assertions} expired SAML assertion records`,
      );
    }
  };
}
