// The rules of a task's online-test attempts (docs/online-tests.md): whose word a pass is, when a
// new attempt may start, how long a student waits between attempts, and the sentence of the
// comment that states an attempt's result. Pure: no I/O.
import type { ScormTrust } from './vocabulary.ts';
import type { DataModelFacts } from './scorm-datamodel.ts';

/**
 * Whether an attempt counts as passed (the `success_status` every rule reads): a staff override
 * decides when there is one; otherwise the package's report counts under `package` trust, and
 * nothing does under `staff` trust.
 */
export function countedPass(trust: ScormTrust, reportedPass: boolean, override: boolean | null): boolean {
  if (override !== null) return override;
  return trust === 'package' && reportedPass;
}

/**
 * Whether the attempt stops the student starting another: passed by its counted result, or, under
 * `staff` trust, reported as passed by the package and not yet decided by staff (a student who
 * passed waits for the tutor rather than spending attempts).
 */
export function passBlocksNewAttempt(attempt: { successStatus: boolean; overridden: boolean; reportedPass: boolean }): boolean {
  return attempt.overridden ? attempt.successStatus : attempt.successStatus || attempt.reportedPass;
}

/** The attempts a task allows: the definition's limit plus the extra attempts granted (null: no limit). */
export function attemptLimit(limit: number, extraAttempts: number): number | null {
  return limit === 0 ? null : limit + extraAttempts;
}

/** The extra attempts one granted request adds: one more block of the definition's limit (as the original). */
export const attemptsPerExtension = (limit: number): number => limit;

export interface StartState {
  /** Attempts the task has (deleted ones do not count). */
  count: number;
  last: { terminated: boolean; blocksNew: boolean; endedAt: Date } | null;
  limit: number;
  extraAttempts: number;
  timeDelay: boolean;
}

export type StartCheck = { ok: true } | { ok: false; error: string } | { ok: false; error: string; retryAt: Date };

/** Whether the student may start an attempt now, or why not (in the original's order, then the delay). */
export function mayStartAttempt(state: StartState, now: Date): StartCheck {
  const { last } = state;
  if (last && !last.terminated) return { ok: false, error: 'An attempt is still ongoing. Cannot initiate new attempt.' };
  if (last?.blocksNew) return { ok: false, error: 'User has passed the SCORM test. Cannot initiate more attempts.' };
  const limit = attemptLimit(state.limit, state.extraAttempts);
  if (limit !== null && state.count >= limit) return { ok: false, error: 'Attempt limit has been reached' };
  if (state.timeDelay && last) {
    const retryAt = new Date(last.endedAt.getTime() + attemptDelayMs(state.count + 1));
    if (retryAt > now) {
      return {
        ok: false,
        error: `The next attempt may start at ${retryAt.toISOString()}: each further attempt waits longer after the last one ended.`,
        retryAt,
      };
    }
  }
  return { ok: true };
}

/** The first wait (before the third attempt), and the longest. */
export const DELAY_BASE_MS = 5 * 60_000;
export const DELAY_CAP_MS = 24 * 60 * 60_000;

/**
 * How long attempt `n` (1-based) waits after the previous attempt ended, when the definition's
 * time delay is on: nothing for the first and second, then 5 minutes before the third, doubling
 * with each further attempt (10, 20, 40 minutes, ...), at most 24 hours.
 */
export function attemptDelayMs(n: number): number {
  if (n <= 2) return 0;
  return Math.min(DELAY_BASE_MS * 2 ** Math.min(n - 3, 30), DELAY_CAP_MS);
}

/**
 * The `scorm` comment's sentence (the original's success_status_description): "Passed without
 * mistakes" for a pass with score 1 (or, without a score, with every recorded interaction right),
 * "Passed" for another pass, "Unsuccessful" otherwise; under `staff` trust a pass the package
 * reported and staff have not decided says so.
 */
export function resultDescription(
  passed: boolean,
  awaitingStaff: boolean,
  facts: Pick<DataModelFacts, 'scoreScaled' | 'interactions' | 'wrongInteractions'>,
): string {
  if (passed) {
    const flawless = facts.scoreScaled === null ? facts.interactions > 0 && facts.wrongInteractions === 0 : facts.scoreScaled >= 1;
    return flawless ? 'Passed without mistakes' : 'Passed';
  }
  if (awaitingStaff) return 'Passed, as reported by the test: awaiting staff confirmation';
  return 'Unsuccessful';
}
