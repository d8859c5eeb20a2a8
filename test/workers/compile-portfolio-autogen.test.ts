// The daily portfolio_autogen cron item: picks exactly the projects behaviour.md §5.4 names, asks
// each to compile with its target grade submitted, queues their compiles, and is safe to run twice.
import type { JobHelpers } from 'graphile-worker';
import { PDFDocument } from 'pdf-lib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { dockerEngine } from '../../src/adapters/docker.ts';
import { CRONTAB, taskList } from '../../workers/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { runJobs } from '../support/jobs.ts';
import { samplePdf, tempFileOf } from '../support/sample-files.ts';
import { enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { addPortfolioPart } from '../../src/operations/submission/project/portfolio/portfolio-parts.ts';

const test = suite('worker: portfolio_autogen (daily cron)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const TODAY = new Date('2026-05-10T08:00:00.000Z');

async function unit(code: string, extra: { active?: boolean; endDate?: string; autogen?: string | null } = {}): Promise<number> {
  const id = await seedUnit(env, { code, active: extra.active ?? true, endDate: extra.endDate ?? '2026-12-01' });
  await db(env.orm.em.fork())
    .updateTable('units')
    .set({ portfolio_auto_generation_date: extra.autogen === undefined ? '2026-05-01' : extra.autogen })
    .where('id', '=', id)
    .execute();
  return id;
}

let students = 0;
/** A student's project with (unless told otherwise) a learning summary report part. */
async function project(
  unitId: number,
  extra: { report?: boolean; enrolled?: boolean; compiling?: boolean; produced?: boolean; target?: number } = {},
): Promise<number> {
  const student = await signedIn(env, `student${++students}`, 'Student');
  const id = await enrol(env, student.user, unitId, {
    enrolled: extra.enrolled ?? true,
    targetGrade: extra.target ?? 2,
    compilePortfolio: extra.compiling ?? false,
    portfolioProductionDate: extra.produced ? new Date('2026-05-02T00:00:00.000Z') : null,
  });
  if (extra.report ?? true) {
    await env.orm.em.fork().transactional((em) =>
      addPortfolioPart(em as never, env.services.storage, id, {
        name: 'LearningSummaryReport',
        kind: 'document',
        filename: 'lsr.pdf',
        path: tempFileOf(samplePdf('LSR')),
        detected: 'pdf',
      }),
    );
  }
  return id;
}

const helpers = { logger: { info() {}, warn() {}, error() {}, debug() {} } } as unknown as JobHelpers;
const autogen = () => taskList({ ...env.services, docker: dockerEngine('tcp://127.0.0.1:9') } as never).portfolio_autogen({}, helpers);

async function rows() {
  return db(env.orm.em.fork())
    .selectFrom('projects')
    .select(['id', 'compile_portfolio', 'submitted_grade', 'portfolio_auto_generated'])
    .orderBy('id')
    .execute();
}

async function queuedKeys(): Promise<string[]> {
  const jobs = await env.orm.em.fork().execute<{ key: string }[]>('select key from graphile_worker._private_jobs order by id');
  return jobs.map((j) => j.key);
}

test('flags and queues exactly the eligible projects, submitting their target grade; a second run changes nothing', async () => {
  env.clock.set(TODAY);
  const open = await unit('OPEN');
  const eligible = await project(open, { target: 3 });
  const noReport = await project(open, { report: false });
  const withdrawn = await project(open, { enrolled: false });
  const compiling = await project(open, { compiling: true });
  const produced = await project(open, { produced: true });
  const inactive = await project(await unit('OFF', { active: false }));
  const ended = await project(await unit('ENDED', { endDate: '2026-05-09' }));
  const dueToday = await project(await unit('TODAY', { autogen: '2026-05-10' }));
  const noDate = await project(await unit('NODATE', { autogen: null }));
  const endsToday = await project(await unit('LAST', { endDate: '2026-05-10' }));

  await autogen();
  const after = await rows();
  const flagged = after.filter((r) => r.portfolio_auto_generated).map((r) => r.id);
  assert.equal(flagged, [eligible, endsToday]);
  assert.equal(
    after.find((r) => r.id === eligible),
    { id: eligible, compile_portfolio: true, submitted_grade: 3, portfolio_auto_generated: true },
  );
  assert.equal(await queuedKeys(), [`compile_portfolio:${eligible}`, `compile_portfolio:${endsToday}`]);
  for (const id of [noReport, withdrawn, produced, inactive, ended, dueToday, noDate]) {
    const row = after.find((r) => r.id === id)!;
    assert.equal([row.compile_portfolio, row.submitted_grade, row.portfolio_auto_generated], [false, null, false], `project ${id} untouched`);
  }
  assert.is(after.find((r) => r.id === compiling)!.portfolio_auto_generated, false, 'already compiling: left alone');

  await autogen();
  assert.equal(await rows(), after, 'the same day again: nothing more');
  assert.equal(await queuedKeys(), [`compile_portfolio:${eligible}`, `compile_portfolio:${endsToday}`]);

  // The queued compiles then run (the compiling project had no job of its own queued by this test).
  await runJobs(env);
  const done = await db(env.orm.em.fork())
    .selectFrom('projects')
    .select(['id', 'portfolio_production_date'])
    .where('portfolio_production_date', 'is not', null)
    .orderBy('id')
    .execute();
  assert.equal(
    done.map((r) => r.id),
    [eligible, produced, endsToday],
  );
  const pdf = await env.services.storage.open(storageKeys.portfolio(eligible));
  assert.ok(pdf);
  const chunks: Buffer[] = [];
  for await (const chunk of pdf.stream) chunks.push(chunk as Buffer);
  assert.ok((await PDFDocument.load(Buffer.concat(chunks))).getPageCount() >= 5);

  // The next day: those with a portfolio now are left be; the unit whose date was today comes due.
  env.clock.set(new Date('2026-05-11T08:00:00.000Z'));
  await autogen();
  assert.equal(await queuedKeys(), [`compile_portfolio:${dueToday}`]);
});

test('the crontab schedules it daily at 08:00 UTC', () => {
  assert.ok(CRONTAB.split('\n').includes('0 8 * * * portfolio_autogen'));
});

test.run();
