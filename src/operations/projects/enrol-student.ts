// POST /api/projects: a member of staff enrols one student, named by username, student id or email.
import { Campus } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { forbidden } from '../../lib/errors.ts';
import { findOr404 } from '../../db/lookup.ts';
import { loadUnitStudents } from '../students/load-unit-students.ts';
import { enrolProjects } from './enrol-projects.ts';

export interface EnrolStudentInput {
  /** Matched against the username, then the student id, then the email. */
  student_num: string;
  /** The campus to study at; -1 or null for none. */
  campus_id: number | null;
}

/** Enrols (or re-enrols) the student and answers their record as the unit's student list shows it. */
export async function enrolStudent(em: Em, unitId: number, input: EnrolStudentInput) {
  const key = input.student_num.toLowerCase();
  const candidates = await db(em)
    .selectFrom('users')
    .select(['id', 'username', 'student_id', 'email'])
    .where((eb) => eb.or([eb('username', '=', key), eb('student_id', '=', input.student_num), eb('email', '=', key)]))
    .execute();
  const user =
    candidates.find((u) => u.username === key) ?? candidates.find((u) => u.student_id === input.student_num) ?? candidates.find((u) => u.email === key);
  if (!user) throw forbidden(`Couldn't find Student with username=${input.student_num}`);
  const campusId = input.campus_id === null || input.campus_id === -1 ? null : (await findOr404(em, Campus, input.campus_id)).id;
  const [result] = await enrolProjects(em, unitId, [{ userId: user.id, campusId }]);
  const [record] = await loadUnitStudents(em, unitId, { includeWithdrawn: true, projectIds: [result.projectId] });
  return record;
}
