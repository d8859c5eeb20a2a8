// Activity types, streams, tutorials, their enrolments and groups, written straight through the
// ORM for tests of the tutorial operations. Each returns the new row's id.
import { ActivityType, Group, GroupMembership, GroupSet, TaskDefinition, Tutorial, TutorialEnrolment, TutorialStream } from '../../schema/index.ts';
import type { TestEnv } from './env.ts';

async function insert(env: TestEnv, entity: unknown, data: Record<string, unknown>): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(entity as never, data as never) as { id: number };
  await em.flush();
  return row.id;
}

/** An activity type; by default Workshop (`wrkshop`), as the original seeds it. */
export function seedActivityType(env: TestEnv, name = 'Workshop', abbreviation = 'wrkshop'): Promise<number> {
  return insert(env, ActivityType, { name, abbreviation });
}

export function seedTutorialStream(env: TestEnv, unit: number, activityType: number, abbreviation: string, name = `Stream ${abbreviation}`): Promise<number> {
  return insert(env, TutorialStream, { unit, activityType, name, abbreviation });
}

export interface TutorialSeed {
  stream?: number | null;
  campus?: number | null;
  /** The tutor's unit role id. */
  tutor?: number | null;
  capacity?: number;
}

/** A tutorial on Monday at 10:00 in Room 1, unlimited, with no stream, campus or tutor unless told. */
export function seedTutorialRow(env: TestEnv, unit: number, abbreviation: string, seed: TutorialSeed = {}): Promise<number> {
  return insert(env, Tutorial, {
    unit,
    abbreviation,
    meetingDay: 'Monday',
    meetingTime: '10:00',
    meetingLocation: 'Room 1',
    tutorialStream: seed.stream ?? null,
    campus: seed.campus ?? null,
    tutor: seed.tutor ?? null,
    capacity: seed.capacity ?? -1,
  });
}

export function seedEnrolmentIn(env: TestEnv, project: number, tutorial: number): Promise<number> {
  return insert(env, TutorialEnrolment, { project, tutorial });
}

export function seedTaskDef(env: TestEnv, unit: number, abbreviation: string, stream: number | null = null): Promise<number> {
  return insert(env, TaskDefinition, {
    unit,
    tutorialStream: stream,
    name: `Task ${abbreviation}`,
    abbreviation,
    description: `About ${abbreviation}`,
    startDate: '2026-03-02',
    targetDate: '2026-03-16',
  });
}

/** A group set (keeping groups in one tutorial when told) with one group in the tutorial. */
export async function seedGroupIn(
  env: TestEnv,
  unit: number,
  tutorial: number,
  set: { keepGroupsInSameClass?: boolean; allowStudentsToManageGroups?: boolean; members?: number[] } = {},
): Promise<{ groupSet: number; group: number }> {
  const groupSet = await insert(env, GroupSet, {
    unit,
    name: `Set ${tutorial}`,
    keepGroupsInSameClass: set.keepGroupsInSameClass ?? false,
    allowStudentsToManageGroups: set.allowStudentsToManageGroups ?? true,
  });
  const group = await insert(env, Group, { groupSet, tutorial, name: `Group ${tutorial}` });
  for (const project of set.members ?? []) await insert(env, GroupMembership, { group, project });
  return { groupSet, group };
}
