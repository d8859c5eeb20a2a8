import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { loadUnitStudents } from '../../operations/students/load-unit-students.ts';
import { listStudentsInput, studentProjectOut } from './schemas.ts';

export const listStudents = unitQuery(listStudentsInput, {
  action: 'get_students',
  orSystem: 'admin_units',
  refused: (id) => `Couldn't find Unit with id=${id}`,
})
  .meta(
    route('GET', '/api/students', 'Users and students', "A unit's students (staff of the unit, or Admin)", {
      description:
        'Enrolled students, each with their tutorial enrolments and progress stats, in project id order. `withdraw=true` (the web client ' +
        'sends `withdrawn`) lists withdrawn students too. One SQL statement whatever the number of students.',
    }),
  )
  .output(z.array(studentProjectOut))
  .query(({ ctx, input }) => loadUnitStudents(ctx.em, ctx.unit.id, { includeWithdrawn: input.withdraw === true || input.withdrawn === true }));
