// GET /api/units/{id}/all_resources: every task sheet and resources zip of a unit, zipped as sent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TaskDefinition } from '../../schema/index.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { FileResult } from '../../src/lib/files.ts';
import { unsafeEntryName } from '../../src/lib/zip.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { api } from '../support/http.ts';
import { samplePdf } from '../support/sample-files.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { rawZip, unzip } from '../support/zips.ts';

const test = suite('REST GET /api/units/{id}/all_resources');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

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
      name: `Task ${i}`,
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

async function put(unit: number, td: number, what: 'task_sheet' | 'task_resources' | 'task_assessment_resources', data: Buffer) {
  const res = await api(env, 'POST', `/api/units/${unit}/task_definitions/${td}/${what}`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'upload', contentType: 'application/octet-stream', data } },
  });
  assert.ok(res.status === 200 || res.status === 201, res.text);
}

const get = (unit: number | string, as: Credentials) =>
  env.app.inject({ method: 'GET', url: `/api/units/${unit}/all_resources`, headers: { Username: as.username, 'Auth-Token': as.token } });

test('everyone in the unit gets <ABBR>.pdf and <ABBR>.zip for each stored file, byte for byte, in unit page order; assessment resources never', async () => {
  const { unit, ids } = await unitWith('P1', 'C/1', 'P3', '..');
  const sheetP1 = samplePdf('P1');
  const resP1 = rawZip([['readme.txt', 'P1 resources']]);
  const sheetC1 = samplePdf('C/1');
  const sheetDots = samplePdf('dots');
  await put(unit, ids.P1!, 'task_sheet', sheetP1);
  await put(unit, ids.P1!, 'task_resources', resP1);
  await put(unit, ids.P1!, 'task_assessment_resources', rawZip([['run.sh', 'secret']]));
  await put(unit, ids['C/1']!, 'task_sheet', sheetC1);
  await put(unit, ids['..']!, 'task_sheet', sheetDots);
  for (const who of [people.student, people.tutor, people.convenor, people.admin]) {
    const res = await get(unit, who.creds);
    assert.is(res.statusCode, 200, who.creds.username);
    assert.is(res.headers['content-type'], 'application/zip');
    assert.is(res.headers['content-disposition'], 'attachment; filename=SIT101-all-resources.zip');
    const entries = await unzip(res.rawPayload);
    assert.equal([...entries.keys()], ['P1.pdf', 'P1.zip', 'C_1.pdf', '_.pdf']);
    assert.equal(entries.get('P1.pdf'), sheetP1);
    assert.equal(entries.get('P1.zip'), resP1);
    assert.equal(entries.get('C_1.pdf'), sheetC1);
    assert.equal(entries.get('_.pdf'), sheetDots);
    for (const name of entries.keys()) assert.is(unsafeEntryName(name), null);
  }
});

test('a unit without files gives an empty zip; outsiders 403, unknown units 404, bad ids 400', async () => {
  const { unit } = await unitWith('P1');
  const empty = await get(unit, people.student.creds);
  assert.is(empty.statusCode, 200);
  assert.equal((await unzip(empty.rawPayload)).size, 0);
  const outsider = await signedIn(env, 'bstudent', 'Student');
  const refused = await api(env, 'GET', `/api/units/${unit}/all_resources`, { as: outsider.creds });
  assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to download resources of unit' }]);
  assert.is((await api(env, 'GET', '/api/units/9999/all_resources', { as: people.admin.creds })).status, 404);
  assert.is((await api(env, 'GET', '/api/units/abc/all_resources', { as: people.admin.creds })).status, 400);
  assert.is((await api(env, 'GET', `/api/units/${unit}/all_resources`)).status, 419);
});

test('tRPC: the answer is a stream built as it is read (no size, never a buffer), and it holds the files', async () => {
  const { unit, ids } = await unitWith('P1', 'P2');
  const big = rawZip([['big.bin', Buffer.alloc(3_000_000, 7)]]);
  await put(unit, ids.P1!, 'task_resources', big);
  await put(unit, ids.P2!, 'task_sheet', samplePdf('P2'));
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.student.creds));
  const file = (await caller.units.allResources({ id: unit })) as FileResult;
  assert.not.ok(Buffer.isBuffer(file.data));
  assert.is(file.size, undefined);
  const chunks: Buffer[] = [];
  for await (const chunk of file.data as AsyncIterable<Buffer>) chunks.push(chunk);
  assert.ok(chunks.length > 1, 'sent in pieces');
  const entries = await unzip(Buffer.concat(chunks));
  assert.equal([...entries.keys()], ['P1.zip', 'P2.pdf']);
  assert.equal(entries.get('P1.zip'), big);
});

test.run();
