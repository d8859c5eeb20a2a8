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
