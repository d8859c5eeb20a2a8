import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimcheckAction, SimcheckGroupAttachment, User } from '../../schema/index.ts';
import { loadConfig } from '../../src/config.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { configureSimcheck, EULA_HTML, SIMCHECK_URL, startFakeSimcheck, type FakeSimcheck } from '../support/fake-simcheck.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';
import { rawZip } from '../support/zips.ts';
import { Readable } from 'node:stream';

const test = suite('REST: similarity-check agreement, actions and group attachments');
let env: TestEnv;
let people: People;
let fake: FakeSimcheck;
let world: TaskWorld;

test.before(() => {
  fake = startFakeSimcheck();
});
test.after(() => fake.close());
freshEachTest(test, (w) => ({ env, people } = w));
test.before.each(async () => {
  fake.reset();
  configureSimcheck(env.config, true);
  world = await taskWorld(env, people, {
    uploadRequirements: [{ key: 'file0', name: 'Essay', type: 'document', tii_check: true, tii_pct: 30 }],
  });
});
test.after.each(() => configureSimcheck(env.config, false));

const DOC = Buffer.from(`PK-not-really-a-word-file ${'x'.repeat(80)}`);

async function addAction(fields: Partial<{ unit: number | null; action: string; complete: boolean; retry: boolean; updatedAt: Date }>): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(SimcheckAction, {
    action: 'upload_submission',
    unit: world.unit,
    description: 'an upload',
    params: {},
    ...fields,
  } as never) as unknown as { id: number };
  await em.flush();
  return row.id;
}

async function addAttachment(filename = 'template.docx'): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(SimcheckGroupAttachment, { taskDefinition: world.td, filename, fileSha1: 'digest', status: 'complete' } as never) as unknown as {
    id: number;
  };
  await em.flush();
  return row.id;
}

test('SIMCHECK_URL turns the checks on, and /api/settings says so', async () => {
  assert.is(loadConfig({}).simcheckEnabled, false);
  const on = loadConfig({ SIMCHECK_URL: 'https://tca.example.edu', SIMCHECK_API_KEY: 'k', SIMCHECK_WEBHOOK_SECRET: 's' });
  assert.is(on.simcheckEnabled, true);
  assert.equal(on.simcheck, { url: 'https://tca.example.edu', apiKey: 'k', webhookSecret: 's', indexSubmissions: false, timeoutMs: 30_000 });
  const res = await api(env, 'GET', '/api/settings');
  assert.equal([res.body.simcheckEnabled, res.body.tiiEnabled], [true, true]);
});

test('with checks off: the agreement is null, changes are refused with 403, and the service is never called', async () => {
  configureSimcheck(env.config, false);
  const eula = await api(env, 'GET', '/api/simcheck_eula', { as: people.student.creds });
  assert.is(eula.status, 200);
  assert.is(eula.text, 'null');
  const accept = await api(env, 'PUT', `/api/simcheck_eula/users/${people.student.user.id}/accept`, { as: people.student.creds, json: {} });
  assert.equal([accept.status, accept.body], [403, { error: 'Similarity checks are not enabled' }]);
  const id = await addAction({});
  const retry = await api(env, 'PUT', `/api/simcheck_actions/${id}`, { as: people.admin.creds, json: { action: 'retry' } });
  assert.is(retry.status, 403);
  const ga = await addAttachment();
  const base = `/api/units/${world.unit}/task_definitions/${world.td}/simcheck_group_attachments`;
  assert.is((await api(env, 'PUT', `${base}/${ga}?action=upload`, { as: people.convenor.creds })).status, 403);
  assert.is((await api(env, 'DELETE', `${base}/${ga}`, { as: people.convenor.creds })).status, 403);
  assert.is((await api(env, 'GET', base, { as: people.convenor.creds })).status, 200);
  assert.equal(fake.calls(), []);
  assert.is((await api(env, 'GET', '/api/settings')).body.simcheckEnabled, false);
});

