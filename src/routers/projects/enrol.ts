import { route } from '../../trpc/route.ts';
import { Campus } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import { forbidden } from '../../trpc/errors.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { loadUnitStudents } from '../../operations/students/load-unit-students.ts';
import { studentProjectOut } from '../students/schemas.ts';
import { enrolProjects } from '../../operations/projects/enrol-projects.ts';
import { enrolInput } from './schemas.ts';

export const enrolStudent = unitMutation(enrolInput, {
  action: 'enrol_student',
  refused: (id) => `Couldn't find Unit with id=${id}`,
})
  .meta(
    route('POST', '/api/projects', 'Projects', 'Enrol a student in a unit (staff of the unit, or Admin)', {
      description: '`student_num` is matched against the username, then the student id, then the email. See docs/api/projects.md.',
    }),
  )
  .output(studentProjectOut)
  .mutation(async ({ ctx, input }) => {
    const key = input.student_num.toLowerCase();
    const candidates = await db(ctx.em)
      .selectFrom('users')
      .select(['id', 'username', 'student_id', 'email'])
      .where((eb) => eb.or([eb('username', '=', key), eb('student_id', '=', input.student_num), eb('email', '=', key)]))
      .execute();
    const user =
      candidates.find((u) => u.username === key) ?? candidates.find((u) => u.student_id === input.student_num) ?? candidates.find((u) => u.email === key);
    if (!user) throw forbidden(`Couldn't find Student with username=${input.student_num}`);
    const campusId = input.campus_id === null || input.campus_id === -1 ? null : (await findOr404(ctx.em, Campus, input.campus_id)).id;
    const [result] = await enrolProjects(ctx.em, ctx.unit.id, [{ userId: user.id, campusId }]);
    const [record] = await loadUnitStudents(ctx.em, ctx.unit.id, { includeWithdrawn: true, projectIds: [result.projectId] });
    return record;
  });
