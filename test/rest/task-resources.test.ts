// GET/POST/DELETE .../task_definitions/{task_def_id}/task_resources and .../task_assessment_resources.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskDefinition } from '../../schema/index.ts';
import { fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { appRouter } from '../../src/routers/index.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { FileResult, StoredBytes } from '../../src/lib/files.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { api } from '../support/http.ts';
import { samplePdf, sampleZip } from '../support/sample-files.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { rawZip } from '../support/zips.ts';

const test = suite('REST task resources and assessment resources (zips)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const at = (day: string) => new Date(`${day}T00:00:00.000Z`);

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

type Kind = 'task_resources' | 'task_assessment_resources';
const url = (kind: Kind, unit: number | string, td: number | string) => `/api/units/${unit}/task_definitions/${td}/${kind}`;
const upload = (kind: Kind, unit: number, td: number, data: Buffer, as: Credentials = people.convenor.creds, filename = 'resources.zip') =>
  api(env, 'POST', url(kind, unit, td), { as, multipart: { file: { filename, contentType: 'application/zip', data } } });
const download = (kind: Kind, unit: number, td: number, as: Credentials) =>
  env.app.inject({ method: 'GET', url: url(kind, unit, td), headers: { Username: as.username, 'Auth-Token': as.token } });

/** Every stored file, relative to STORAGE_ROOT (temporary files included). */
function stored(dir = env.config.storageRoot, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? stored(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}
const incoming = () => (existsSync(join(env.config.dataDir, 'incoming')) ? readdirSync(join(env.config.dataDir, 'incoming')) : []);

async function flags(unit: number, as: Credentials) {
  const [d] = (await api(env, 'GET', `/api/units/${unit}`, { as })).body.task_definitions;
  return [d.has_task_resources, d.has_task_assessment_resources];
}

test('task resources: the convenor uploads a zip (200 true); everyone in the unit downloads it byte for byte; replace, then remove (204)', async () => {
  const { unit, td } = await unitWithDefinition();
  assert.equal(await flags(unit, people.convenor.creds), [false, false]);
  const zip = sampleZip();
  const res = await upload('task_resources', unit, td, zip);
  assert.equal([res.status, res.body], [200, true]);
  assert.equal(stored(), [`task_definitions/${td}/resources.zip`]);
  assert.equal(readFileSync(join(env.config.storageRoot, storageKeys.taskResources(td))), zip);
  assert.equal(await flags(unit, people.convenor.creds), [true, false]);
  assert.equal(await flags(unit, people.student.creds), [true, undefined]);

  for (const who of [people.student, people.tutor, people.convenor, people.admin]) {
    const got = await download('task_resources', unit, td, who.creds);
    assert.is(got.statusCode, 200, who.creds.username);
    assert.is(got.headers['content-type'], 'application/zip');
    assert.is(got.headers['content-length'], String(zip.length));
    assert.is(got.headers['content-disposition'], 'attachment; filename=P1-resources.zip');
    assert.equal(got.rawPayload, zip);
  }
  // The web client's `.json` suffix reaches the same download.
  const json = await env.app.inject({
    method: 'GET',
    url: `${url('task_resources', unit, td)}.json`,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
  });
  assert.equal(json.rawPayload, zip);

  const other = rawZip([['new.txt', 'newer resources']]);
  assert.is((await upload('task_resources', unit, td, other, people.admin.creds)).status, 200);
  assert.equal((await download('task_resources', unit, td, people.student.creds)).rawPayload, other);

  const removed = await api(env, 'DELETE', url('task_resources', unit, td), { as: people.convenor.creds });
  assert.equal([removed.status, removed.text], [204, '']);
  assert.equal(stored(), []);
  assert.equal(await flags(unit, people.convenor.creds), [false, false]);
  const missing = await download('task_resources', unit, td, people.student.creds);
  assert.equal(
    [missing.statusCode, missing.headers['content-type'], missing.headers['content-disposition']],
    [200, 'application/pdf', 'attachment; filename=FileNotFound.pdf'],
  );
  assert.equal(missing.rawPayload, fileNotFoundPdf());
  assert.is((await api(env, 'DELETE', url('task_resources', unit, td), { as: people.convenor.creds })).status, 204);
});

test('assessment resources: 201 true, staff-only flag and download for the convenor and admin; tutors and students refused; removed with 204', async () => {
  const { unit, td } = await unitWithDefinition();
  const zip = rawZip([
    ['build.sh', '#!/bin/sh\necho build\n'],
    ['run.sh', '#!/bin/sh\necho run\n'],
  ]);
  const res = await upload('task_assessment_resources', unit, td, zip);
  assert.equal([res.status, res.body], [201, true]);
  assert.equal(stored(), [`task_definitions/${td}/assessment_resources.zip`]);
  assert.equal(await flags(unit, people.convenor.creds), [false, true]);
  assert.equal(await flags(unit, people.tutor.creds), [false, true]);
  assert.equal(await flags(unit, people.student.creds), [false, undefined]);
  for (const who of [people.convenor, people.admin]) {
    const got = await download('task_assessment_resources', unit, td, who.creds);
    assert.equal(
      [got.statusCode, got.headers['content-type'], got.headers['content-disposition']],
      [200, 'application/zip', 'attachment; filename=P1-assessment-resources.zip'],
    );
    assert.equal(got.rawPayload, zip);
  }
  for (const who of [people.tutor, people.student]) {
    const got = await api(env, 'GET', url('task_assessment_resources', unit, td), { as: who.creds });
    assert.equal([got.status, got.body], [403, { error: 'Not authorised to download task assessment resources of unit' }], who.creds.username);
  }
  const removed = await api(env, 'DELETE', url('task_assessment_resources', unit, td), { as: people.admin.creds });
  assert.is(removed.status, 204);
  assert.equal(stored(), []);
  const missing = await download('task_assessment_resources', unit, td, people.convenor.creds);
  assert.equal([missing.statusCode, missing.headers['content-type']], [200, 'application/pdf']);
});

test('refused roles get 403 with the message and change nothing; unknown or foreign ids 404; missing file or bad ids 400', async () => {
  const { unit, td } = await unitWithDefinition();
  const other = await unitWithDefinition('SIT102');
  const zip = sampleZip();
  await upload('task_resources', unit, td, zip);
  await upload('task_assessment_resources', unit, td, zip);
  const before = stored();
  for (const who of [people.tutor, people.student]) {
    for (const kind of ['task_resources', 'task_assessment_resources'] as const) {
      const up = await upload(kind, unit, td, rawZip([['x.txt', 'x']]), who.creds);
      assert.equal([up.status, up.body], [403, { error: 'Not authorised to upload tasks of unit' }], `${kind} ${who.creds.username}`);
      const del = await api(env, 'DELETE', url(kind, unit, td), { as: who.creds });
      const message =
        kind === 'task_resources' ? 'Not authorised to remove task resources of unit' : 'Not authorised to remove task assessment resources of unit';
      assert.equal([del.status, del.body], [403, { error: message }]);
    }
  }
  // A student of no unit here may not download the resources.
  const outsider = await signedIn(env, 'bstudent', 'Student');
  const refused = await api(env, 'GET', url('task_resources', unit, td), { as: outsider.creds });
  assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to download task details of unit' }]);
  assert.equal(stored(), before);
  assert.equal(readFileSync(join(env.config.storageRoot, storageKeys.taskResources(td))), zip);

  for (const kind of ['task_resources', 'task_assessment_resources'] as const) {
    for (const [u, d] of [
      [9999, td],
      [unit, 9999],
      [unit, other.td],
    ] as const) {
      assert.is((await upload(kind, u, d, zip, people.admin.creds)).status, 404, `${kind} POST ${u}/${d}`);
      assert.is((await api(env, 'GET', url(kind, u, d), { as: people.admin.creds })).status, 404, `${kind} GET ${u}/${d}`);
      assert.is((await api(env, 'DELETE', url(kind, u, d), { as: people.admin.creds })).status, 404, `${kind} DELETE ${u}/${d}`);
    }
    const noFile = await api(env, 'POST', url(kind, unit, td), { as: people.convenor.creds, multipart: { note: 'x' } });
    assert.equal([noFile.status, noFile.body], [400, { error: 'file is missing' }]);
    const badId = await api(env, 'GET', url(kind, unit, 'abc'), { as: people.convenor.creds });
    assert.is(badId.status, 400);
  }
  assert.equal(stored(), before);
  assert.equal(incoming(), []);
});

test('wrong content: a PDF, text, a cut-off zip and a zip with ../ or absolute entry names are refused with 403; nothing stored or replaced', async () => {
  const { unit, td } = await unitWithDefinition();
  const zip = sampleZip();
  const good = rawZip([['ok.txt', 'fine']]);
  const cases: [Buffer, string][] = [
    [samplePdf('not a zip'), 'File given is not a zip file - detected application/pdf'],
    [Buffer.from('just some text, named resources.zip\n'), 'File given is not a zip file - detected text/plain'],
    [
      rawZip([
        ['ok.txt', 'fine'],
        ['../evil.sh', 'rm -rf ~'],
      ]),
      'File given is not a usable zip file - it holds an unsafe entry name "../evil.sh" (climbs out of its folder)',
    ],
    [rawZip([['/etc/cron.d/evil', 'x']]), 'File given is not a usable zip file - it holds an unsafe entry name "/etc/cron.d/evil" (absolute path)'],
    [rawZip([['C:\\Windows\\evil.bat', 'x']]), 'File given is not a usable zip file - it holds an unsafe entry name "C:/Windows/evil.bat" (absolute path)'],
  ];
  for (const kind of ['task_resources', 'task_assessment_resources'] as const) {
    for (const [data, error] of cases) {
      const res = await upload(kind, unit, td, data);
      assert.equal([res.status, res.body], [403, { error }], `${kind}: ${error}`);
    }
    const cut = await upload(kind, unit, td, good.subarray(0, good.length - 6));
    assert.is(cut.status, 403, `${kind}: cut off`);
  }
  assert.equal(stored(), []);
  // A refused upload leaves the zip already there as it was.
  await upload('task_resources', unit, td, zip);
  assert.is((await upload('task_resources', unit, td, cases[2][0])).status, 403);
  assert.equal(readFileSync(join(env.config.storageRoot, storageKeys.taskResources(td))), zip);
  assert.equal(stored(), [`task_definitions/${td}/resources.zip`]);
  assert.equal(incoming(), []);
});

test('a zip over MAX_UPLOAD_BYTES is 413 and nothing is kept', async () => {
  const { unit, td } = await unitWithDefinition();
  const big = rawZip([['big.bin', Buffer.alloc(env.config.maxUploadBytes + 1)]]);
  const res = await upload('task_resources', unit, td, big);
  assert.is(res.status, 413);
  assert.equal(stored(), []);
  assert.equal(incoming(), []);
});

test('rollover copies the task resources to the new definition, not the assessment resources', async () => {
  const t1 = await seedPeriod(env, { period: 'T1', startDate: at('2026-03-02'), endDate: at('2026-06-12'), activeUntil: at('2026-07-01') });
  const t2 = await seedPeriod(env, { period: 'T2', startDate: at('2026-07-13'), endDate: at('2026-10-23'), activeUntil: at('2026-11-01') });
  const { unit, td } = await unitWithDefinition('SIT101', t1);
  const zip = sampleZip();
  await upload('task_resources', unit, td, zip);
  await upload('task_assessment_resources', unit, td, rawZip([['run.sh', 'x']]));
  const res = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.convenor.creds, json: { teaching_period_id: t2 } });
  assert.is(res.status, 201, res.text);
  const [copy] = res.body.task_definitions;
  assert.equal([copy.has_task_resources, copy.has_task_assessment_resources], [true, false]);
  assert.equal((await download('task_resources', res.body.id, copy.id, people.convenor.creds)).rawPayload, zip);
});

test('tRPC: the resources download is the stored zip, opened as it is sent, with its size', async () => {
  const { unit, td } = await unitWithDefinition();
  const zip = sampleZip();
  await upload('task_resources', unit, td, zip);
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.student.creds));
  const file = (await caller.units.taskDefinitions.taskResources({ unit_id: unit, task_def_id: td })) as FileResult;
  assert.equal([file.filename, file.contentType, file.size, file.asAttachment], ['P1-resources.zip', 'application/zip', zip.length, true]);
  const chunks: Buffer[] = [];
  const opened = await (file.data as StoredBytes).open();
  for await (const chunk of opened!.stream as AsyncIterable<Buffer>) chunks.push(chunk);
  assert.equal(Buffer.concat(chunks), zip);
});

test.run();
