// The compile_portfolio job: PUT compile_portfolio=true queues it; the worker builds the PDF (the
// learning summary report, the extra parts, then the portfolio tasks by target date and
// abbreviation), sets the production date, and the download, delete and grade lock follow.
import { Readable } from 'node:stream';
import type { JobHelpers } from 'graphile-worker';
import { PDFDocument } from 'pdf-lib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { dockerEngine } from '../../src/adapters/docker.ts';
import { taskList } from '../../workers/index.ts';
import { TEST_NOW, type TestEnv } from '../support/env.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { sampleGif, samplePng } from '../support/sample-files.ts';
import { seedTask, seedTaskAlignment, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('worker: compile_portfolio');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A PDF of `pages` square pages `side` points wide: its pages are recognisable by size in the portfolio. */
async function squarePdf(side: number, pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([side, side]);
  return Buffer.from(await doc.save());
}

const pdfPart = (data: Buffer, filename = 'part.pdf') => ({ filename, contentType: 'application/pdf', data });

async function addPart(project: number, name: string, kind: string, file: { filename: string; contentType: string; data: Buffer }) {
  const res = await api(env, 'POST', `/api/submission/project/${project}/portfolio`, { as: people.student.creds, multipart: { name, kind, file0: file } });
  assert.is(res.status, 201, res.text);
}

/** A task of the student's with a stored submission PDF (as the submission job leaves it). */
async function taskWithPdf(world: TaskWorld, abbreviation: string, targetDate: string, pdf: Buffer | null, include = true): Promise<number> {
  const td = await seedTaskDefinition(env, world.unit, abbreviation, { targetDate });
  const task = await seedTask(env, world.project, td, { status: 'ready_for_feedback' });
  const key = `submissions/${task}/submission.pdf`;
  if (pdf) await env.services.storage.put(key, Readable.from([pdf]));
  await db(env.orm.em.fork())
    .updateTable('tasks')
    .set({ pdf_path: pdf ? key : null, include_in_portfolio: include })
    .where('id', '=', task)
    .execute();
  return task;
}

async function download(project: number): Promise<Buffer> {
  const res = await env.app.inject({
    method: 'GET',
    url: `/api/submission/project/${project}/portfolio`,
    headers: { Username: people.student.creds.username, Auth_Token: people.student.creds.token },
  });
  assert.is(res.statusCode, 200);
  assert.is(res.headers['content-type'], 'application/pdf');
  return res.rawPayload;
}

async function projectRow(project: number) {
  return db(env.orm.em.fork())
    .selectFrom('projects')
    .select(['compile_portfolio', 'portfolio_production_date', 'submitted_grade', 'portfolio_auto_generated'])
    .where('id', '=', project)
    .executeTakeFirstOrThrow();
}

async function queued() {
  return env.orm.em
    .fork()
    .execute<{ identifier: string; payload: unknown; key: string | null }[]>(
      "select t.identifier, j.payload::jsonb - '_requestId' as payload, j.key from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id",
    );
}

const compile = (project: number, value = true) =>
  api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, form: { compile_portfolio: value } });

/** The sizes of the pages that came from stored PDFs (our own pages are A4). */
async function embeddedSides(pdf: Buffer): Promise<number[]> {
  const doc = await PDFDocument.load(pdf);
  return doc
    .getPages()
    .map((p) => p.getSize())
    .filter((s) => Math.round(s.width) !== 595)
    .map((s) => Math.round(s.width));
}

