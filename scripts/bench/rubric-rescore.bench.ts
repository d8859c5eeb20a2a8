// Rubric re-scoring (issue 18 §2, docs/marking/rubrics.md): a level's points change re-scores every
// task marked with it. Marks `BENCH_RUBRIC_TASKS` (1,000) and a tenth of that through the real
// operations, then changes a level's points in one transaction, and prints the SQL statements and
// the time of the re-score against a baseline measured in the same run: marking one task (its
// choices, score and mapped grade through changeTask). The statements must be equal at both sizes.
import { Project, Task, TaskDefinition, Unit, User } from '../../schema/index.ts';
import type { Em, Orm } from '../../src/db/orm.ts';
import { markTask } from '../../src/operations/projects/task_def_id/rubric_marks/mark-task.ts';
import { saveRubric } from '../../src/operations/units/task_definitions/rubric/save-rubric.ts';
import { updateLevel } from '../../src/operations/units/task_definitions/rubric/update-level.ts';
import { ROLE } from '../../src/policy/index.ts';
import { withBench } from './setup.ts';
import { median, statementsOf } from './support.ts';

const TASKS = Number(process.env.BENCH_RUBRIC_TASKS ?? 1000);
const ROUNDS = Number(process.env.BENCH_RUBRIC_ROUNDS ?? 5);

// Statements are counted on the pg clients themselves (MikroORM's copy of pg too), as the tests do.
async function measure(fn: () => Promise<unknown>): Promise<{ statements: number; ms: number }> {
  const started = performance.now();
  const statements = await statementsOf(fn);
  return { statements, ms: performance.now() - started };
}

const RUBRIC = {
  mapping: 'grade' as const,
  criteria: [1, 2, 3, 4].map((position) => ({
    title: `Criterion ${position}`,
    position,
    levels: [
      { title: 'Weak', points: 1, position: 1 },
      { title: 'Good', points: 3, position: 2 },
      { title: 'Strong', points: 5, position: 3 },
    ],
  })),
};

interface Class {
  unitId: number;
  definition: { id: number; isGraded: boolean; maxQualityPts: number };
  convenorId: number;
  taskIds: number[];
  projectIds: number[];
  levels: { criterion_id: number; level_id: number }[];
}

/** A unit whose `count` students each have a task of one graded definition with a rubric. */
async function seedClass(orm: Orm, code: string, count: number): Promise<Class> {
  const em = orm.em.fork();
  const unit = em.create(Unit, {
    code,
    name: code,
    description: code,
    startDate: '2026-03-02',
    endDate: '2026-12-01',
    active: true,
    teachingPeriod: null,
    overseerImage: null,
  });
  const person = (username: string, role: string) =>
    em.create(User, {
      username,
      email: `${username}@example.edu`,
      firstName: 'F',
      lastName: username,
      systemRole: role as never,
      passwordHash: null,
      hasRunFirstTimeSetup: true,
    });
  const convenor = person(`${code}-convenor`, ROLE.convenor);
  const td = em.create(TaskDefinition, {
    unit,
    name: 'Report',
    abbreviation: 'R1',
    description: 'A report',
    startDate: '2026-03-02',
    targetDate: '2026-03-16',
    dueDate: null,
    targetGrade: 0,
    isGraded: true,
  } as never);
  const projects = Array.from({ length: count }, (_, i) =>
    em.create(Project, {
      user: person(`${code}-s${i}`, ROLE.student),
      unit,
      campus: null,
      enrolled: true,
      targetGrade: 0,
      compilePortfolio: false,
      portfolioProductionDate: null,
    }),
  );
  const tasks = projects.map((project) => em.create(Task, { project, taskDefinition: td, status: 'ready_for_feedback' } as never));
  await em.flush();
  const now = new Date();
  const rubric = await orm.em.fork().transactional((tx: Em) => saveRubric(tx, unit.id, td.id, RUBRIC, convenor.id, now));
  const levels = rubric.criteria.map((c) => ({ criterion_id: c.id, level_id: c.levels[1].id }));
  return {
    unitId: unit.id,
    definition: { id: td.id, isGraded: true, maxQualityPts: 0 },
    convenorId: convenor.id,
    taskIds: tasks.map((t) => t.id),
    projectIds: projects.map((p) => p.id),
    levels,
  };
}

const mark = (orm: Orm, c: Class, i: number) =>
  orm.em
    .fork()
    .transactional((tx: Em) =>
      markTask(
        tx,
        { taskId: c.taskIds[i], projectId: c.projectIds[i], definition: c.definition },
        { userId: c.convenorId, role: ROLE.tutor },
        { choices: c.levels },
        new Date(),
      ),
    );

/** Changes criterion 1's "Good" level to `points`: every task is re-scored. */
const rescore = (orm: Orm, c: Class, points: number) =>
  orm.em.fork().transactional((tx: Em) => updateLevel(tx, c.unitId, c.definition.id, c.levels[0].level_id, { points }, c.convenorId, new Date()));

await withBench(
  async () => {},
  async ({ orm }) => {
    const small = await seedClass(orm, 'RUB-S', Math.max(1, Math.round(TASKS / 10)));
    const big = await seedClass(orm, 'RUB-L', TASKS);
    for (const c of [small, big]) for (let i = 0; i < c.taskIds.length; i++) await mark(orm, c, i);

    const baseline: number[] = [];
    const smallRuns: number[] = [];
    const bigRuns: number[] = [];
    let statements = { base: 0, small: 0, big: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate the points so every round changes every mark's score (12 ↔ 13 of 20).
      const points = round % 2 === 0 ? 4 : 3;
      const b = await measure(() => mark(orm, small, round % small.taskIds.length));
      const s = await measure(() => rescore(orm, small, points));
      const l = await measure(() => rescore(orm, big, points));
      baseline.push(b.ms);
      smallRuns.push(s.ms);
      bigRuns.push(l.ms);
      statements = { base: b.statements, small: s.statements, big: l.statements };
    }
    const ratio = median(bigRuns) / median(baseline);
    console.log(
      `rubric_rescore ${TASKS} tasks: median ${median(bigRuns).toFixed(0)} ms, ${statements.big} statements; ` +
        `${small.taskIds.length} tasks: ${median(smallRuns).toFixed(0)} ms, ${statements.small} statements; ` +
        `baseline (mark one task) ${median(baseline).toFixed(1)} ms, ${statements.base} statements`,
    );
    console.log(`rubric_rescore ratio ${ratio.toFixed(1)} (re-score ${TASKS} tasks / mark one task, n=${ROUNDS})`);
    if (statements.small !== statements.big) console.log(`rubric_rescore STATEMENTS DIFFER: ${statements.small} vs ${statements.big}`);
  },
);
