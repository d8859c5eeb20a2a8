// Portfolio parts: POST, GET and DELETE /api/submission/project/{id}/portfolio, and the parts in GET /api/projects/{id}.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { readAll, storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { samplePdf, samplePng } from '../support/sample-files.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/submission/project/{id}/portfolio');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  await db(env.orm.em.fork()).updateTable('projects').set({ uses_draft_learning_summary: true }).where('id', '=', project).execute();
  return { unit, project };
}

/** Stored files go after commit, once the answer is on its way: waits (at most a second) until `present` is false. */
async function gone(present: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!(await present())) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

type Part = { filename: string; contentType: string; data: Buffer };
const pdf = (filename = 'summary.pdf', text = 'My learning'): Part => ({ filename, contentType: 'application/pdf', data: samplePdf(text) });

const add = (as: Actor, project: number, name: string, kind: string, file: Part) =>
  api(env, 'POST', `/api/submission/project/${project}/portfolio`, { as: as.creds, multipart: { name, kind, file0: file } });

async function partsOf(project: number) {
  return db(env.orm.em.fork())
    .selectFrom('portfolio_parts')
    .select(['idx', 'kind', 'name', 'storage_key'])
    .where('project_id', '=', project)
    .orderBy('idx')
    .execute();
}

const storedFiles = (project: number): string[] => {
  const dir = join(env.config.storageRoot, 'portfolios', String(project), 'parts');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

test('parts are stored by index: the learning summary report is always 0 and stops the draft; others follow from 1; the project lists them', async () => {
  const { project } = await world();
  const code = await add(people.student, project, 'Extra code', 'code', {
    filename: 'main.py',
    contentType: 'text/x-python',
    data: Buffer.from('print("hi")\n'),
  });
  assert.is(code.status, 201, code.text);
  assert.equal(code.body, { kind: 'code', name: 'main.py', idx: 1, file_name: 'main.py', file_kind: 'code', file_path: '001-code-main.py' });
  const image = await add(people.tutor, project, 'Diagram', 'image', { filename: 'diagram.png', contentType: 'image/png', data: samplePng() });
  assert.equal([image.status, image.body.idx, image.body.name], [201, 2, 'diagram.png']);
  const summary = await add(people.student, project, 'LearningSummaryReport', 'document', pdf());
  assert.is(summary.status, 201);
  assert.equal(summary.body, {
    kind: 'document',
    name: 'LearningSummaryReport.pdf',
    idx: 0,
    file_name: 'LearningSummaryReport.pdf',
    file_kind: 'document',
    file_path: '000-document-LearningSummaryReport.pdf',
  });
  const parts = await partsOf(project);
  assert.equal(
    parts.map((p) => [p.idx, p.kind, p.name]),
    [
      [0, 'document', 'LearningSummaryReport.pdf'],
      [1, 'code', 'main.py'],
      [2, 'image', 'diagram.png'],
    ],
  );
  assert.equal(await readAll(env.services.storage, parts[0].storage_key, Infinity), samplePdf('My learning'));

  // A new report replaces the old one (its file goes after commit); the draft is no longer used.
  const again = await add(people.student, project, 'LearningSummaryReport', 'document', pdf('v2.pdf', 'Second go'));
  assert.is(again.body.idx, 0);
  const after = await partsOf(project);
  assert.is(after.length, 3);
  assert.equal(await readAll(env.services.storage, after[0].storage_key, Infinity), samplePdf('Second go'));
  assert.ok(await gone(async () => storedFiles(project).length > 3));

  const detail = await api(env, 'GET', `/api/projects/${project}`, { as: people.student.creds });
  assert.is(detail.status, 200);
  assert.equal(detail.body.portfolio_files, [
    { kind: 'document', name: 'LearningSummaryReport.pdf', idx: 0 },
    { kind: 'code', name: 'main.py', idx: 1 },
    { kind: 'image', name: 'diagram.png', idx: 2 },
  ]);
  assert.is(detail.body.uses_draft_learning_summary, false);
});

test('two parts uploaded at once take different indexes (the project row is locked while one is numbered)', async () => {
  const { project } = await world();
  const code = (name: string) => ({ filename: name, contentType: 'text/plain', data: Buffer.from(`# ${name}\n`) });
  const [a, b] = await Promise.all([add(people.student, project, 'Code', 'code', code('a.py')), add(people.tutor, project, 'Code', 'code', code('b.py'))]);
  assert.equal([a.status, b.status], [201, 201], a.text + b.text);
  assert.equal([a.body.idx, b.body.idx].sort(), [1, 2]);
  assert.equal(
    (await partsOf(project)).map((p) => p.idx),
    [1, 2],
  );
});

test('files are checked by content for their kind; refused uploads store nothing', async () => {
  const { project } = await world();
  const fake = await add(people.student, project, 'Report', 'document', {
    filename: 'report.pdf',
    contentType: 'application/pdf',
    data: Buffer.from('not a pdf at all'),
  });
  assert.equal([fake.status, fake.body], [403, { error: "'report.pdf' is not a valid document file" }]);
  const pngAsCode = await add(people.student, project, 'Code', 'code', { filename: 'main.py', contentType: 'text/plain', data: samplePng() });
  assert.equal([pngAsCode.status, pngAsCode.body], [403, { error: "'main.py' is not a valid code file" }]);
  const unknownExtension = await add(people.student, project, 'Code', 'code', { filename: 'main.exe', contentType: 'text/plain', data: Buffer.from('text') });
  assert.is(unknownExtension.status, 403);
  const pdfAsImage = await add(people.student, project, 'Pic', 'image', pdf('pic.png'));
  assert.equal([pdfAsImage.status, pdfAsImage.body], [403, { error: "'pic.png' is not a valid image file" }]);
  const badKind = await add(people.student, project, 'Movie', 'video', pdf());
  assert.is(badKind.status, 400);
  const noFile = await api(env, 'POST', `/api/submission/project/${project}/portfolio`, {
    as: people.student.creds,
    multipart: { name: 'x', kind: 'document' },
  });
  assert.is(noFile.status, 400);
  assert.equal(await partsOf(project), []);
  assert.equal(storedFiles(project), []);
});

test("only the owning student and the unit's staff may add, read or remove parts; unknown projects are 404", async () => {
  const { unit, project } = await world();
  const other = await signedIn(env, 'bstudent', 'Student');
  await enrol(env, other.user, unit);
  const refusedAdd = await add(other, project, 'Code', 'code', { filename: 'a.py', contentType: 'text/plain', data: Buffer.from('x') });
  assert.equal([refusedAdd.status, refusedAdd.body], [403, { error: `Not authorised to submit portfolio for project '${project}'` }]);
  const otherUnit = await seedUnit(env, { code: 'SIT202' });
  const stranger = await signedIn(env, 'otutor', 'Tutor');
  await employ(env, stranger.user, otherUnit, 'Tutor');
  assert.is((await add(stranger, project, 'LearningSummaryReport', 'document', pdf())).status, 403);
  assert.is((await add(people.admin, project, 'LearningSummaryReport', 'document', pdf())).status, 403);
  assert.is((await add(people.student, 99999, 'LearningSummaryReport', 'document', pdf())).status, 404);
  const read = await api(env, 'GET', `/api/submission/project/${project}/portfolio`, { as: stranger.creds });
  assert.equal([read.status, read.body], [403, { error: `Not authorised to download portfolio for project '${project}'` }]);
  const remove = await api(env, 'DELETE', `/api/submission/project/${project}/portfolio`, { as: other.creds });
  assert.equal([remove.status, remove.body], [403, { error: `Not authorised to alter portfolio for project '${project}'` }]);
  assert.equal(await partsOf(project), []);
});

test('DELETE with idx, kind and name (JSON body as the web client sends, or query) removes that part and its file after commit', async () => {
  const { project } = await world();
  await add(people.student, project, 'LearningSummaryReport', 'document', pdf());
  await add(people.student, project, 'Code', 'code', { filename: 'a.py', contentType: 'text/plain', data: Buffer.from('x = 1\n') });
  await add(people.student, project, 'Code', 'code', { filename: 'b.py', contentType: 'text/plain', data: Buffer.from('y = 2\n') });
  assert.is(storedFiles(project).length, 3);

  // As the web client sends it: a double slash, and the part in a JSON body.
  const byBody = await api(env, 'DELETE', `/api//submission/project/${project}/portfolio`, {
    as: people.student.creds,
    json: { idx: 1, kind: 'code', name: 'a.py' },
  });
  assert.is(byBody.status, 204, byBody.text);
  const byQuery = await api(env, 'DELETE', `/api/submission/project/${project}/portfolio?idx=0&kind=document&name=LearningSummaryReport.pdf`, {
    as: people.tutor.creds,
  });
  assert.is(byQuery.status, 204);
  assert.equal(
    (await partsOf(project)).map((p) => p.name),
    ['b.py'],
  );
  assert.ok(await gone(async () => storedFiles(project).length > 1));
  assert.is(storedFiles(project).length, 1);
  // The next part still takes a new index.
  const next = await add(people.student, project, 'Code', 'code', { filename: 'c.py', contentType: 'text/plain', data: Buffer.from('z = 3\n') });
  assert.is(next.body.idx, 3);

  const missing = await api(env, 'DELETE', `/api/submission/project/${project}/portfolio`, {
    as: people.student.creds,
    json: { idx: 2, kind: 'code', name: 'a.py' },
  });
  assert.equal([missing.status, missing.body], [404, { error: 'Unable to find the portfolio file to remove' }]);
  const partial = await api(env, 'DELETE', `/api/submission/project/${project}/portfolio`, { as: people.student.creds, json: { idx: 2 } });
  assert.equal([partial.status, partial.body], [400, { error: 'idx, kind and name are needed together to remove a portfolio file' }]);
  assert.equal(
    (await partsOf(project)).map((p) => p.name),
    ['b.py', 'c.py'],
  );
});

test('GET answers the compiled portfolio or FileNotFound.pdf; DELETE without a part removes it, and the submitted grade may change again', async () => {
  const { project } = await world();
  const placeholder = await env.app.inject({
    method: 'GET',
    url: `/api/submission/project/${project}/portfolio`,
    headers: { Username: 'astudent', Auth_Token: people.student.creds.token },
  });
  assert.is(placeholder.statusCode, 200);
  assert.is(placeholder.headers['content-type'], 'application/pdf');
  assert.equal(placeholder.rawPayload, fileNotFoundPdf());

  // As the portfolio worker will leave it.
  const compiled = samplePdf('The whole portfolio');
  await env.services.storage.put(storageKeys.portfolio(project), Readable.from([compiled]));
  await db(env.orm.em.fork())
    .updateTable('projects')
    .set({ portfolio_production_date: '2026-03-01T00:00:00Z', submitted_grade: 1 })
    .where('id', '=', project)
    .execute();
  const locked = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { submitted_grade: 2 } });
  assert.equal([locked.status, locked.body], [403, { error: 'You cannot change your submitted grade after portfolio submission' }]);

  const res = await env.app.inject({
    method: 'GET',
    url: `/api/submission/project/${project}/portfolio?as_attachment=true`,
    headers: { Username: 'atutor', Auth_Token: people.tutor.creds.token },
  });
  assert.is(res.statusCode, 200);
  assert.equal(res.rawPayload, compiled);
  assert.match(String(res.headers['content-disposition']), /attachment; filename="?SIT101-astudent-portfolio\.pdf/);
  assert.is((await api(env, 'GET', `/api/projects/${project}`, { as: people.student.creds })).body.portfolio_available, true);

  const removed = await api(env, 'DELETE', `/api/submission/project/${project}/portfolio`, { as: people.student.creds });
  assert.is(removed.status, 204);
  assert.ok(await gone(() => env.services.storage.exists(storageKeys.portfolio(project))), 'the file is deleted after commit');
  assert.is((await api(env, 'GET', `/api/projects/${project}`, { as: people.student.creds })).body.portfolio_available, false);
  const unlocked = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { submitted_grade: 2 } });
  assert.is(unlocked.status, 200);
  assert.is(unlocked.body.submitted_grade, 2);
});

test.run();