test('PUT compile_portfolio=true queues the compile; the worker renders the summary report, the parts, then the portfolio tasks in order', async () => {
  const world = await taskWorld(env, people);
  await addPart(world.project, 'LearningSummaryReport', 'document', pdfPart(await squarePdf(300, 2), 'lsr.pdf'));
  await addPart(world.project, 'Evidence', 'document', pdfPart(await squarePdf(310)));
  await addPart(world.project, 'Code', 'code', {
    filename: 'main.py',
    contentType: 'text/x-python',
    data: Buffer.from('def f():\n\treturn "héllo ✓"\n'.repeat(80)),
  });
  await addPart(world.project, 'Diagram', 'image', { filename: 'd.png', contentType: 'image/png', data: samplePng() });
  // Target date first, abbreviation second; excluded or PDF-less tasks stay out, as does one whose stored PDF is gone.
  const late = await taskWithPdf(world, 'C1', '2026-04-10', await squarePdf(320));
  await taskWithPdf(world, 'B2', '2026-03-20', await squarePdf(330));
  await taskWithPdf(world, 'A3', '2026-03-20', await squarePdf(340, 2));
  await taskWithPdf(world, 'X9', '2026-03-01', await squarePdf(350), false);
  await taskWithPdf(world, 'Y8', '2026-03-01', null);
  const gone = await taskWithPdf(world, 'Z7', '2026-03-01', await squarePdf(360));
  await env.services.storage.delete(`submissions/${gone}/submission.pdf`);
  await seedTaskAlignment(env, world.unit, world.td, late);

  const before = await download(world.project);
  assert.equal(before, fileNotFoundPdf(), 'the placeholder until a portfolio exists');

  const put = await compile(world.project);
  assert.is(put.status, 200, put.text);
  assert.equal([put.body.compile_portfolio, put.body.portfolio_available], [true, false]);
  assert.equal(await queued(), [{ identifier: 'compile_portfolio', payload: { projectId: world.project }, key: `compile_portfolio:${world.project}` }]);
  const again = await compile(world.project);
  assert.is(again.status, 200);
  assert.is((await queued()).length, 1, 'a second request before the worker runs replaces the first');

  const later = new Date(TEST_NOW.getTime() + 3_600_000);
  env.clock.set(later);
  await runJobs(env);

  const row = await projectRow(world.project);
  assert.is(row.compile_portfolio, false);
  assert.equal(new Date(row.portfolio_production_date!), later);
  assert.equal(await queued(), []);

  const pdf = await download(world.project);
  const doc = await PDFDocument.load(pdf);
  const sides = await embeddedSides(pdf);
  assert.equal(sides, [300, 300, 310, 340, 340, 330, 320], 'summary report, evidence, then A3, B2, C1');
  assert.equal(
    doc
      .getPages()
      .slice(0, 2)
      .map((p) => Math.round(p.getWidth())),
    [300, 300],
    'the summary report opens the portfolio',
  );
  assert.ok(doc.getPageCount() >= sides.length + 7, `cover, contents, status, outcomes, files list, code and image pages too (${doc.getPageCount()} pages)`);

  const detail = await api(env, 'GET', `/api/projects/${world.project}`, { as: people.student.creds });
  assert.is(detail.body.portfolio_available, true);
  const students = await api(env, 'GET', '/api/students', { as: people.tutor.creds, query: { unit_id: world.unit } });
  assert.is(students.status, 200);
  assert.is(students.body.find((s: { id: number }) => s.id === world.project).has_portfolio, true);

  const grade = await api(env, 'PUT', `/api/projects/${world.project}`, { as: people.student.creds, form: { submitted_grade: 2 } });
  assert.equal([grade.status, grade.body], [403, { error: 'You cannot change your submitted grade after portfolio submission' }]);

  const removed = await api(env, 'DELETE', `/api/submission/project/${world.project}/portfolio`, { as: people.student.creds });
  assert.is(removed.status, 204);
  for (let i = 0; i < 100 && (await env.services.storage.exists(storageKeys.portfolio(world.project))); i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(await download(world.project), fileNotFoundPdf());
  const afterDelete = await api(env, 'GET', `/api/projects/${world.project}`, { as: people.student.creds });
  assert.is(afterDelete.body.portfolio_available, false);
  const regrade = await api(env, 'PUT', `/api/projects/${world.project}`, { as: people.student.creds, form: { submitted_grade: 2 } });
  assert.is(regrade.status, 200, 'the grade may change again once the portfolio is removed');
});

test('portfolio_available is false while a new compile is pending, and true again once it is done', async () => {
  const world = await taskWorld(env, people);
  await addPart(world.project, 'LearningSummaryReport', 'document', pdfPart(await squarePdf(300)));
  await compile(world.project);
  await runJobs(env);
  const first = await projectRow(world.project);
  assert.ok(first.portfolio_production_date);

  await travelTo(env, people, new Date(TEST_NOW.getTime() + 86_400_000));
  const put = await compile(world.project);
  assert.equal([put.body.compile_portfolio, put.body.portfolio_available], [true, false]);
  const pending = await api(env, 'GET', `/api/projects/${world.project}`, { as: people.student.creds });
  assert.is(pending.body.portfolio_available, false);
  await runJobs(env);
  const second = await projectRow(world.project);
  assert.equal(new Date(second.portfolio_production_date!), env.clock.now());
  const done = await api(env, 'GET', `/api/projects/${world.project}`, { as: people.student.creds });
  assert.is(done.body.portfolio_available, true);
});

test('a job run again after its work is done (as after a crash before it was marked complete) changes nothing', async () => {
  const world = await taskWorld(env, people);
  await addPart(world.project, 'LearningSummaryReport', 'document', pdfPart(await squarePdf(300)));
  await compile(world.project);
  await runJobs(env);
  const row = await projectRow(world.project);
  const stored = await env.services.storage.stat(storageKeys.portfolio(world.project));

  env.clock.set(new Date(TEST_NOW.getTime() + 86_400_000));
  await env.orm.em.fork().transactional((em) => jobQueue(em as never).add('compile_portfolio', { projectId: world.project }));
  await runJobs(env);
  assert.equal(await projectRow(world.project), row);
  assert.equal(await env.services.storage.stat(storageKeys.portfolio(world.project)), stored);
  assert.equal(await queued(), []);
});

test('a request made while a compile runs is not lost: the running one stores its portfolio and leaves the request for the next', async () => {
  const world = await taskWorld(env, people);
  await addPart(world.project, 'LearningSummaryReport', 'document', pdfPart(await squarePdf(300)));
  await compile(world.project);
  // A worker has taken the first job; the student asks again meanwhile, which queues a second one.
  const [first] = await env.orm.em
    .fork()
    .execute<{ id: string }[]>("update graphile_worker._private_jobs set locked_at = now(), locked_by = 'elsewhere' returning id");
  await compile(world.project);
  assert.equal(await queued().then((jobs) => jobs.map((j) => j.key)), [null, `compile_portfolio:${world.project}`]);

  const logger = { info() {}, warn() {}, error() {}, debug() {} };
  const tasks = taskList({ ...env.services, docker: dockerEngine('tcp://127.0.0.1:9') } as never);
  await tasks.compile_portfolio({ projectId: world.project }, { job: { id: first.id }, logger } as unknown as JobHelpers);
  const row = await projectRow(world.project);
  assert.ok(row.portfolio_production_date, 'the first compile stored its portfolio');
  assert.is(row.compile_portfolio, true, 'the second request still stands');

  await env.orm.em.fork().execute('delete from graphile_worker._private_jobs where id = ?', [first.id]);
  await runJobs(env);
  assert.is((await projectRow(world.project)).compile_portfolio, false);
});

test('an unreadable task PDF fails the compile cleanly: nothing stored, the request cleared, no retry', async () => {
  const world = await taskWorld(env, people);
  await addPart(world.project, 'LearningSummaryReport', 'document', pdfPart(await squarePdf(300)));
  await taskWithPdf(world, 'B1', '2026-03-20', Buffer.from('%PDF-1.4 this is not really a PDF'));
  const put = await compile(world.project);
  assert.is(put.status, 200);
  await runJobs(env);
  const row = await projectRow(world.project);
  assert.equal([row.compile_portfolio, row.portfolio_production_date], [false, null]);
  assert.is(await env.services.storage.exists(storageKeys.portfolio(world.project)), false);
  assert.equal(await queued(), [], 'the job ended: it is not waiting to be retried');
  assert.equal(await download(world.project), fileNotFoundPdf());
  const grade = await api(env, 'PUT', `/api/projects/${world.project}`, { as: people.student.creds, form: { submitted_grade: 1 } });
  assert.is(grade.status, 200, 'no portfolio, so the grade is not locked');
});

test('an extra part damaged in storage (a PNG that does not decode) fails the compile cleanly too; a GIF part is drawn', async () => {
  const world = await taskWorld(env, people);
  await addPart(world.project, 'Animation', 'image', { filename: 'a.gif', contentType: 'image/gif', data: sampleGif() });
  await addPart(world.project, 'Diagram', 'image', { filename: 'd.png', contentType: 'image/png', data: samplePng() });
  const [, png] = await db(env.orm.em.fork())
    .selectFrom('portfolio_parts')
    .select('storage_key')
    .where('project_id', '=', world.project)
    .orderBy('idx')
    .execute();
  const damaged = Buffer.concat([samplePng().subarray(0, 20), Buffer.from('garbage')]);
  await env.services.storage.put(png.storage_key, Readable.from([damaged]));
  await compile(world.project);
  await runJobs(env);
  const row = await projectRow(world.project);
  assert.equal([row.compile_portfolio, row.portfolio_production_date], [false, null]);
  assert.is(await env.services.storage.exists(storageKeys.portfolio(world.project)), false);

  await env.services.storage.put(png.storage_key, Readable.from([samplePng()]));
  await compile(world.project);
  await runJobs(env);
  assert.ok((await projectRow(world.project)).portfolio_production_date, 'repaired, it compiles');
});

test('a compile with no parts and no tasks still gives a portfolio (cover, contents, status and outcomes)', async () => {
  const world = await taskWorld(env, people);
  await compile(world.project);
  await runJobs(env);
  const pdf = await download(world.project);
  const doc = await PDFDocument.load(pdf);
  assert.is(doc.getPageCount(), 4);
  assert.equal(await embeddedSides(pdf), []);
});

test('compile_portfolio=false queues nothing, and a job finding the request withdrawn does nothing', async () => {
  const world = await taskWorld(env, people);
  await compile(world.project);
  const off = await compile(world.project, false);
  assert.equal([off.status, off.body.compile_portfolio], [200, false]);
  await runJobs(env);
  const row = await projectRow(world.project);
  assert.equal([row.compile_portfolio, row.portfolio_production_date], [false, null]);
  assert.is(await env.services.storage.exists(storageKeys.portfolio(world.project)), false);
  const none = await compile(world.project, false);
  assert.is(none.status, 200);
  assert.equal(await queued(), []);
});

test.run();
