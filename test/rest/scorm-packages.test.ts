// A task definition's online-test settings and SCORM package (docs/online-tests.md): create and
// update, the JSON, the project's tasks, the CSV, rollover, and POST/GET/DELETE .../scorm_data.
import { suite } from 'uvu';
import { randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';
import { Task, TaskDefinition } from '../../schema/index.ts';
import { fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { api, type Credentials } from '../support/http.ts';
import { manifest12, manifest2004, scormPackage } from '../support/scorm-packages.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { rawZip } from '../support/zips.ts';
import { zipToBuffer } from '../../src/lib/zip.ts';

const test = suite('REST SCORM packages and settings on task definitions');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function unitWithDefinition(code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const em = env.orm.em.fork();
  const td = em.create(TaskDefinition, {
    unit,
    name: 'Quiz 1',
    abbreviation: 'Q1',
    description: '',
    startDate: '2026-03-02',
    targetDate: '2026-03-13',
    plagiarismChecks: [],
    uploadRequirements: [],
  });
  await em.flush();
  return { unit, td: td.id, project };
}

const dataUrl = (unit: number, td: number) => `/api/units/${unit}/task_definitions/${td}/scorm_data`;
const upload = (unit: number, td: number, data: Buffer, as: Credentials = people.convenor.creds) =>
  api(env, 'POST', dataUrl(unit, td), { as, multipart: { file: { filename: 'quiz.zip', contentType: 'application/zip', data } } });
const definition = async (unit: number, as: Credentials = people.convenor.creds) =>
  (await api(env, 'GET', `/api/units/${unit}`, { as })).body.task_definitions[0];
const row = (td: number) => env.orm.em.fork().findOneOrFail(TaskDefinition, { id: td });
const storedPackage = (td: number) => env.services.storage.exists(storageKeys.scormPackage(td));

const STUDENT_FIELDS = ['scorm_enabled', 'has_scorm_data', 'scorm_allow_review', 'scorm_bypass_test', 'scorm_time_delay_enabled', 'scorm_attempt_limit'];
const STAFF_FIELDS = ['scorm_trust', 'scorm_pass_status', 'scorm_version', 'scorm_launch_file'];

test('settings: defaults, set on update (form keys and JSON), shown to students except the staff-only ones', async () => {
  const { unit, td } = await unitWithDefinition();
  const before = await definition(unit);
  assert.equal(Object.fromEntries([...STUDENT_FIELDS, ...STAFF_FIELDS].map((k) => [k, before[k]])), {
    scorm_enabled: false,
    has_scorm_data: false,
    scorm_allow_review: false,
    scorm_bypass_test: false,
    scorm_time_delay_enabled: false,
    scorm_attempt_limit: 0,
    scorm_trust: 'package',
    scorm_pass_status: null,
    scorm_version: null,
    scorm_launch_file: null,
  });
  const form = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    form: { task_def: { scorm_enabled: 'true', scorm_allow_review: 'true', scorm_attempt_limit: '3', scorm_trust: 'staff', scorm_pass_status: 'complete' } },
  });
  assert.is(form.status, 200);
  assert.equal(
    [form.body.scorm_enabled, form.body.scorm_allow_review, form.body.scorm_attempt_limit, form.body.scorm_trust, form.body.scorm_pass_status],
    [true, true, 3, 'staff', 'complete'],
  );
  const json = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    json: { task_def: { scorm_bypass_test: true, scorm_time_delay_enabled: true, scorm_pass_status: '' } },
  });
  assert.equal(
    [json.status, json.body.scorm_bypass_test, json.body.scorm_time_delay_enabled, json.body.scorm_pass_status, json.body.scorm_attempt_limit],
    [200, true, true, null, 3],
  );
  const seen = await definition(unit, people.student.creds);
  for (const k of STUDENT_FIELDS) assert.ok(k in seen, k);
  for (const k of STAFF_FIELDS) assert.not.ok(k in seen, k);
  assert.equal([seen.scorm_enabled, seen.scorm_attempt_limit], [true, 3]);
  const staff = await definition(unit, people.tutor.creds);
  for (const k of STAFF_FIELDS) assert.ok(k in staff, k);
});

