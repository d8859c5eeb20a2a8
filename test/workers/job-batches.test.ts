// The operations that queue one job per row of a list (the daily portfolio auto-generation, the
// daily code-similarity run) queue the whole list in a fixed number of statements, however long
// it is; the jobs queued are the ones a job-at-a-time add_job gave (keys, attempts, run_at now).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { ADD_JOBS_BATCH, jobQueue } from '../../src/db/jobs.ts';
import { autogeneratePortfolios } from '../../src/operations/submission/project/portfolio/autogenerate-portfolios.ts';
import { queueDueCodeSimilarity } from '../../src/operations/similarity/code-similarity-due.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('worker: list operations queue their jobs in a fixed number of statements');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

interface QueuedJob {
  task: string;
  key: string | null;
  payload: Record<string, unknown>;
  max_attempts: number;
  attempts: number;
  priority: number;
  queued_now: boolean;
}

async function queued(): Promise<QueuedJob[]> {
  return env.orm.em.fork().execute<QueuedJob[]>(
    `select t.identifier as task, j.key, j.payload, j.max_attempts, j.attempts, j.priority, j.job_queue_id is null and j.run_at <= now() as queued_now
       from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      order by j.id`,
  );
}
const clearQueue = () => env.orm.em.fork().execute('delete from graphile_worker._private_jobs');

// ---- portfolios ----

let students = 0;
/** `n` more students of `unit`, each with a learning summary report (a part row is enough here). */
async function eligibleProjects(unit: number, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const user = await createUser(env, `pstudent${++students}`, 'Student');
    ids.push(await enrol(env, user, unit, { targetGrade: 2 }));
  }
  await db(env.orm.em.fork())
    .insertInto('portfolio_parts')
    .values(
      ids.map((id) => ({
        project_id: id,
        idx: 0,
        kind: 'document',
        name: 'LearningSummaryReport',
        original_filename: 'lsr.pdf',
        storage_key: `parts/${id}/0`,
        created_at: new Date().toISOString(),
      })) as never,
    )
    .execute();
  return ids;
}

async function portfolioUnit(code: string): Promise<number> {
  const unit = await seedUnit(env, { code });
  await db(env.orm.em.fork()).updateTable('units').set({ portfolio_auto_generation_date: '2026-05-01' }).where('id', '=', unit).execute();
  return unit;
}

async function measureAutogen(): Promise<{ statements: number; ids: number[] }> {
  let ids: number[] = [];
  const statements = await countStatements(async () => {
    ids = await autogeneratePortfolios(env.orm.em.fork(), '2026-05-10');
  });
  return { statements, ids };
}

test('the portfolio auto-generation queues 3 compiles and 30 compiles in as many statements', async () => {
  const small = await eligibleProjects(await portfolioUnit('SMALL'), 3);
  const three = await measureAutogen();
  assert.equal(three.ids, small);
  const jobsOfThree = await queued();
  assert.equal(
    jobsOfThree.map((j) => [j.task, j.key, j.payload.projectId, j.max_attempts, j.attempts, j.priority, j.queued_now]),
    small.map((id) => ['compile_portfolio', `compile_portfolio:${id}`, id, 5, 0, 0, true]),
  );
  await clearQueue();

  const large = await eligibleProjects(await portfolioUnit('LARGE'), 30);
  const thirty = await measureAutogen();
  assert.equal(thirty.ids, large);
  assert.equal(
    (await queued()).map((j) => j.key),
    large.map((id) => `compile_portfolio:${id}`),
  );
  assert.is(thirty.statements, three.statements, `3 projects: ${three.statements} statements, 30: ${thirty.statements}`);
  // begin, the flagging update, the jobs, commit.
  assert.ok(thirty.statements <= 4, `${thirty.statements} statements`);
});

