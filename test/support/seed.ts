// Rows written straight through the ORM, for tests that need records the operation under test
// does not create itself. Each helper flushes in its own fork and returns the new row's id.
import {
  Campus,
  Project,
  TeachingPeriod,
  Unit,
  UnitRole,
  type ICampus,
  type IProject,
  type ITeachingPeriod,
  type IUnit,
  type IUser,
} from '../../schema/index.ts';
import type { UnitStaffRole } from '../../schema/enums.ts';
import type { TestEnv } from './env.ts';

/** Anything with a user's id: an `IUser`, or `people.x.user`. */
type UserRef = Pick<IUser, 'id'>;

export type PeriodSeed = Partial<Pick<ITeachingPeriod, 'period' | 'year' | 'startDate' | 'endDate' | 'activeUntil'>>;

/** A teaching period; by default T1 2026, 2026-03-02 to 2026-06-01, active until 2026-07-01. */
export async function seedPeriod(env: TestEnv, seed: PeriodSeed = {}): Promise<number> {
  const em = env.orm.em.fork();
  const period = em.create(TeachingPeriod, {
    period: seed.period ?? 'T1',
    year: seed.year ?? 2026,
    startDate: seed.startDate ?? new Date('2026-03-02T00:00:00.000Z'),
    endDate: seed.endDate ?? new Date('2026-06-01T00:00:00.000Z'),
    activeUntil: seed.activeUntil ?? new Date('2026-07-01T00:00:00.000Z'),
  });
  await em.flush();
  return period.id;
}

export type CampusSeed = Partial<Pick<ICampus, 'name' | 'abbreviation' | 'mode' | 'active'>>;

/** A campus; by default the active timetable campus Burwood (B). */
export async function seedCampus(env: TestEnv, seed: CampusSeed = {}): Promise<number> {
  const em = env.orm.em.fork();
  const campus = em.create(Campus, {
    name: seed.name ?? 'Burwood',
    abbreviation: seed.abbreviation ?? 'B',
    mode: seed.mode ?? 'timetable',
    active: seed.active ?? true,
  });
  await em.flush();
  return campus.id;
}

export type UnitSeed = Pick<IUnit, 'code'> &
  Partial<Pick<IUnit, 'name' | 'description' | 'startDate' | 'endDate' | 'active'>> & {
    teachingPeriod?: number | null;
    overseerImage?: number | null;
  };

/**
 * A unit; by default named `Unit <code>`, described `About <code>`, active, in no teaching
 * period, running from 2026-03-02 (TEST_NOW) to 2026-12-01.
 */
export async function seedUnit(env: TestEnv, seed: UnitSeed): Promise<number> {
  const em = env.orm.em.fork();
  const { code } = seed;
  const unit = em.create(Unit, {
    code,
    name: seed.name ?? `Unit ${code}`,
    description: seed.description ?? `About ${code}`,
    startDate: seed.startDate ?? '2026-03-02',
    endDate: seed.endDate ?? '2026-12-01',
    active: seed.active ?? true,
    teachingPeriod: seed.teachingPeriod ?? null,
    overseerImage: seed.overseerImage ?? null,
  });
  await em.flush();
  return unit.id;
}

/** A staff role in a unit; with `main`, the role also becomes the unit's main convenor. */
export async function employ(env: TestEnv, user: UserRef, unitId: number, role: UnitStaffRole, options: { main?: boolean } = {}): Promise<number> {
  const em = env.orm.em.fork();
  const unitRole = em.create(UnitRole, { user: user.id, unit: unitId, role });
  await em.flush();
  if (options.main) await em.nativeUpdate(Unit, { id: unitId }, { mainConvenor: unitRole.id });
  return unitRole.id;
}

export type ProjectSeed = Partial<Pick<IProject, 'enrolled' | 'targetGrade' | 'compilePortfolio' | 'portfolioProductionDate'>> & {
  campus?: number | null;
};

/** A student's project in a unit: enrolled, in no campus, unless told otherwise. */
export async function enrol(env: TestEnv, user: UserRef, unitId: number, seed: ProjectSeed = {}): Promise<number> {
  const em = env.orm.em.fork();
  const project = em.create(Project, {
    user: user.id,
    unit: unitId,
    campus: seed.campus ?? null,
    enrolled: seed.enrolled ?? true,
    targetGrade: seed.targetGrade ?? 0,
    compilePortfolio: seed.compilePortfolio ?? false,
    portfolioProductionDate: seed.portfolioProductionDate ?? null,
  });
  await em.flush();
  return project.id;
}
