// POST/DELETE /api/units/{unit_id}/task_definitions/{task_def_id}/task_sheet and GET .../task_pdf.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskDefinition } from '../../schema/index.ts';
import { fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { appRouter } from '../../src/routers/index.ts';
import { readAll, storageKeys } from '../../src/storage/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { FileResult, StoredBytes } from '../../src/lib/files.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { samplePdf, samplePng, sampleZip } from '../support/sample-files.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST task sheets: upload, download, remove');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const at = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** A unit convened by people.convenor, tutored by people.tutor, people.student enrolled; one definition P1. */
async function unitWithDefinition(code = 'SIT101', period?: number) {
  const unit = await seedUnit(env, period ? { code, teachingPeriod: period, startDate: '2026-03-02', endDate: '2026-06-12' } : { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const em = env.orm.em.fork();
  const td = em.create(TaskDefinition, {
    unit,
    name: 'Pass 1',
    abbreviation: 'P1',
    description: '',
    startDate: '2026-03-02',
    targetDate: '2026-03-13',
    plagiarismChecks: [],
    uploadRequirements: [],
  });
  await em.flush();
  return { unit, td: td.id };
}

const sheetUrl = (unit: number, td: number) => `/api/units/${unit}/task_definitions/${td}/task_sheet`;
const pdfUrl = (unit: number, td: number) => `/api/units/${unit}/task_definitions/${td}/task_pdf`;
const upload = (unit: number, td: number, data: Buffer, as = people.convenor.creds, filename = 'sheet.pdf') =>
  api(env, 'POST', sheetUrl(unit, td), { as, multipart: { file: { filename, contentType: 'application/pdf', data } } });

/** Every stored file, relative to STORAGE_ROOT (temporary files included). */
function stored(dir = env.config.storageRoot, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? stored(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** Upload files still waiting in the temporary directory. */
const incoming = () => (existsSync(join(env.config.dataDir, 'incoming')) ? readdirSync(join(env.config.dataDir, 'incoming')) : []);

const hasSheet = async (unit: number, as = people.student.creds) =>
  (await api(env, 'GET', `/api/units/${unit}`, { as })).body.task_definitions.map((d: { has_task_sheet: boolean }) => d.has_task_sheet);

test('the convenor uploads a PDF (200 true); students and staff download it byte for byte, inline or as an attachment; has_task_sheet turns true', async () => {
  const { unit, td } = await unitWithDefinition();
  assert.equal(await hasSheet(unit), [false]);
  const pdf = samplePdf('Pass 1: write a program');
  const res = await upload(unit, td, pdf);
  assert.equal([res.status, res.body], [200, true]);
  assert.equal(stored(), [`task_definitions/${td}/sheet.pdf`]);
  assert.equal(readFileSync(join(env.config.storageRoot, storageKeys.taskSheet(td))), pdf);

  for (const who of [people.student, people.tutor, people.convenor, people.admin]) {
    const got = await env.app.inject({ method: 'GET', url: pdfUrl(unit, td), headers: { Username: who.creds.username, 'Auth-Token': who.creds.token } });
    assert.is(got.statusCode, 200, who.creds.username);
    assert.is(got.headers['content-type'], 'application/pdf');
    assert.is(got.headers['content-length'], String(pdf.length));
    assert.is(got.headers['content-disposition'], 'inline; filename=SIT101-P1.pdf');
    assert.equal(got.rawPayload, pdf);
  }
  // The web client's form: `.json` suffix, `as_attachment=true`.
  const attached = await env.app.inject({
    method: 'GET',
    url: `${pdfUrl(unit, td)}.json?as_attachment=true`,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
  });
  assert.is(attached.headers['content-disposition'], 'attachment; filename=SIT101-P1.pdf');
  assert.equal(attached.rawPayload, pdf);

  assert.equal(await hasSheet(unit), [true]);
  assert.equal(await hasSheet(unit, people.convenor.creds), [true]);
  // The definition's own answers (update) say so too.
  const updated = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, { as: people.convenor.creds, json: { task_def: { name: 'Pass one' } } });
  assert.equal([updated.status, updated.body.has_task_sheet, updated.body.has_task_resources], [200, true, false]);
  assert.equal(incoming(), []);
});

test('a second upload replaces the sheet whole', async () => {
  const { unit, td } = await unitWithDefinition();
  await upload(unit, td, samplePdf('first'));
  const second = samplePdf('second version, longer than the first');
  assert.is((await upload(unit, td, second, people.admin.creds)).status, 200);
  assert.equal(await readAll(env.services.storage, storageKeys.taskSheet(td), Infinity), second);
  assert.equal(stored(), [`task_definitions/${td}/sheet.pdf`]);
});

test('a file that is not a PDF is refused by its content (403), whatever its name; nothing is stored and the old sheet stays', async () => {
  const { unit, td } = await unitWithDefinition();
  for (const [data, name] of [
    [samplePng(), 'sheet.pdf'],
    [sampleZip(), 'sheet.pdf'],
    [Buffer.from('%PDF-1.4 but cut short'), 'sheet.pdf'],
    [Buffer.from('name,email\n'), 'notes (v2).pdf'],
  ] as const) {
    const res = await upload(unit, td, data, people.convenor.creds, name);
    assert.equal([res.status, res.body], [403, { error: `'${name}' is not a valid document file` }]);
  }
  assert.equal(stored(), []);
  const pdf = samplePdf();
  await upload(unit, td, pdf);
  assert.is((await upload(unit, td, samplePng())).status, 403);
  assert.equal(await readAll(env.services.storage, storageKeys.taskSheet(td), Infinity), pdf);
  assert.equal(stored(), [`task_definitions/${td}/sheet.pdf`]);
  assert.equal(incoming(), []);
});

test('an upload over the cap (MAX_UPLOAD_BYTES) is 413 and leaves nothing in storage or the temporary directory', async () => {
  const { unit, td } = await unitWithDefinition();
  const big = Buffer.concat([samplePdf(), Buffer.alloc(env.config.maxUploadBytes + 1, 0x20)]);
  const res = await upload(unit, td, big);
  assert.is(res.status, 413);
  assert.match(res.body.error, /larger than/);
  assert.equal(stored(), []);
  assert.equal(incoming(), []);
  assert.equal(await hasSheet(unit), [false]);
});

test('refusals: tutors and students may not upload or remove (403); outsiders may not download (403); nothing changes', async () => {
  const { unit, td } = await unitWithDefinition();
  const pdf = samplePdf();
  for (const who of [people.tutor, people.student]) {
    const res = await upload(unit, td, pdf, who.creds);
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload tasks of unit' }]);
  }
  assert.equal(stored(), []);
  await upload(unit, td, pdf);
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'DELETE', sheetUrl(unit, td), { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to remove task sheets of unit' }]);
  }
  const outsider = await signedIn(env, 'outsider', 'Student');
  const otherConvenor = await signedIn(env, 'otherconvenor', 'Convenor');
  for (const who of [outsider, otherConvenor]) {
    const res = await api(env, 'GET', pdfUrl(unit, td), { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to download task details of unit' }]);
  }
  assert.is((await api(env, 'GET', pdfUrl(unit, td))).status, 419);
  assert.equal(await readAll(env.services.storage, storageKeys.taskSheet(td), Infinity), pdf);
});

test('bad input and unknown ids: no file 400; unknown unit or definition, or a definition of another unit, 404', async () => {
  const { unit, td } = await unitWithDefinition();
  const other = await unitWithDefinition('SIT202');
  const none = await api(env, 'POST', sheetUrl(unit, td), { as: people.convenor.creds, multipart: { note: 'x' } });
  assert.equal([none.status, none.body], [400, { error: 'file is missing' }]);
  const text = await api(env, 'POST', sheetUrl(unit, td), { as: people.convenor.creds, json: { file: '/etc/passwd' } });
  assert.equal([text.status, text.body], [400, { error: 'file is not a file' }]);
  const pdf = samplePdf();
  assert.equal((await upload(unit, 999, pdf)).body, { error: 'Unable to find requested Task Definition' });
  assert.is((await upload(unit, 999, pdf)).status, 404);
  assert.is((await upload(999, td, pdf, people.admin.creds)).status, 404);
  assert.is((await upload(unit, other.td, pdf)).status, 404);
  assert.is((await api(env, 'GET', pdfUrl(unit, other.td), { as: people.student.creds })).status, 404);
  assert.is((await api(env, 'DELETE', sheetUrl(unit, 999), { as: people.convenor.creds })).status, 404);
  assert.is((await api(env, 'GET', pdfUrl(unit, td), { as: people.student.creds, query: { as_attachment: 'maybe' } })).status, 400);
  assert.equal(stored(), []);
});

test('remove (200 true, twice): has_task_sheet false and task_pdf answers the FileNotFound.pdf placeholder with 200', async () => {
  const { unit, td } = await unitWithDefinition();
  const missing = await env.app.inject({
    method: 'GET',
    url: `${pdfUrl(unit, td)}?as_attachment=true`,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
  });
  assert.is(missing.statusCode, 200);
  assert.is(missing.headers['content-type'], 'application/pdf');
  assert.is(missing.headers['content-disposition'], 'attachment; filename=FileNotFound.pdf');
  assert.equal(missing.rawPayload, fileNotFoundPdf());

  await upload(unit, td, samplePdf());
  for (let i = 0; i < 2; i++) {
    const res = await api(env, 'DELETE', sheetUrl(unit, td), { as: people.convenor.creds });
    assert.equal([res.status, res.body], [200, true]);
  }
  assert.equal(stored(), []);
  assert.equal(await hasSheet(unit), [false]);
  const after = await env.app.inject({
    method: 'GET',
    url: pdfUrl(unit, td),
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
  });
  assert.equal([after.statusCode, after.headers['content-disposition']], [200, 'inline; filename=FileNotFound.pdf']);
});

test('rollover copies the task sheet to the new definition; deleting a definition removes its sheet', async () => {
  const t1 = await seedPeriod(env, { period: 'T1', startDate: at('2026-03-02'), endDate: at('2026-06-12'), activeUntil: at('2026-07-01') });
  const t2 = await seedPeriod(env, { period: 'T2', startDate: at('2026-07-13'), endDate: at('2026-10-23'), activeUntil: at('2026-11-01') });
  const { unit, td } = await unitWithDefinition('SIT101', t1);
  const pdf = samplePdf('rolled over');
  await upload(unit, td, pdf);
  const res = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.convenor.creds, json: { teaching_period_id: t2 } });
  assert.is(res.status, 201);
  const [copy] = res.body.task_definitions;
  assert.is(copy.has_task_sheet, true);
  assert.ok(copy.id !== td);
  const got = await env.app.inject({
    method: 'GET',
    url: pdfUrl(res.body.id, copy.id),
    headers: { Username: people.convenor.creds.username, 'Auth-Token': people.convenor.creds.token },
  });
  assert.equal(got.rawPayload, pdf);

  const removed = await api(env, 'DELETE', `/api/units/${unit}/task_definitions/${td}`, { as: people.convenor.creds });
  assert.is(removed.status, 200);
  // The removal runs once the deletion is committed; give it a moment.
  for (let i = 0; i < 50 && stored().length > 1; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(stored(), [`task_definitions/${copy.id}/sheet.pdf`]);
});

test("the teaching period rollover copies each unit's task sheets too", async () => {
  const t1 = await seedPeriod(env, { period: 'T1', startDate: at('2026-03-02'), endDate: at('2026-06-12'), activeUntil: at('2026-07-01') });
  const t2 = await seedPeriod(env, { period: 'T2', startDate: at('2026-07-13'), endDate: at('2026-10-23'), activeUntil: at('2026-11-01') });
  const { unit, td } = await unitWithDefinition('SIT101', t1);
  const pdf = samplePdf('period rollover');
  await upload(unit, td, pdf);
  const res = await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: t2 } });
  assert.is(res.status, 200, res.text);
  const copy = await env.orm.em.fork().findOneOrFail(TaskDefinition, { unit: { teachingPeriod: t2 } });
  assert.equal(await readAll(env.services.storage, storageKeys.taskSheet(copy.id), Infinity), pdf);
  assert.equal(await readAll(env.services.storage, storageKeys.taskSheet(td), Infinity), pdf);
});

test('tRPC: the download procedure returns the stored sheet, opened as it is sent, with its size', async () => {
  const { unit, td } = await unitWithDefinition();
  const pdf = samplePdf();
  await upload(unit, td, pdf);
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.student.creds));
  const file = (await caller.units.taskDefinitions.taskPdf({ unit_id: unit, task_def_id: td })) as FileResult;
  assert.equal([file.filename, file.contentType, file.size, file.asAttachment], ['SIT101-P1.pdf', 'application/pdf', pdf.length, false]);
  const chunks: Buffer[] = [];
  const opened = await (file.data as StoredBytes).open();
  for await (const chunk of opened!.stream as AsyncIterable<Buffer>) chunks.push(chunk);
  assert.equal(Buffer.concat(chunks), pdf);
});

test.run();