test('a compile already queued for an auto-generated project is replaced, not doubled', async () => {
  const [id] = await eligibleProjects(await portfolioUnit('AGAIN'), 1);
  await jobQueue(env.orm.em.fork()).add('compile_portfolio', { projectId: id }, { jobKey: `compile_portfolio:${id}`, maxAttempts: 5 });
  await autogeneratePortfolios(env.orm.em.fork(), '2026-05-10');
  assert.equal(
    (await queued()).map((j) => j.key),
    [`compile_portfolio:${id}`],
  );
});

// ---- code similarity ----

/** `n` more task definitions of one unit, each with one student's code handed in on 2026-03-10. */
async function definitionsWithCode(unit: number, project: number, student: number, n: number, from: number): Promise<number[]> {
  const k = db(env.orm.em.fork());
  const ids: number[] = [];
  for (let i = from; i < from + n; i++) {
    const td = await seedTaskDefinition(env, unit, `C${i}`, { targetDate: '2026-03-16' });
    const task = await seedTask(env, project, td);
    const submission = await k
      .insertInto('task_submissions')
      .values({ task_id: task, submitted_by_id: student, submitted_at: '2026-03-10T00:00:00.000Z', processing: false } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await k
      .insertInto('submission_files')
      .values({
        submission_id: submission.id,
        idx: 0,
        key: 'file0',
        name: 'program',
        kind: 'code',
        original_filename: 'main.py',
        content_type: 'text/x-python',
        size_bytes: 10,
        storage_path: `submissions/${submission.id}/0`,
      } as never)
      .execute();
    ids.push(td);
  }
  return ids;
}

async function measureDue(): Promise<number> {
  // The day after the target day has ended anywhere on earth, looking back a day.
  return countStatements(() => queueDueCodeSimilarity(env.orm.em.fork(), new Date('2026-03-17T05:00:00.000Z'), new Date('2026-03-18T05:00:00.000Z')));
}

test('the code-similarity run queues 3 definitions and 30 definitions in as many statements', async () => {
  const unit = await seedUnit(env, { code: 'CODE' });
  const student = people.student.user.id;
  const project = await enrol(env, people.student.user, unit);
  const small = await definitionsWithCode(unit, project, student, 3, 0);
  const three = await measureDue();
  assert.equal(
    (await queued()).map((j) => [j.task, j.key, j.payload.taskDefinitionId, j.max_attempts, j.attempts, j.priority, j.queued_now]),
    small.map((id) => ['code_similarity', `code_similarity:${id}`, id, 5, 0, 0, true]),
  );
  await clearQueue();

  const large = [...small, ...(await definitionsWithCode(unit, project, student, 27, 3))];
  const thirty = await measureDue();
  assert.equal(
    (await queued()).map((j) => j.key),
    large.map((id) => `code_similarity:${id}`),
  );
  assert.is(thirty, three, `3 definitions: ${three} statements, 30: ${thirty}`);
  // begin, the due definitions, the jobs, commit.
  assert.ok(thirty <= 4, `${thirty} statements`);

  // Run again before any has started: each definition is still queued once (job key).
  await measureDue();
  assert.is((await queued()).length, 30);
});

// ---- the helper ----

test('addMany: a list longer than a batch takes one statement per batch; a key twice in the list is queued once, the last one', async () => {
  const em = env.orm.em.fork();
  const jobs = Array.from({ length: ADD_JOBS_BATCH + 1 }, (_, i) => ({ payload: { taskDefinitionId: i }, jobKey: `code_similarity:${i}` }));
  jobs.push({ payload: { taskDefinitionId: -1 }, jobKey: 'code_similarity:0' });
  const statements = await countStatements(() => jobQueue(em).addMany('code_similarity', jobs));
  assert.is(statements, 2);
  const all = await queued();
  assert.is(all.length, ADD_JOBS_BATCH + 1);
  assert.equal(
    all.filter((j) => j.key === 'code_similarity:0').map((j) => j.payload.taskDefinitionId),
    [-1],
  );
  assert.is(await countStatements(() => jobQueue(em).addMany('code_similarity', [])), 0, 'nothing to queue: no statement');
});

test.run();