test('GET /api/simcheck_eula answers the HTML as a JSON string, fetched once a day; the original path answers too', async () => {
  const res = await api(env, 'GET', '/api/simcheck_eula', { as: people.student.creds });
  assert.equal([res.status, res.body], [200, EULA_HTML]);
  assert.equal(fake.calls(), ['GET /eula/latest', 'GET /eula/v1beta/view?lang=en-US']);
  assert.equal(fake.requests[0].authorization, 'Bearer test-api-key');
  const again = await api(env, 'GET', '/api/tii_eula', { as: people.tutor.creds });
  assert.equal(again.body, EULA_HTML);
  assert.is(fake.requests.length, 2, 'the stored copy serves within the day');
  await travelTo(env, people, new Date(env.clock.now().getTime() + 25 * 3600_000));
  fake.state.down = 503;
  const stale = await api(env, 'GET', '/api/simcheck_eula', { as: people.admin.creds });
  assert.equal(stale.body, EULA_HTML, 'a stale copy serves while the service is away');
  assert.is(fake.requests.length, 3);
  assert.is((await api(env, 'GET', '/api/simcheck_eula')).status, 419);
});

test('GET /api/simcheck_eula is null when the service never answered', async () => {
  fake.state.down = 503;
  const res = await api(env, 'GET', '/api/simcheck_eula', { as: people.student.creds });
  assert.equal([res.status, res.text], [200, 'null']);
  const [action] = await env.orm.em.fork().find(SimcheckAction, { action: 'fetch_eula' });
  assert.equal([action.complete, action.errorCode, action.retry], [false, 'service_not_available', true]);
});

test('PUT .../accept records the acceptance for the caller only and tells the service through a job', async () => {
  const other = await api(env, 'PUT', `/api/simcheck_eula/users/${people.tutor.user.id}/accept`, { as: people.student.creds, json: {} });
  assert.equal([other.status, other.body], [403, { error: 'You are not authorised to accept the EULA on behalf of another user' }]);

  const res = await api(env, 'PUT', `/api/simcheck_eula/users/${people.student.user.id}/accept`, { as: people.student.creds, json: {} });
  assert.is(res.status, 200);
  assert.type(res.body, 'string');
  const user = await env.orm.em.fork().findOneOrFail(User, { id: people.student.user.id });
  assert.equal([user.simcheckEulaVersion, user.simcheckEulaAcceptedAt?.toISOString()], ['v1beta', env.clock.now().toISOString()]);
  const me = await api(env, 'GET', `/api/users/${people.student.user.id}`, { as: people.student.creds });
  assert.is(me.body.accepted_tii_eula, true);

  fake.reset();
  await runJobs(env);
  assert.equal(fake.calls(), ['POST /eula/v1beta/accept']);
  assert.equal(fake.requests[0].body, { user_id: 'astudent', accepted_timestamp: env.clock.now().toISOString(), language: 'en-US', version: 'v1beta' });
  const action = await env.orm.em.fork().findOneOrFail(SimcheckAction, { id: Number(res.body) });
  assert.equal([action.action, action.complete, action.errorCode], ['accept_eula', true, null]);
});

test('GET /api/simcheck_actions: Admin sees all, a convenor their unit with unit_id; others 403', async () => {
  const a1 = await addAction({ updatedAt: new Date('2026-03-01T01:00:00Z') });
  const a2 = await addAction({ action: 'upload_task_resources', updatedAt: new Date('2026-03-01T02:00:00Z') });
  await addAction({ unit: null, action: 'accept_eula' });
  const done = await addAction({ complete: true });

  const all = await api(env, 'GET', '/api/simcheck_actions', { as: people.admin.creds });
  assert.is(all.status, 200);
  assert.is(all.body.length, 3, 'complete actions are left out');
  const unit = await api(env, 'GET', '/api/simcheck_actions', { as: people.convenor.creds, query: { unit_id: world.unit } });
  assert.is(unit.status, 200);
  assert.equal(
    unit.body.map((a: { id: number }) => a.id),
    [a2, a1],
    'latest change first',
  );
  assert.equal(Object.keys(unit.body[0]).sort(), [
    'action',
    'complete',
    'description',
    'error_code',
    'error_message',
    'id',
    'last_run',
    'log',
    'retries',
    'retry',
    'type',
    'unit_id',
    'updated_at',
  ]);
  assert.equal([unit.body[0].unit_id, unit.body[0].type, unit.body[0].complete], [world.unit, 'upload_task_resources', false]);

  const page = await api(env, 'GET', '/api/tii_actions', { as: people.convenor.creds, query: { unit_id: world.unit, limit: 1, offset: 1 } });
  assert.equal(
    page.body.map((a: { id: number }) => a.id),
    [a1],
  );
  const withComplete = await api(env, 'GET', '/api/simcheck_actions', { as: people.convenor.creds, query: { unit_id: world.unit, show_complete: true } });
  assert.ok(withComplete.body.some((a: { id: number }) => a.id === done));

  for (const [who, query] of [
    [people.convenor, {}],
    [people.tutor, {}],
    [people.student, {}],
    [people.tutor, { unit_id: world.unit }],
    [people.student, { unit_id: world.unit }],
  ] as const) {
    const res = await api(env, 'GET', '/api/simcheck_actions', { as: who.creds, query });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised access similarity-check actions' }]);
  }
  assert.is((await api(env, 'GET', '/api/simcheck_actions', { as: people.admin.creds, query: { unit_id: 9999 } })).status, 404);
});

