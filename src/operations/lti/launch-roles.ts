// The LTI context roles a launch names (`https://purl.imsglobal.org/spec/lti/claim/roles`), reduced
// to the three this tool maps to unit roles. Only context (membership) roles count: institution and
// system roles (`…/institution/person#…`, `…/system/person#…`) say nothing about this course, so an
// LMS Administrator gets nothing here automatically.

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership';

export interface CourseRoles {
  learner: boolean;
  instructor: boolean;
  teachingAssistant: boolean;
}

/** `Instructor`, or `Instructor#TeachingAssistant` for a sub-role; null for a role outside the course. */
function membershipRole(role: string): string | null {
  if (role.startsWith(`${MEMBERSHIP}#`)) return role.slice(MEMBERSHIP.length + 1);
  // A sub-role: …/membership/Instructor#TeachingAssistant.
  if (role.startsWith(`${MEMBERSHIP}/`)) return role.slice(MEMBERSHIP.length + 1);
  // The short forms LTI 1.1 used and some platforms still send (`Instructor`, `Learner`).
  if (!role.includes(':') && !role.includes('/')) return role;
  return null;
}

/**
 * What the roles make this person in the course. A teaching assistant is named by the sub-role
 * `Instructor#TeachingAssistant` (Canvas sends it beside plain `Instructor`), so it wins over
 * Instructor; the short `TeachingAssistant` is accepted too.
 */
export function courseRoles(roles: readonly string[]): CourseRoles {
  const names = roles.map(membershipRole).filter((r): r is string => r !== null);
  const teachingAssistant = names.some((r) => r === 'Instructor#TeachingAssistant' || r === 'TeachingAssistant');
  return {
    teachingAssistant,
    instructor: !teachingAssistant && names.some((r) => r === 'Instructor' || r.startsWith('Instructor#')),
    learner: names.some((r) => r === 'Learner' || r.startsWith('Learner#')),
  };
}

/** Teaching staff of the course (Instructor or teaching assistant): they are employed, never enrolled. */
export const isStaff = (roles: CourseRoles) => roles.instructor || roles.teachingAssistant;
