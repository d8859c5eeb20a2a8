import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { platformWorld, registerPlatform } from '../support/lti-launch.ts';
import type { LoopbackPlatform } from '../support/lti-platform.ts';

const test = suite('REST GET|POST /api/lti/login (OIDC login initiation)');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;

platformWorld(test, (world) => {
  ({ env, people, platform } = world);
});

const TOOL = 'https://tool.example.edu';

const register = () => registerPlatform(env, people, platform);

function loginParams(extra: Record<string, string> = {}) {
  return {
    iss: platform.issuer,
    login_hint: 'user-hint-1',
    target_link_uri: `${TOOL}/api/lti/launch`,
    client_id: platform.clientId,
    lti_message_hint: 'message-hint-1',
    lti_deployment_id: platform.deploymentId,
    ...extra,
  };
}

async function states() {
  return env.orm.em.fork().execute<{ state: string; nonce: string; platform_id: number }[]>('select state, nonce, platform_id from lti_login_states');
}

test('GET answers 302 to the auth endpoint with the OIDC parameters and a stored single-use state and nonce', async () => {
  const id = await register();
  const res = await api(env, 'GET', '/api/lti/login', { query: loginParams() });
  assert.is(res.status, 302, res.text);
  const location = new URL(String(res.headers.location));
  assert.is(`${location.origin}${location.pathname}`, platform.authLoginUrl);
  const q = location.searchParams;
  assert.is(q.get('scope'), 'openid');
  assert.is(q.get('response_type'), 'id_token');
  assert.is(q.get('response_mode'), 'form_post');
  assert.is(q.get('prompt'), 'none');
  assert.is(q.get('client_id'), platform.clientId);
  assert.is(q.get('redirect_uri'), `${TOOL}/api/lti/launch`);
  assert.is(q.get('login_hint'), 'user-hint-1');
  assert.is(q.get('lti_message_hint'), 'message-hint-1');
  assert.equal(await states(), [{ state: String(q.get('state')), nonce: String(q.get('nonce')), platform_id: id }]);
  assert.ok(String(q.get('state')).length >= 32);
  assert.is.not(q.get('state'), q.get('nonce'));
});

test('POST (a form) works the same, and each login gets its own state and nonce', async () => {
  await register();
  const a = await api(env, 'POST', '/api/lti/login', { form: loginParams() });
  const b = await api(env, 'POST', '/api/lti/login', { form: loginParams() });
  assert.is(a.status, 302, a.text);
  assert.is(b.status, 302, b.text);
  const stateOf = (r: typeof a) => new URL(String(r.headers.location)).searchParams.get('state');
  assert.is.not(stateOf(a), stateOf(b));
  assert.is((await states()).length, 2);
});

test('an unknown issuer, client_id or deployment, or a missing parameter, is 400 and stores nothing', async () => {
  await register();
  const cases: [Record<string, string>, RegExp][] = [
    [loginParams({ iss: 'https://other.example.edu' }), /No LTI platform/],
    [loginParams({ client_id: 'someone-else' }), /No LTI platform/],
    [loginParams({ lti_deployment_id: 'deployment-9' }), /Unknown LTI deployment/],
    [loginParams({ target_link_uri: 'not-a-url' }), /target_link_uri/],
  ];
  for (const [query, message] of cases) {
    const res = await api(env, 'GET', '/api/lti/login', { query });
    assert.is(res.status, 400, JSON.stringify(query));
    assert.match(res.body.error, message);
  }
  const { login_hint: _, ...noHint } = loginParams();
  const missing = await api(env, 'GET', '/api/lti/login', { query: noHint });
  assert.is(missing.status, 400);
  assert.match(missing.body.error, /login_hint/);
  assert.equal(await states(), []);
});

test('with LTI_TOOL_URL set, redirect_uri is the launch URL under it (a path prefix kept), whatever target_link_uri says', async () => {
  await register();
  env.config.lti = { ...env.config.lti, toolUrl: 'https://courses.example.edu/prefix' };
  const res = await api(env, 'GET', '/api/lti/login', { query: loginParams({ target_link_uri: 'https://elsewhere.example.edu/x' }) });
  assert.is(res.status, 302, res.text);
  assert.is(new URL(String(res.headers.location)).searchParams.get('redirect_uri'), 'https://courses.example.edu/prefix/api/lti/launch');
});

test('without LTI_KEY_SECRET the login answers 503 "LTI is not configured"', async () => {
  await register();
  env.config.lti = { keySecret: undefined };
  const res = await api(env, 'GET', '/api/lti/login', { query: loginParams() });
  assert.is(res.status, 503);
  assert.equal(res.body, { error: 'LTI is not configured' });
});

test.run();
