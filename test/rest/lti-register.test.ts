import { createServer } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { PASSWORD, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { platformWorld } from '../support/lti-launch.ts';
import type { LoopbackPlatform } from '../support/lti-platform.ts';

const test = suite('REST GET|POST /api/lti/register (LTI Dynamic Registration)');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;

const TOOL = 'https://courses.example.edu';
const HTML = { accept: 'text/html' };

platformWorld(test, (world) => {
  ({ env, people, platform } = world);
  env.config.lti = { ...env.config.lti, toolUrl: TOOL };
  platform.registrations.length = 0;
  for (const key of Object.keys(platform.configurationOverrides)) delete platform.configurationOverrides[key];
});

const start = () => ({ openid_configuration: platform.openidConfigurationUrl, registration_token: platform.registrationToken });

function confirm(extra: Record<string, string> = {}) {
  return api(env, 'POST', '/api/lti/register', { headers: HTML, form: { ...start(), username: 'aadmin', password: PASSWORD, ...extra } });
}

async function stored() {
  return env.orm.em
    .fork()
    .execute<{ name: string; issuer: string; client_id: string; auth_login_url: string; auth_token_url: string; jwks_url: string; deployment_ids: string[] }[]>(
      'select name, issuer, client_id, auth_login_url, auth_token_url, jwks_url, deployment_ids from lti_platforms',
    );
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('GET shows a page asking an Admin to confirm, posting the LMS parameters back to the tool', async () => {
  const res = await api(env, 'GET', '/api/lti/register', { headers: HTML, query: start() });
  assert.is(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.ok(res.text.includes(`action="${TOOL}/api/lti/register"`), res.text);
  assert.ok(res.text.includes(`name="openid_configuration" value="${platform.openidConfigurationUrl}"`));
  assert.ok(res.text.includes(`name="registration_token" value="${platform.registrationToken}"`));
  assert.ok(res.text.includes('type="password"'));
  assert.equal(await stored(), []);
});

test("confirmed by an Admin: the tool registers with the platform's registration endpoint and stores the platform it answered", async () => {
  const res = await confirm();
  assert.is(res.status, 200, res.text);
  assert.ok(res.text.includes("postMessage({ subject: 'org.imsglobal.lti.close' }, '*')"), res.text);

  assert.is(platform.registrations.length, 1);
  const [sent] = platform.registrations;
  assert.is(sent.authorization, `Bearer ${platform.registrationToken}`);
  const body = sent.body;
  assert.is(body.client_name, env.config.externalName);
  assert.is(body.initiate_login_uri, `${TOOL}/api/lti/login`);
  assert.equal(body.redirect_uris, [`${TOOL}/api/lti/launch`]);
  assert.is(body.jwks_uri, `${TOOL}/api/lti/jwks`);
  assert.is(body.token_endpoint_auth_method, 'private_key_jwt');
  assert.equal(body.grant_types, ['implicit', 'client_credentials']);
  assert.equal(body.response_types, ['id_token']);
  const scopes = String(body.scope).split(' ');
  for (const scope of [
    'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
    'https://purl.imsglobal.org/spec/lti-ags/scope/score',
    'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
  ]) {
    assert.ok(scopes.includes(scope), scope);
  }
  const tool = body['https://purl.imsglobal.org/spec/lti-tool-configuration'] as Record<string, unknown>;
  assert.is(tool.domain, 'courses.example.edu');
  assert.is(tool.target_link_uri, `${TOOL}/api/lti/launch`);
  assert.ok((tool.claims as string[]).includes('sub'));
  assert.equal(
    (tool.messages as { type: string }[]).map((m) => m.type),
    ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'],
  );

  assert.equal(await stored(), [
    {
      name: `loopback (${new URL(platform.issuer).host})`,
      issuer: platform.issuer,
      client_id: sent.clientId,
      auth_login_url: platform.authLoginUrl,
      auth_token_url: platform.authTokenUrl,
      jwks_url: platform.jwksUrl,
      deployment_ids: [sent.deploymentId],
    },
  ]);
  // The Admin sees it among the platforms as if registered by hand.
  const listed = await api(env, 'GET', '/api/lti/platforms', { as: people.admin.creds });
  assert.equal(
    listed.body.map((p: { client_id: string }) => p.client_id),
    [sent.clientId],
  );
});

test('wrong credentials are 401 (and counted by the sign-in throttle); a non-Admin is 403; nothing is registered or stored', async () => {
  const wrong = await confirm({ password: 'not-the-password' });
  assert.is(wrong.status, 401, wrong.text);
  assert.match(String(wrong.headers['content-type']), /text\/html/);
  const [failures] = await env.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from sign_in_failures');
  assert.ok(failures.n >= 1, 'the failed attempt is counted');

  const convenor = await confirm({ username: 'aconvenor' });
  assert.is(convenor.status, 403, convenor.text);
  assert.ok(convenor.text.includes('Only an Admin can register an LMS'));

  assert.is(platform.registrations.length, 0);
  assert.equal(await stored(), []);
});

test('an openid_configuration URL that is not https (http only on loopback) is refused with 400 on both steps', async () => {
  const bad = { openid_configuration: 'http://lms.example.edu/.well-known/openid-configuration' };
  const page = await api(env, 'GET', '/api/lti/register', { headers: HTML, query: bad });
  assert.is(page.status, 400, page.text);
  assert.ok(page.text.includes('openid_configuration must be an https URL'));
  const posted = await confirm(bad);
  assert.is(posted.status, 400, posted.text);
  assert.equal(await stored(), []);
});

test('an unreachable platform, a wrong registration token, an issuer on another origin, an oversized or insecure configuration is 502 naming why, and nothing is stored', async () => {
  const port = await closedPort();
  const unreachable = await confirm({ openid_configuration: `http://127.0.0.1:${port}/.well-known/openid-configuration` });
  assert.is(unreachable.status, 502, unreachable.text);
  assert.ok(unreachable.text.includes('could not be reached'), unreachable.text);

  const refused = await confirm({ registration_token: 'wrong-token' });
  assert.is(refused.status, 502, refused.text);
  assert.ok(refused.text.includes('answered 401'), refused.text);

  platform.configurationOverrides.issuer = 'https://lms.example.edu';
  const foreign = await confirm();
  assert.is(foreign.status, 502, foreign.text);
  assert.ok(foreign.text.includes('not on the origin'), foreign.text);

  platform.configurationOverrides.issuer = platform.issuer;
  platform.configurationOverrides.padding = 'x'.repeat(300 * 1024);
  const huge = await confirm();
  assert.is(huge.status, 502, huge.text);
  assert.ok(huge.text.includes('larger than'), huge.text);

  delete platform.configurationOverrides.padding;
  platform.configurationOverrides.jwks_uri = 'http://lms.example.edu/jwks';
  const insecure = await confirm();
  assert.is(insecure.status, 502, insecure.text);
  assert.ok(insecure.text.includes('jwks_uri'), insecure.text);

  assert.is(platform.registrations.length, 0);
  assert.equal(await stored(), []);
});

test('without LTI_TOOL_URL both steps answer 400 saying to set it (JSON for API clients), and nothing is stored', async () => {
  env.config.lti = { ...env.config.lti, toolUrl: undefined };
  const page = await api(env, 'GET', '/api/lti/register', { headers: HTML, query: start() });
  assert.is(page.status, 400, page.text);
  assert.ok(page.text.includes('LTI_TOOL_URL'));
  const posted = await api(env, 'POST', '/api/lti/register', { form: { ...start(), username: 'aadmin', password: PASSWORD } });
  assert.is(posted.status, 400);
  assert.match(posted.body.error, /LTI_TOOL_URL/);
  assert.is(platform.registrations.length, 0);
  assert.equal(await stored(), []);
});

test.run();
