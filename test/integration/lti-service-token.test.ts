// The tool's OAuth2 client-credentials token for NRPS and AGS, against the loopback platform's token
// endpoint, which verifies the tool's signed client assertion with the tool's published JWKS.
import type { JSONWebKeySet } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LtiPlatform } from '../../schema/index.ts';
import { LtiPlatformError } from '../../src/adapters/lti-http.ts';
import { LTI_SCOPES, serviceToken } from '../../src/operations/lti/service-token.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { platformWorld } from '../support/lti-launch.ts';
import type { LoopbackPlatform } from '../support/lti-platform.ts';

const test = suite('LTI service token (client credentials with a signed assertion)');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;
/** What the platform believes the tool's keys are: the tool's JWKS unless a test swaps it. */
let toolKeys: () => Promise<JSONWebKeySet>;

platformWorld(
  test,
  (world) => {
    ({ env, people, platform } = world);
    toolKeys = async () => (await api(env, 'GET', '/api/lti/jwks')).body;
    platform.tokenRequests.length = 0;
  },
  { toolJwks: () => toolKeys(), now: () => env.clock.now() },
);

async function registered(overrides: Record<string, unknown> = {}) {
  const res = await api(env, 'POST', '/api/lti/platforms', { as: people.admin.creds, json: { ...platform.registration(), ...overrides } });
  assert.is(res.status, 201, res.text);
  return env.orm.em.fork().findOneOrFail(LtiPlatform, { id: res.body.id });
}

test('the platform accepts the assertion and grants the scopes asked; the token is reused while valid', async () => {
  const row = await registered();
  const em = env.orm.em.fork();
  const first = await serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.memberships]);
  assert.is(platform.tokenRequests.length, 1);
  const [request] = platform.tokenRequests;
  assert.is(request.refused, undefined, request.refused);
  assert.equal(request.scopes, [LTI_SCOPES.memberships]);
  assert.is(await serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.memberships]), first);
  assert.is(platform.tokenRequests.length, 1, 'a valid token is not asked for again');
  // Another scope set is another token.
  await serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.score, LTI_SCOPES.lineItem]);
  assert.is(platform.tokenRequests.length, 2);
});

test('asked inside a transaction before the tool has a key, the key is committed first so the platform can check the assertion', async () => {
  const row = await registered();
  // The platform fetches the tool's JWKS on another connection while the transaction is open.
  const token = await env.orm.em.fork().transactional((em) => serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.memberships]));
  assert.type(token, 'string');
  assert.is(platform.tokenRequests[0]?.refused, undefined, platform.tokenRequests[0]?.refused);
});

test('a token near its expiry is renewed', async () => {
  const row = await registered();
  const em = env.orm.em.fork();
  const first = await serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.score]);
  (env.clock as unknown as { advance(ms: number): void }).advance(3600_000 - 30_000);
  const second = await serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.score]);
  assert.is.not(second, first);
  assert.is(platform.tokenRequests.length, 2);
});

test('an assertion the platform cannot verify (it holds other keys) is refused with the platform error, nothing cached', async () => {
  const row = await registered();
  toolKeys = async () => ({ keys: [platform.publicJwk] });
  const em = env.orm.em.fork();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await serviceToken(em, env.config, env.clock, row, [LTI_SCOPES.memberships]);
      assert.unreachable('a token was granted');
    } catch (error) {
      assert.instance(error, LtiPlatformError);
      assert.is((error as LtiPlatformError).status, 400);
      assert.match((error as Error).message, /invalid_client/);
    }
  }
  assert.is(platform.tokenRequests.length, 2);
  assert.ok(platform.tokenRequests.every((r) => r.refused?.startsWith('client_assertion')));
});

test('an unreachable token endpoint is an LtiPlatformError with status 0', async () => {
  const row = await registered({ auth_token_url: 'http://127.0.0.1:9/token' });
  try {
    await serviceToken(env.orm.em.fork(), env.config, env.clock, row, [LTI_SCOPES.memberships]);
    assert.unreachable('a token was granted');
  } catch (error) {
    assert.instance(error, LtiPlatformError);
    assert.is((error as LtiPlatformError).status, 0);
  }
});

test.run();
