// LTI context roles (LIS v2 membership vocabulary) as the unit roles they map to. Platforms send the
// full URIs (`http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor`, the sub-role
// `…/membership/Instructor#TeachingAssistant`), some the short forms (`Instructor`) or the LTI 1.1
// URNs (`urn:lti:role:ims/lis/Instructor`). Institution roles (`…/institution/person#Instructor`)
// say nothing about this course and are ignored, as are context roles with no unit role here
// (Mentor, ContentDeveloper, the context's Administrator).

/** What a person is in the linked unit, from their roles in the LMS course; null: nothing here. */
export type LtiCourseRole = 'instructor' | 'teaching_assistant' | 'learner';

const MEMBERSHIP = 'http://purl.imsglobal.org/vocab/lis/v2/membership';
const LIS1 = 'urn:lti:role:ims/lis/';

const TEACHING_ASSISTANT = new Set([
  `${MEMBERSHIP}/Instructor#TeachingAssistant`,
  `${MEMBERSHIP}#TeachingAssistant`,
  'Instructor#TeachingAssistant',
  'TeachingAssistant',
  `${LIS1}TeachingAssistant`,
  `${LIS1}Instructor/TeachingAssistant`,
]);
const INSTRUCTOR = new Set([`${MEMBERSHIP}#Instructor`, 'Instructor', `${LIS1}Instructor`]);
const LEARNER = new Set([`${MEMBERSHIP}#Learner`, 'Learner', `${LIS1}Learner`]);

/**
 * The unit role the roles ask for. A teaching assistant's roles usually hold Instructor as well (the
 * sub-role comes with its principal role), so TeachingAssistant is looked for first; staff roles
 * win over Learner.
 */
export function courseRole(roles: readonly string[]): LtiCourseRole | null {
  const given = roles.map((r) => r.trim());
  if (given.some((r) => TEACHING_ASSISTANT.has(r))) return 'teaching_assistant';
  if (given.some((r) => INSTRUCTOR.has(r))) return 'instructor';
  if (given.some((r) => LEARNER.has(r))) return 'learner';
  return null;
}