test('PUT /api/simcheck_actions/{id}: retry twice answers 200 then 403 and queues one run; Admin only', async () => {
  const id = await addAction({});
  const tutor = await api(env, 'PUT', `/api/simcheck_actions/${id}`, { as: people.convenor.creds, json: { action: 'retry' } });
  assert.is(tutor.status, 403);
  const bad = await api(env, 'PUT', `/api/simcheck_actions/${id}`, { as: people.admin.creds, json: { action: 'explode' } });
  assert.equal([bad.status, bad.body], [400, { error: 'Invalid action' }]);
  const first = await api(env, 'PUT', `/api/simcheck_actions/${id}`, { as: people.admin.creds, json: { action: 'retry' } });
  assert.is(first.status, 200);
  assert.type(first.body.message, 'string');
  const second = await api(env, 'PUT', `/api/tii_actions/${id}`, { as: people.admin.creds, json: { action: 'retry' } });
  assert.equal([second.status, second.body], [403, { error: 'Retry in progress. Please wait.' }]);
  const jobs = await env.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from graphile_worker._private_jobs where key = 'simcheck_action:${id}'`);
  assert.is(Number(jobs[0].n), 1);
  assert.is((await api(env, 'PUT', '/api/simcheck_actions/9999', { as: people.admin.creds, json: { action: 'retry' } })).status, 404);

  // Once the retry has run, another may be asked for, also of a complete action.
  await runJobs(env);
  const ran = await env.orm.em.fork().findOneOrFail(SimcheckAction, { id });
  assert.equal([ran.retry, ran.lastRun?.toISOString()], [false, env.clock.now().toISOString()]);
  const done = await addAction({ action: 'accept_eula', complete: true, params: { userId: people.student.user.id } } as never);
  assert.is((await api(env, 'PUT', `/api/simcheck_actions/${done}`, { as: people.admin.creds, json: { action: 'retry' } })).status, 200);
  await runJobs(env);
  const rerun = await env.orm.em.fork().findOneOrFail(SimcheckAction, { id: done });
  assert.equal([rerun.retry, rerun.complete, rerun.lastRun?.toISOString()], [false, true, env.clock.now().toISOString()]);
  assert.is((await api(env, 'PUT', `/api/simcheck_actions/${done}`, { as: people.admin.creds, json: { action: 'retry' } })).status, 200);
});

test('group attachments: convenor lists, uploads again (has_id, then sent by the job) and deletes; tutors and students 403', async () => {
  const em = env.orm.em.fork();
  await env.services.storage.put(
    storageKeys.taskResources(world.td),
    Readable.from([
      rawZip([
        ['template.docx', DOC],
        ['readme.txt', 'hello'],
      ]),
    ]),
  );
  const ga = await addAttachment('template.docx');
  const other = await addAttachment('notes.doc');
  const base = `/api/units/${world.unit}/task_definitions/${world.td}/simcheck_group_attachments`;

  for (const who of [people.tutor, people.student]) {
    assert.is((await api(env, 'GET', base, { as: who.creds })).status, 403);
    assert.is((await api(env, 'PUT', `${base}/${ga}`, { as: who.creds, query: { action: 'upload' } })).status, 403);
    assert.is((await api(env, 'DELETE', `${base}/${ga}`, { as: who.creds })).status, 403);
  }
  const list = await api(env, 'GET', base, { as: people.convenor.creds });
  assert.equal(list.body, [
    { id: ga, name: 'template.docx', filename: 'template.docx', group_attachment_id: null, status: 'complete' },
    { id: other, name: 'notes.doc', filename: 'notes.doc', group_attachment_id: null, status: 'complete' },
  ]);

  const bad = await api(env, 'PUT', `${base}/${ga}`, { as: people.convenor.creds, query: { action: 'download' } });
  assert.equal([bad.status, bad.body], [400, { error: 'Invalid action' }]);
  const put = await api(env, 'PUT', `${base}/${ga}`, { as: people.convenor.creds, query: { action: 'upload' } });
  assert.equal([put.status, put.body.status, put.body.id], [200, 'has_id', ga]);
  await runJobs(env);
  const groupId = (await em.fork().execute<{ g: string }[]>('select simcheck_group_id as g from task_definitions where id = ?', [world.td]))[0].g;
  assert.ok(groupId);
  assert.equal(fake.calls(), [`PUT /groups/${groupId}`, `POST /groups/${groupId}/attachments`, `PUT /groups/${groupId}/attachments/att-1/original`]);
  assert.is(fake.requests[2].bytes, DOC.length);
  assert.equal(fake.requests[1].body, { title: 'template.docx', template: false });
  const uploaded = await em.fork().findOneOrFail(SimcheckGroupAttachment, { id: ga });
  assert.equal([uploaded.status, uploaded.remoteId], ['uploaded', 'att-1']);

  fake.reset();
  const del = await api(env, 'DELETE', `${base}/${ga}`, { as: people.convenor.creds });
  assert.equal([del.status, del.text], [204, '']);
  assert.is(await em.fork().findOne(SimcheckGroupAttachment, { id: ga }), null);
  await runJobs(env);
  assert.equal(fake.calls(), [`DELETE /groups/${groupId}/attachments/att-1`]);
  assert.is((await api(env, 'DELETE', `${base}/${ga}`, { as: people.convenor.creds })).status, 404);
  assert.ok(SIMCHECK_URL);
});

test('uploading task resources registers their Word documents as group attachments (new or changed only) and queues their upload', async () => {
  const base = `/api/units/${world.unit}/task_definitions/${world.td}`;
  const upload = (entries: [string, Buffer | string][]) =>
    api(env, 'POST', `${base}/task_resources`, {
      as: people.convenor.creds,
      multipart: { file: { filename: 'resources.zip', contentType: 'application/zip', data: rawZip(entries) } },
    });
  const entries: [string, Buffer | string][] = [
    ['template.docx', DOC],
    ['tiny.doc', 'too small'],
    ['__MACOSX/._template.docx', DOC],
    ['readme.txt', 'hello'],
  ];
  assert.is((await upload(entries)).status, 200);
  const list = await api(env, 'GET', `${base}/simcheck_group_attachments`, { as: people.convenor.creds });
  assert.equal(
    list.body.map((a: { filename: string; status: string }) => [a.filename, a.status]),
    [['template.docx', 'created']],
  );
  await runJobs(env);
  assert.equal(
    fake.calls().map((c) => c.replace(/\/groups\/[^/]+/, '/groups/G')),
    ['PUT /groups/G', 'POST /groups/G/attachments', 'PUT /groups/G/attachments/att-1/original'],
  );

  fake.reset();
  assert.is((await upload(entries)).status, 200);
  await runJobs(env);
  assert.equal(fake.calls(), [], 'the same document is not sent again');
  assert.is((await upload([['template.docx', Buffer.concat([DOC, Buffer.from(' revised')])]])).status, 200);
  const after = await api(env, 'GET', `${base}/simcheck_group_attachments`, { as: people.convenor.creds });
  assert.equal(
    after.body.map((a: { status: string }) => a.status),
    ['uploaded', 'created'],
    'a changed document is a new attachment',
  );

  configureSimcheck(env.config, false);
  await env.orm.em.fork().nativeDelete(SimcheckGroupAttachment, {});
  assert.is((await upload(entries)).status, 200);
  assert.equal(
    (await api(env, 'GET', `${base}/simcheck_group_attachments`, { as: people.convenor.creds })).body,
    [],
    'nothing is registered while checks are off',
  );
});

test.run();
