// POST /api/units/{unit_id}/task_definitions/task_pdfs: many task sheets and resources in one zip.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskDefinition } from '../../schema/index.ts';
import { appRouter } from '../../src/routers/index.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { UploadedFile } from '../../src/lib/files.ts';
import { importTaskFilesFromZip } from '../../src/operations/units/task_definitions/import-task-files.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { api } from '../support/http.ts';
import { samplePdf, tempFileOf } from '../support/sample-files.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { rawZip } from '../support/zips.ts';

const test = suite('REST POST /api/units/{unit_id}/task_definitions/task_pdfs');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A staffed unit with definitions of these abbreviations (ids by abbreviation). */
async function unitWith(...abbreviations: string[]) {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const em = env.orm.em.fork();
  const ids: Record<string, number> = {};
  for (const [i, abbreviation] of abbreviations.entries()) {
    const td = em.create(TaskDefinition, {
      unit,
      name: `Task ${abbreviation}`,
      abbreviation,
      description: '',
      startDate: `2026-03-0${2 + i}`,
      targetDate: '2026-03-13',
      plagiarismChecks: [],
      uploadRequirements: [],
    });
    await em.flush();
    ids[abbreviation] = td.id;
  }
  return { unit, ids };
}

const post = (unit: number | string, data: Buffer, as: Credentials = people.convenor.creds, filename = 'tasks.zip') =>
  api(env, 'POST', `/api/units/${unit}/task_definitions/task_pdfs`, { as, multipart: { file: { filename, contentType: 'application/zip', data } } });

