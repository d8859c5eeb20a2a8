// The launch's course roles applied to the unit its context is linked to, and only that unit: a
// role claimed in one course never reaches a unit linked to another. Enrolling and employing go
// through the operations the REST routes use (enrolProjects, employStaff), so their rules hold.
import { Unit, UnitRole, type IUser } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import { type LtiCourseRole, isCourseStaff } from '../../domain/lti-roles.ts';
import { staffRoleFromLms } from '../../policy/index.ts';
import { forbidden } from '../../lib/errors.ts';
import { enrolProjects } from '../projects/enrol-projects.ts';
import { employStaff } from '../unit_roles/change-staff.ts';

const CANNOT_TEACH =
  'The LMS names you teaching staff of this course, but your account here cannot teach. Ask an administrator to change your account to a Tutor.';

/**
 * - Instructor: Convenor when the unit has no main convenor yet (employStaff makes them it) and
 *   their account may convene; else Tutor.
 * - Teaching assistant: Tutor.
 * - Learner (and not staff): enrolled as a Student; a withdrawn student is enrolled again, since
 *   the LMS says they belong to the course now (roster sync withdraws those who leave).
 * Someone already on the unit's staff keeps their role, and is never enrolled as a student. A
 * system role is never changed: staff whose account cannot teach are refused (403).
 */
export async function applyCourseRoles(em: Em, unitId: number, user: IUser, role: LtiCourseRole | null): Promise<void> {
  const staffRole = await em.findOne(UnitRole, { unit: unitId, user: user.id });
  if (isCourseStaff(role)) {
    if (staffRole) return;
    const unit = await em.findOneOrFail(Unit, { id: unitId });
    const given = staffRoleFromLms(role === 'instructor', user.systemRole, unit.mainConvenor != null);
    if (!given) throw forbidden(CANNOT_TEACH);
    await employStaff(em, { unitId, userId: user.id, role: given });
    return;
  }
  if (role === 'learner' && !staffRole) await enrolProjects(em, unitId, [{ userId: user.id, campusId: null }]);
}