test('settings: create takes them; bad values are a 400 naming the field and change nothing', async () => {
  const { unit, td } = await unitWithDefinition();
  const base = { name: 'Quiz 2', abbreviation: 'Q2', description: '', weighting: 1, target_grade: 0, start_date: '2026-03-02', target_date: '2026-03-20' };
  const common = {
    restrict_status_updates: false,
    upload_requirements: '[]',
    plagiarism_checks: '[]',
    plagiarism_warn_pct: 50,
    is_graded: false,
    max_quality_pts: 0,
  };
  const made = await api(env, 'POST', `/api/units/${unit}/task_definitions`, {
    as: people.convenor.creds,
    json: { task_def: { ...base, ...common, scorm_enabled: true, scorm_attempt_limit: 2, scorm_trust: 'staff' } },
  });
  assert.is(made.status, 201, made.text);
  assert.equal([made.body.scorm_enabled, made.body.scorm_attempt_limit, made.body.scorm_trust, made.body.has_scorm_data], [true, 2, 'staff', false]);
  for (const [field, value, words] of [
    ['scorm_attempt_limit', -1, 'scorm_attempt_limit'],
    ['scorm_attempt_limit', 'many', 'scorm_attempt_limit'],
    ['scorm_trust', 'student', 'package, staff'],
    ['scorm_pass_status', 'passed', 'scorm_pass_status'],
    ['scorm_enabled', 'perhaps', 'scorm_enabled'],
  ] as const) {
    const res = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, { as: people.convenor.creds, json: { task_def: { [field]: value } } });
    assert.is(res.status, 400, `${field}=${value}`);
    assert.match(res.body.error, words, res.body.error);
  }
  const after = await row(td);
  assert.equal([after.scormAttemptLimit, after.scormTrust, after.scormPassStatus, after.scormEnabled], [0, 'package', null, false]);
  const tutor = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, { as: people.tutor.creds, json: { task_def: { scorm_enabled: true } } });
  assert.is(tutor.status, 403);
});

test("each of the project's tasks carries scorm_extensions", async () => {
  const { td, project } = await unitWithDefinition();
  const em = env.orm.em.fork();
  em.create(Task, { project, taskDefinition: td, scormExtensions: 2 });
  await em.flush();
  const res = await api(env, 'GET', `/api/projects/${project}`, { as: people.student.creds });
  assert.is(res.status, 200, res.text);
  const task = res.body.tasks.find((t: { task_definition_id: number }) => t.task_definition_id === td);
  assert.is(task.scorm_extensions, 2);
});

test('upload (convenor, admin): the version and launch file are recorded; download at .../scorm_data and .../scorm_data.json?as_attachment=true', async () => {
  const { unit, td } = await unitWithDefinition();
  const zip = await scormPackage({ 'content/start.html': '<html><head></head></html>' }, manifest2004('content/start.html?lang=en'));
  const res = await upload(unit, td, zip);
  assert.equal([res.status, res.body], [201, true], res.text);
  assert.ok(await storedPackage(td));
  const d = await definition(unit);
  assert.equal([d.has_scorm_data, d.scorm_version, d.scorm_launch_file], [true, '2004', 'content/start.html?lang=en']);
  assert.is((await row(td)).scormPackageBytes, zip.length);
  assert.is((await definition(unit, people.student.creds)).has_scorm_data, true);

  for (const who of [people.student, people.tutor, people.convenor]) {
    for (const path of [dataUrl(unit, td), `${dataUrl(unit, td)}.json?as_attachment=true`]) {
      const got = await env.app.inject({ method: 'GET', url: path, headers: { Username: who.creds.username, 'Auth-Token': who.creds.token } });
      assert.equal(
        [got.statusCode, got.headers['content-type'], got.headers['content-disposition']],
        [200, 'application/zip', 'attachment; filename=Q1-scorm.zip'],
        path,
      );
      assert.equal(got.rawPayload, zip);
    }
  }
  // A 1.2 package replaces it, and the record follows.
  assert.is((await upload(unit, td, await scormPackage({}, manifest12('index.html')), people.admin.creds)).status, 201);
  assert.equal([(await definition(unit)).scorm_version, (await definition(unit)).scorm_launch_file], ['1.2', 'index.html']);
});

