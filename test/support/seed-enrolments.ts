// Rows around enrolments (streams, tutorials, task definitions, tasks, groups), written straight
// through the ORM for tests of the operations that read them. Each returns the new row's id.
import {
  ActivityType,
  Group,
  GroupMembership,
  GroupSet,
  LearningAlignment,
  LearningOutcome,
  Task,
  TaskDefinition,
  TaskSimilarity,
  Tutorial,
  TutorialEnrolment,
  TutorialStream,
} from '../../schema/index.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import type { ITaskDefinition } from '../../schema/index.ts';
import type { TestEnv } from './env.ts';

async function insert<T extends object>(env: TestEnv, entity: never, data: Record<string, unknown>): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(entity, data as never) as unknown as T & { id: number };
  await em.flush();
  return row.id;
}

export async function seedStream(env: TestEnv, unit: number, abbreviation: string): Promise<number> {
  const em = env.orm.em.fork();
  let type = await em.findOne(ActivityType, { abbreviation: 'prac' });
  if (!type) {
    type = em.create(ActivityType, { name: 'Practical', abbreviation: 'prac' });
    await em.flush();
  }
  return insert(env, TutorialStream as never, { unit, activityType: type.id, name: `Stream ${abbreviation}`, abbreviation });
}

export function seedTutorial(
  env: TestEnv,
  unit: number,
  abbreviation: string,
  extra: { stream?: number; campus?: number; capacity?: number } = {},
): Promise<number> {
  return insert(env, Tutorial as never, {
    unit,
    abbreviation,
    meetingDay: 'Monday',
    meetingTime: '10:00',
    meetingLocation: 'Room 1',
    tutorialStream: extra.stream ?? null,
    campus: extra.campus ?? null,
    capacity: extra.capacity ?? -1,
  });
}

export function seedTutorialEnrolment(env: TestEnv, project: number, tutorial: number): Promise<number> {
  return insert(env, TutorialEnrolment as never, { project, tutorial });
}

/** Further task-definition columns a test may set (ids for the references). */
export type DefinitionExtras = Partial<
  Pick<ITaskDefinition, 'isGraded' | 'maxQualityPts' | 'restrictStatusUpdates' | 'uploadRequirements' | 'plagiarismChecks' | 'assessmentEnabled' | 'name'>
> & { startDate?: string; groupSet?: number; tutorialStream?: number };

export function seedTaskDefinition(
  env: TestEnv,
  unit: number,
  abbreviation: string,
  extra: { targetGrade?: number; targetDate?: string; dueDate?: string | null } & DefinitionExtras = {},
): Promise<number> {
  const { targetGrade, targetDate, dueDate, ...rest } = extra;
  return insert(env, TaskDefinition as never, {
    unit,
    name: `Task ${abbreviation}`,
    abbreviation,
    description: `About ${abbreviation}`,
    startDate: '2026-03-02',
    targetDate: targetDate ?? '2026-03-16',
    dueDate: dueDate ?? null,
    targetGrade: targetGrade ?? 0,
    ...rest,
  });
}

export function seedTask(
  env: TestEnv,
  project: number,
  taskDefinition: number,
  extra: { status?: TaskStatus; extensions?: number; grade?: number; submissionDate?: Date } = {},
): Promise<number> {
  return insert(env, Task as never, {
    project,
    taskDefinition,
    status: extra.status ?? 'not_started',
    extensions: extra.extensions ?? 0,
    grade: extra.grade ?? null,
    submissionDate: extra.submissionDate ?? null,
  });
}

export function seedSimilarity(env: TestEnv, task: number, flagged: boolean): Promise<number> {
  return insert(env, TaskSimilarity as never, { task, kind: 'moss', pct: 80, flagged });
}

export async function seedGroup(
  env: TestEnv,
  unit: number,
  tutorial: number,
  extra: { keepInClass?: boolean; capacity?: number | null; name?: string } = {},
): Promise<number> {
  const set = await insert(env, GroupSet as never, {
    unit,
    name: `Set ${extra.name ?? 'G'}`,
    keepGroupsInSameClass: extra.keepInClass ?? false,
    capacity: extra.capacity ?? null,
  });
  return insert(env, Group as never, { groupSet: set, tutorial, name: extra.name ?? 'G' });
}

export function seedMembership(env: TestEnv, group: number, project: number): Promise<number> {
  return insert(env, GroupMembership as never, { group, project, active: true });
}

export async function seedTaskAlignment(env: TestEnv, unit: number, taskDefinition: number, task: number): Promise<number> {
  const outcome = await insert(env, LearningOutcome as never, { unit, iloNumber: 1, abbreviation: 'ILO1', name: 'Outcome', description: 'd' });
  return insert(env, LearningAlignment as never, { taskDefinition, learningOutcome: outcome, task, rating: 3, description: 'mine' });
}
