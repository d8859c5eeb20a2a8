// A unit where task work happens, for the REST tests of triggers, extensions and task lists: the
// convenor (main), the tutor (who takes the student's tutorial, so is the student's tutor), the
// student enrolled with one task definition, and the unit's flags set as a test needs them.
import { Unit, type IUnit } from '../../schema/index.ts';
import type { TestEnv } from './env.ts';
import { signedIn, type Actor, type People } from './fixtures.ts';
import { employ, enrol, seedUnit } from './seed.ts';
import { seedTaskDefinition } from './seed-enrolments.ts';
import { seedEnrolmentIn, seedTutorialRow } from './seed-tutorials.ts';

export type UnitFlags = Partial<Pick<IUnit, 'autoApplyExtensionBeforeDeadline' | 'allowStudentExtensionRequests' | 'extensionWeeksOnResubmitRequest'>>;

export interface TaskWorld {
  unit: number;
  project: number;
  td: number;
  tutorial: number;
  tutorRole: number;
}

export async function taskWorld(
  env: TestEnv,
  people: People,
  definition: Parameters<typeof seedTaskDefinition>[3] = {},
  flags: UnitFlags = {},
  code = 'SIT101',
): Promise<TaskWorld> {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const tutorial = await seedTutorialRow(env, unit, 'T1', { tutor: tutorRole });
  await seedEnrolmentIn(env, project, tutorial);
  const td = await seedTaskDefinition(env, unit, 'P1', definition);
  if (Object.keys(flags).length > 0) await env.orm.em.fork().nativeUpdate(Unit, { id: unit }, flags);
  return { unit, project, td, tutorial, tutorRole };
}

/** A further student enrolled in the unit (signed in now), in the same tutorial. */
export async function anotherStudent(env: TestEnv, world: TaskWorld, username: string): Promise<{ actor: Actor; project: number }> {
  const actor = await signedIn(env, username, 'Student');
  const project = await enrol(env, actor.user, world.unit);
  await seedEnrolmentIn(env, project, world.tutorial);
  return { actor, project };
}

/** Someone teaching another unit only (signed in now). */
export async function outsideTutor(env: TestEnv, username = 'othertutor'): Promise<Actor> {
  const actor = await signedIn(env, username, 'Tutor');
  const other = await seedUnit(env, { code: `OTH${username.length}` });
  await employ(env, actor.user, other, 'Tutor');
  return actor;
}

/** Another member of this unit's staff (signed in now). */
export async function anotherTutor(env: TestEnv, world: TaskWorld, username: string, role: 'Tutor' | 'Convenor' = 'Tutor'): Promise<Actor> {
  const actor = await signedIn(env, username, 'Tutor');
  await employ(env, actor.user, world.unit, role);
  return actor;
}
