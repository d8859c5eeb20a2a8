import { route } from '../../trpc/route.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { studentProjectOut } from '../students/schemas.ts';
import { enrolStudent as enrol } from '../../operations/projects/enrol-student.ts';
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
  .mutation(({ ctx, input }) => enrol(ctx.em, ctx.unit.id, input));
