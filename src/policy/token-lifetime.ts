import type { SystemRole } from '../../schema/enums.ts';

const HOUR = 60 * 60 * 1000;
const WEEK = 7 * 24 * HOUR;

/**
 * How long a sign-in lasts. "Remember me" stretches it for students (2 weeks) and tutors
 * (1 week); convenors and admins keep the 2-hour limit because their accounts can change
 * more, as in the original system.
 */
export function tokenLifetimeMs(role: SystemRole, remember: boolean): number {
  if (remember && role === 'Student') return 2 * WEEK;
  if (remember && role === 'Tutor') return WEEK;
  return 2 * HOUR;
}

/**
 * How long a SCORM asset token lasts (docs/online-tests.md, "Assets"): long enough for a sitting
 * of a test whose page keeps fetching its files, short enough that a URL copied out of a browser
 * soon stops working. The client asks for a fresh one at each launch.
 */
export const SCORM_TOKEN_LIFETIME_MS = 6 * HOUR;

/** Live SCORM tokens a user keeps; issuing another drops the oldest beyond it, so the table stays bounded. */
export const SCORM_TOKENS_PER_USER = 20;