function stored(dir = env.config.storageRoot, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? stored(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}
const storedBytes = (key: string) => readFileSync(join(env.config.storageRoot, key));
const incoming = () => (existsSync(join(env.config.dataDir, 'incoming')) ? readdirSync(join(env.config.dataDir, 'incoming')) : []);
const rows = (list: { row: string; message: string }[]) => list.map((r) => [r.row, r.message]);

test('entries match definitions by their whole abbreviation: PDFs become sheets, zips resources; the rest is answered entry by entry', async () => {
  const { unit, ids } = await unitWith('1.1P', '1.1', '2.1C', 'X1');
  const sheet11P = samplePdf('1.1P');
  const sheet11 = samplePdf('1.1');
  const resources = rawZip([['data.csv', 'a,b\n']]);
  const zip = rawZip([
    ['1.1P.pdf', sheet11P],
    ['week1/', ''],
    ['week1/1.1.PDF', sheet11],
    ['2.1C.zip', resources],
    ['notes.txt', 'not a task file'],
    ['9.9P.pdf', samplePdf('nobody')],
    ['../evil.pdf', samplePdf('evil')],
    ['again/1.1P.pdf', samplePdf('second copy')],
    ['X1.pdf', 'plain text, not a PDF'],
    ['X1.zip', rawZip([['../../escape.sh', 'x']])],
  ]);
  const res = await post(unit, zip);
  assert.is(res.status, 201, res.text);
  assert.equal(rows(res.body.success), [
    ['1.1P.pdf', 'Added as task 1.1P'],
    ['week1/1.1.PDF', 'Added as task 1.1'],
    ['2.1C.zip', 'Added as task 2.1C'],
  ]);
  assert.equal(rows(res.body.ignored), [['notes.txt', 'Unknown file type.']]);
  assert.equal(rows(res.body.errors), [
    ['9.9P.pdf', 'Unable to find a task with matching abbreviation.'],
    ['../evil.pdf', 'Unsafe entry name (climbs out of its folder): skipped.'],
    ['again/1.1P.pdf', 'Task 1.1P already takes 1.1P.pdf from this zip.'],
    ['X1.pdf', "'X1.pdf' is not a valid document file"],
    ['X1.zip', 'File given is not a usable zip file - it holds an unsafe entry name "../../escape.sh" (climbs out of its folder)'],
  ]);
  assert.equal(stored(), [storageKeys.taskSheet(ids['1.1P']!), storageKeys.taskSheet(ids['1.1']!), storageKeys.taskResources(ids['2.1C']!)].sort());
  assert.equal(storedBytes(storageKeys.taskSheet(ids['1.1P']!)), sheet11P);
  assert.equal(storedBytes(storageKeys.taskSheet(ids['1.1']!)), sheet11);
  assert.equal(storedBytes(storageKeys.taskResources(ids['2.1C']!)), resources);
  // Nothing was written outside storage either, and the work files are gone.
  assert.not.ok(existsSync(join(env.config.storageRoot, '..', 'evil.pdf')));
  assert.equal(incoming(), []);

  const unitPage = await api(env, 'GET', `/api/units/${unit}`, { as: people.student.creds });
  assert.equal(
    unitPage.body.task_definitions.map((d: { abbreviation: string; has_task_sheet: boolean; has_task_resources: boolean }) => [
      d.abbreviation,
      d.has_task_sheet,
      d.has_task_resources,
    ]),
    [
      ['1.1P', true, false],
      ['1.1', true, false],
      ['2.1C', false, true],
      ['X1', false, false],
    ],
  );
});

test('a sheet already there is replaced by a good entry and kept when the entry is refused', async () => {
  const { unit, ids } = await unitWith('P1', 'P2');
  const old = samplePdf('old');
  for (const abbr of ['P1', 'P2'] as const) {
    const up = await api(env, 'POST', `/api/units/${unit}/task_definitions/${ids[abbr]}/task_sheet`, {
      as: people.convenor.creds,
      multipart: { file: { filename: 's.pdf', contentType: 'application/pdf', data: old } },
    });
    assert.is(up.status, 200);
  }
  const fresh = samplePdf('new');
  const res = await post(
    unit,
    rawZip([
      ['P1.pdf', fresh],
      ['P2.pdf', Buffer.from('%PDF-1.4 cut off')],
    ]),
  );
  assert.is(res.status, 201);
  assert.equal(rows(res.body.errors), [['P2.pdf', "'P2.pdf' is not a valid document file"]]);
  assert.equal(storedBytes(storageKeys.taskSheet(ids.P1!)), fresh);
  assert.equal(storedBytes(storageKeys.taskSheet(ids.P2!)), old);
});

test('refusals: tutors and students 403; unknown unit 404; not a zip or an unreadable zip 403; no file 400; nothing stored', async () => {
  const { unit } = await unitWith('P1');
  const good = rawZip([['P1.pdf', samplePdf()]]);
  for (const who of [people.tutor, people.student]) {
    const res = await post(unit, good, who.creds);
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload tasks of unit' }], who.creds.username);
  }
  assert.is((await post(9999, good, people.admin.creds)).status, 404);
  assert.is((await post('abc', good, people.admin.creds)).status, 400);
  const pdf = await post(unit, samplePdf(), people.convenor.creds, 'tasks.zip');
  assert.equal([pdf.status, pdf.body], [403, { error: 'File given is not a zip file - detected application/pdf' }]);
  const cut = await post(unit, good.subarray(0, good.length - 8));
  assert.is(cut.status, 403);
  const none = await api(env, 'POST', `/api/units/${unit}/task_definitions/task_pdfs`, { as: people.convenor.creds, multipart: { note: 'x' } });
  assert.equal([none.status, none.body], [400, { error: 'file is missing' }]);
  assert.equal(stored(), []);
  assert.equal(incoming(), []);
});

test('an entry over the cap (MAX_UPLOAD_BYTES; lower here) is an error for that entry; the others still apply and no work file is kept', async () => {
  const { ids } = await unitWith('P1', 'P2');
  const small = samplePdf('small');
  const big = Buffer.concat([samplePdf('big'), Buffer.alloc(5000, 32)]);
  const path = tempFileOf(
    rawZip([
      ['P1.pdf', big],
      ['P2.pdf', small],
    ]),
    'tasks.zip',
  );
  const result = await importTaskFilesFromZip(
    env.services.storage,
    [
      { id: ids.P1!, abbreviation: 'P1' },
      { id: ids.P2!, abbreviation: 'P2' },
    ],
    path,
    {
      workDir: join(env.config.dataDir, 'incoming'),
      maxEntryBytes: 4000,
    },
  );
  assert.equal(rows(result.errors), [['P1.pdf', 'Unable to read the entry: entry "P1.pdf" is larger than 4000 bytes']]);
  assert.equal(rows(result.success), [['P2.pdf', 'Added as task P2']]);
  assert.equal(stored(), [storageKeys.taskSheet(ids.P2!)]);
  assert.equal(storedBytes(storageKeys.taskSheet(ids.P2!)), small);
  assert.equal(incoming(), []);
});

test('tRPC: the typed caller takes an uploaded zip', async () => {
  const { unit, ids } = await unitWith('P1');
  const path = tempFileOf(rawZip([['P1.pdf', samplePdf()]]), 'tasks.zip');
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const result = await caller.units.taskDefinitions.taskPdfs({ unit_id: unit, file: new UploadedFile('tasks.zip', 'application/zip', path, 0) });
  assert.equal(rows(result.success), [['P1.pdf', 'Added as task P1']]);
  assert.equal(stored(), [storageKeys.taskSheet(ids.P1!)]);
});

test.run();
