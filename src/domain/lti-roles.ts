// LTI context roles (LIS v2 membership vocabulary) as the one course role this tool maps to unit
// roles; the launch and the roster sync (NRPS) read roles only through here. Platforms send the full
// URIs (`http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor`, the sub-role
// `…/membership/Instructor#TeachingAssistant`), some the short forms (`Instructor`,
// `Instructor#TeachingAssistant`) or the LTI 1.1 URNs (`urn:lti:role:ims/lis/Instructor`,
// `urn:lti:role:ims/lis/Instructor/TeachingAssistant`). Institution and system roles
// (`…/institution/person#Instructor`) say nothing about this course and are ignored, so an LMS
// Administrator gets nothing here automatically; so are context roles with no unit role here
// (Mentor, ContentDeveloper, the context's Administrator).

/** What a person is in the linked unit, from their roles in the LMS course; null: nothing here. */
export type LtiCourseRole = 'instructor' | 'teaching_assistant' | 'learner';

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership';
const LIS1 = 'urn:lti:role:ims/lis/';

/** A context role as its principal role and sub-role (`Instructor`, `TeachingAssistant`); null outside the course. */
function parse(role: string): { principal: string; sub?: string } | null {
  const r = role.trim();
  let rest: string;
  if (r.startsWith(`${MEMBERSHIP}#`)) rest = r.slice(MEMBERSHIP.length + 1);
  else if (r.startsWith(`${MEMBERSHIP}/`)) rest = r.slice(MEMBERSHIP.length + 1);
  else if (r.startsWith(LIS1)) rest = r.slice(LIS1.length).replace('/', '#');
  else if (!r.includes(':') && !r.includes('/')) rest = r;
  else return null;
  const [principal, sub] = rest.split('#');
  return { principal, sub };
}

/**
 * The unit role the roles ask for. A teaching assistant's roles usually hold Instructor as well
 * (Canvas sends the sub-role beside its principal role), so TeachingAssistant wins; staff roles win
 * over Learner.
 */
export function courseRole(roles: readonly string[]): LtiCourseRole | null {
  const parsed = roles.map(parse).filter((r) => r !== null);
  if (parsed.some((r) => r.principal === 'TeachingAssistant' || r.sub === 'TeachingAssistant')) return 'teaching_assistant';
  if (parsed.some((r) => r.principal === 'Instructor')) return 'instructor';
  if (parsed.some((r) => r.principal === 'Learner')) return 'learner';
  return null;
}

/** Teaching staff of the course: employed, never enrolled. */
export const isCourseStaff = (role: LtiCourseRole | null): boolean => role === 'instructor' || role === 'teaching_assistant';