test('upload refusals: each a 400 saying what is wrong, nothing stored or recorded', async () => {
  const { unit, td } = await unitWithDefinition();
  const cases: [string, Buffer, string][] = [
    ['not a zip', Buffer.from('%PDF-1.4 hello'), 'not a zip file'],
    ['no manifest', await zipToBuffer([{ name: 'index.html', data: Buffer.from('<html/>') }]), 'no imsmanifest.xml at its root'],
    ['manifest in a folder', await zipToBuffer([{ name: 'quiz/imsmanifest.xml', data: Buffer.from(manifest2004()) }]), 'no imsmanifest.xml at its root'],
    ['manifest not XML', await scormPackage({}, '<manifest><organizations>'), 'not well-formed XML'],
    ['no SCO', await scormPackage({}, '<manifest xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"><resources/></manifest>'), 'no launchable SCO'],
    ['launch file missing', await scormPackage({}, manifest2004('missing.html')), 'launch file "missing.html"'],
    ['launch outside', await scormPackage({}, manifest2004('../up.html')), 'not a file inside the package'],
    [
      'unsafe entry path',
      rawZip([
        ['imsmanifest.xml', manifest2004()],
        ['index.html', '<html/>'],
        ['../../evil.js', 'x'],
      ]),
      'unsafe entry path "../../evil.js"',
    ],
    [
      'too large when unpacked',
      rawZip(
        [
          ['imsmanifest.xml', manifest2004()],
          ['index.html', '<html/>'],
          ['bomb.bin', 'small'],
        ],
        { deflate: true, declaredSize: (name, size) => (name === 'bomb.bin' ? 0xfffffff0 : size) },
      ),
      'too large when unpacked',
    ],
  ];
  for (const [label, data, words] of cases) {
    const res = await upload(unit, td, data);
    assert.is(res.status, 400, `${label}: ${res.text}`);
    assert.match(res.body.error, words, `${label}: ${res.body.error}`);
  }
  assert.not.ok(await storedPackage(td));
  assert.equal([(await row(td)).scormVersion, (await definition(unit)).has_scorm_data], [null, false]);
  const missingFile = await api(env, 'POST', dataUrl(unit, td), { as: people.convenor.creds, multipart: { other: 'x' } });
  assert.is(missingFile.status, 400);
});

test('upload over SCORM_PACKAGE_MAX_BYTES: 413', async () => {
  const { unit, td } = await unitWithDefinition();
  // The multipart reader's cap is read from the setting at start-up; the operation checks it again.
  const config = env.services.config;
  const cap = config.scormPackage.maxBytes;
  config.scormPackage.maxBytes = 2000;
  try {
    const res = await upload(unit, td, await scormPackage({ 'big.bin': randomBytes(5000) }));
    assert.equal([res.status, res.body], [413, { error: 'The SCORM package is larger than 2000 bytes.' }], res.text);
  } finally {
    config.scormPackage.maxBytes = cap;
  }
  assert.not.ok(await storedPackage(td));
});

test('delete: removes the package and resets the settings; tutors and students may neither upload nor delete; an outsider may not download', async () => {
  const { unit, td } = await unitWithDefinition();
  assert.is((await upload(unit, td, await scormPackage())).status, 201);
  await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    json: {
      task_def: {
        scorm_enabled: true,
        scorm_allow_review: true,
        scorm_bypass_test: true,
        scorm_time_delay_enabled: true,
        scorm_attempt_limit: 4,
        scorm_pass_status: 'complete',
      },
    },
  });
  for (const who of [people.tutor, people.student]) {
    const up = await upload(unit, td, await scormPackage(), who.creds);
    assert.equal([up.status, up.body], [403, { error: 'Not authorised to upload SCORM data for the unit' }], who.creds.username);
    const del = await api(env, 'DELETE', dataUrl(unit, td), { as: who.creds });
    assert.equal([del.status, del.body], [403, { error: 'Not authorised to remove task SCORM data of unit' }], who.creds.username);
  }
  const outsider = await signedIn(env, 'outsider', 'Student');
  const refused = await api(env, 'GET', dataUrl(unit, td), { as: outsider.creds });
  assert.is(refused.status, 403);
  assert.ok(await storedPackage(td));

  const removed = await api(env, 'DELETE', dataUrl(unit, td), { as: people.convenor.creds });
  assert.equal([removed.status, removed.body], [200, true]);
  assert.not.ok(await storedPackage(td));
  const d = await definition(unit);
  assert.equal(
    [
      d.has_scorm_data,
      d.scorm_enabled,
      d.scorm_allow_review,
      d.scorm_bypass_test,
      d.scorm_time_delay_enabled,
      d.scorm_attempt_limit,
      d.scorm_pass_status,
      d.scorm_version,
      d.scorm_launch_file,
    ],
    [false, false, false, false, false, 0, null, null, null],
  );
  const missing = await env.app.inject({
    method: 'GET',
    url: dataUrl(unit, td),
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
  });
  assert.equal([missing.statusCode, missing.headers['content-disposition']], [200, 'attachment; filename=FileNotFound.pdf']);
  assert.equal(missing.rawPayload, fileNotFoundPdf());
  assert.equal((await api(env, 'DELETE', dataUrl(unit, td), { as: people.admin.creds })).status, 200);
  assert.is(
    (
      await api(env, 'POST', `${dataUrl(unit, 999999).replace('/999999/', '/999999/')}`, {
        as: people.convenor.creds,
        multipart: { file: { filename: 'q.zip', contentType: 'application/zip', data: await scormPackage() } },
      })
    ).status,
    404,
  );
});

