import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/lti/platforms');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => {
  ({ env, people } = world);
});

const URL = '/api/lti/platforms';
const MOODLE = {
  name: 'Moodle',
  issuer: 'https://moodle.example.edu',
  client_id: 'abc123',
  auth_login_url: 'https://moodle.example.edu/mod/lti/auth.php',
  auth_token_url: 'https://moodle.example.edu/mod/lti/token.php',
  jwks_url: 'https://moodle.example.edu/mod/lti/certs.php',
  deployment_ids: ['1'],
};

async function platformCount(): Promise<number> {
  const [row] = await env.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from lti_platforms');
  return row.n;
}

async function register(body: Record<string, unknown> = MOODLE) {
  return api(env, 'POST', URL, { as: people.admin.creds, json: body });
}

test('an Admin registers, lists, reads, changes and removes a platform', async () => {
  const created = await register();
  assert.is(created.status, 201, created.text);
  const { id, ...fields } = created.body;
  assert.equal(fields, MOODLE);
  assert.equal((await api(env, 'GET', URL, { as: people.admin.creds })).body, [created.body]);
  assert.equal((await api(env, 'GET', `${URL}/${id}`, { as: people.admin.creds })).body, created.body);

  const changed = await api(env, 'PUT', `${URL}/${id}`, { as: people.admin.creds, json: { name: 'Moodle (prod)', deployment_ids: ['1', '2'] } });
  assert.is(changed.status, 200, changed.text);
  assert.equal(changed.body, { ...created.body, name: 'Moodle (prod)', deployment_ids: ['1', '2'] });
  assert.equal((await api(env, 'GET', `${URL}/${id}`, { as: people.admin.creds })).body, changed.body);

  const removed = await api(env, 'DELETE', `${URL}/${id}`, { as: people.admin.creds });
  assert.is(removed.status, 200, removed.text);
  assert.is((await api(env, 'GET', `${URL}/${id}`, { as: people.admin.creds })).status, 404);
  assert.is(await platformCount(), 0);
});

test('http is accepted only for a loopback platform (tests, same host)', async () => {
  const local = { ...MOODLE, issuer: 'http://127.0.0.1:9999', auth_login_url: 'http://localhost:9999/auth', jwks_url: 'http://127.0.0.1:9999/jwks' };
  assert.is((await register(local)).status, 201);
  const remote = await register({ ...MOODLE, client_id: 'other', jwks_url: 'http://moodle.example.edu/certs' });
  assert.is(remote.status, 400);
  assert.match(remote.body.error, /jwks_url/);
  assert.is(await platformCount(), 1);
});

test('bad input is 400 with the field named, and nothing is stored', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...MOODLE, deployment_ids: [] }, /deployment_ids/],
    [{ ...MOODLE, deployment_ids: [''] }, /deployment_ids/],
    [{ ...MOODLE, deployment_ids: 'x' }, /deployment_ids/],
    [{ ...MOODLE, auth_login_url: 'not a url' }, /auth_login_url/],
    [{ ...MOODLE, auth_token_url: 'ftp://moodle.example.edu/token' }, /auth_token_url/],
    [{ ...MOODLE, issuer: '' }, /issuer/],
    [{ ...MOODLE, name: undefined }, /name/],
    [{ ...MOODLE, client_id: 'x'.repeat(256) }, /client_id/],
  ];
  for (const [body, field] of cases) {
    const res = await register(body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.match(res.body.error, field);
  }
  assert.is(await platformCount(), 0);
});

test('a second platform with the same issuer and client_id is refused with 400, on create and on change', async () => {
  const first = await register();
  const again = await register({ ...MOODLE, name: 'Moodle again' });
  assert.is(again.status, 400);
  assert.match(again.body.error, /already registered/);
  const other = await register({ ...MOODLE, client_id: 'def456' });
  assert.is(other.status, 201);
  const clash = await api(env, 'PUT', `${URL}/${other.body.id}`, { as: people.admin.creds, json: { client_id: MOODLE.client_id } });
  assert.is(clash.status, 400);
  assert.match(clash.body.error, /already registered/);
  // Changing a platform to its own pair is no clash.
  assert.is((await api(env, 'PUT', `${URL}/${first.body.id}`, { as: people.admin.creds, json: { client_id: MOODLE.client_id } })).status, 200);
  assert.is(await platformCount(), 2);
});

test('an unknown id is 404 for GET, PUT and DELETE', async () => {
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await api(env, method, `${URL}/999`, { as: people.admin.creds, ...(method === 'PUT' && { json: { name: 'x' } }) });
    assert.is(res.status, 404, method);
    assert.ok(res.body.error, method);
  }
});

test('only an Admin manages platforms: Convenor, Tutor and Student 403, no credentials 419, nothing changes', async () => {
  const { id } = (await register()).body;
  for (const who of [people.convenor, people.tutor, people.student]) {
    const calls: [string, string, unknown?][] = [
      ['GET', URL],
      ['POST', URL, { ...MOODLE, client_id: 'new' }],
      ['GET', `${URL}/${id}`],
      ['PUT', `${URL}/${id}`, { name: 'x' }],
      ['DELETE', `${URL}/${id}`],
    ];
    for (const [method, url, json] of calls) {
      const res = await api(env, method, url, { as: who.creds, ...(json !== undefined && { json }) });
      assert.is(res.status, 403, `${who.user.username} ${method} ${url}`);
      assert.equal(res.body, { error: 'Not authorised to manage LTI' });
    }
  }
  assert.is((await api(env, 'GET', URL)).status, 419);
  assert.equal((await api(env, 'GET', `${URL}/${id}`, { as: people.admin.creds })).body.name, 'Moodle');
  assert.is(await platformCount(), 1);
});

test('without LTI_KEY_SECRET the platform routes answer 503 "LTI is not configured"', async () => {
  env.config.lti = { keySecret: undefined };
  const res = await register();
  assert.is(res.status, 503);
  assert.equal(res.body, { error: 'LTI is not configured' });
  assert.is(await platformCount(), 0);
});

test.run();
