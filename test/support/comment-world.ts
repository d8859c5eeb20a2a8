// A unit where a student's tutor is known, for the comment and inbox tests: the convenor (main),
// a tutor who takes the student's tutorial, and the student enrolled in it, with one definition.
import type { TestEnv } from './env.ts';
import type { People } from './fixtures.ts';
import { employ, enrol, seedUnit } from './seed.ts';
import { seedTaskDefinition } from './seed-enrolments.ts';
import { seedEnrolmentIn, seedTutorialRow } from './seed-tutorials.ts';

export async function commentWorld(env: TestEnv, people: People, code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const tutorial = await seedTutorialRow(env, unit, 'LA1', { tutor: tutorRole });
  const project = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, project, tutorial);
  const td = await seedTaskDefinition(env, unit, 'P1');
  return { unit, tutorRole, tutorial, project, td };
}