test('CSV: the settings are exported in their columns and imported back; files without the columns still import', async () => {
  const { unit, td } = await unitWithDefinition();
  await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    json: { task_def: { scorm_enabled: true, scorm_bypass_test: true, scorm_attempt_limit: 5, scorm_trust: 'staff', scorm_pass_status: 'ready_for_feedback' } },
  });
  const csv = await api(env, 'GET', `/api/csv/task_definitions`, { as: people.convenor.creds, query: { unit_id: unit } });
  assert.is(csv.status, 200, csv.text);
  const [header, line] = csv.text.trim().split(/\r?\n/);
  const cols = header!.split(',');
  for (const c of [
    'scorm_enabled',
    'scorm_allow_review',
    'scorm_bypass_test',
    'scorm_time_delay_enabled',
    'scorm_attempt_limit',
    'scorm_trust',
    'scorm_pass_status',
  ]) {
    assert.ok(cols.includes(c), c);
  }
  // The original's order: the five settings between plagiarism_warn_pct's neighbours and group_set.
  assert.ok(cols.indexOf('scorm_attempt_limit') === cols.indexOf('group_set') - 1);
  const values = line!.split(',');
  const at = (c: string) => values[cols.indexOf(c)];
  assert.equal(
    [at('scorm_enabled'), at('scorm_bypass_test'), at('scorm_attempt_limit'), at('scorm_trust'), at('scorm_pass_status')],
    ['true', 'true', '5', 'staff', 'ready_for_feedback'],
  );

  const importCsv = (text: string) =>
    api(env, 'POST', '/api/csv/task_definitions', {
      as: people.convenor.creds,
      multipart: { unit_id: String(unit), file: { filename: 'defs.csv', contentType: 'text/csv', data: Buffer.from(text) } },
    });
  const changed = csv.text.replace(',true,false,true,false,5,', ',false,true,false,true,7,').replace(',staff,ready_for_feedback', ',package,');
  const res = await importCsv(changed);
  assert.is(res.status, 201, res.text);
  assert.equal([res.body.errors, res.body.success.length], [[], 1]);
  const after = await row(td);
  assert.equal(
    [
      after.scormEnabled,
      after.scormAllowReview,
      after.scormBypassTest,
      after.scormTimeDelayEnabled,
      after.scormAttemptLimit,
      after.scormTrust,
      after.scormPassStatus,
    ],
    [false, true, false, true, 7, 'package', null],
  );
  // Without the online-test columns (a file from before them): imported, the settings unchanged.
  const keep = cols.map((c, i) => (c.startsWith('scorm_') ? -1 : i)).filter((i) => i >= 0);
  const old = changed
    .trim()
    .split(/\r?\n/)
    .map((l) =>
      l
        .split(',')
        .filter((_, i) => keep.includes(i))
        .join(','),
    )
    .join('\n');
  const oldRes = await importCsv(`${old}\n`);
  assert.equal([oldRes.status, oldRes.body.errors], [201, []], oldRes.text);
  assert.is((await row(td)).scormAttemptLimit, 7);
  const bad = await importCsv(changed.replace(',package,', ',everyone,'));
  assert.equal(bad.body.success, []);
  assert.match(bad.body.errors[0].message, 'scorm_trust must be one of package, staff');
});

test('rollover copies the settings and the stored package with its recorded version and launch file', async () => {
  const { unit, td } = await unitWithDefinition();
  assert.is((await upload(unit, td, await scormPackage({}, manifest2004('index.html?x=1')))).status, 201);
  await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    json: { task_def: { scorm_enabled: true, scorm_allow_review: true, scorm_attempt_limit: 2, scorm_trust: 'staff', scorm_pass_status: 'complete' } },
  });
  const rolled = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { start_date: '2026-07-06', end_date: '2026-10-16' } });
  assert.is(rolled.status, 201, rolled.text);
  const copy = (await api(env, 'GET', `/api/units/${rolled.body.id}`, { as: people.admin.creds })).body.task_definitions[0];
  assert.equal(
    [
      copy.scorm_enabled,
      copy.scorm_allow_review,
      copy.scorm_attempt_limit,
      copy.scorm_trust,
      copy.scorm_pass_status,
      copy.has_scorm_data,
      copy.scorm_version,
      copy.scorm_launch_file,
    ],
    [true, true, 2, 'staff', 'complete', true, '2004', 'index.html?x=1'],
  );
  assert.ok(await storedPackage(copy.id));
  const original = await env.services.storage.open(storageKeys.scormPackage(td));
  const copied = await env.services.storage.open(storageKeys.scormPackage(copy.id));
  assert.is(copied!.size, original!.size);
  original!.stream.destroy();
  copied!.stream.destroy();
});

test.run();
