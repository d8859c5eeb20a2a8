import { createPublicKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import type { TestResponse } from '../support/http.ts';
import { counts, launchAs, launchWorld, linkContext, postLaunch, registerPlatform, signInTarget, startLogin } from '../support/lti-launch.ts';
import { LTI_CLAIM, type LaunchOptions, type LoopbackPlatform, startLoopbackPlatform } from '../support/lti-platform.ts';
import { enrol, seedUnit } from '../support/seed.ts';

const test = suite('REST POST /api/lti/launch: attacks are refused and create nothing');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;
let platformId: number;
let unit: number;

launchWorld(test, (world) => {
  ({ env, people, platform, platformId, unit } = world);
});

const LEARNER: Omit<LaunchOptions, 'nonce'> = { sub: 'learner-1', person: { email: 'new.learner@example.edu', name: 'New Learner' } };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The payload a valid launch for this login would carry, for tokens built by hand. */
async function validPayload(nonce: string, from = platform): Promise<Record<string, unknown>> {
  const token = await from.idToken({ nonce, ...LEARNER });
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

/** Posts the token `make` builds for a fresh login, and checks the refusal left nothing behind, the state included. */
async function refused(make: (login: { state: string; nonce: string }) => Promise<string>, status: number, message: RegExp): Promise<TestResponse> {
  const login = await startLogin(env, platform);
  const before = await counts(env);
  const res = await postLaunch(env, await make(login), login.state);
  assert.is(res.status, status, res.text);
  assert.match(res.body.error, message);
  assert.equal(await counts(env), before);
  assert.equal(await env.orm.em.fork().execute('select state from lti_login_states'), [], 'the state is spent');
  return res;
}

test('the loopback launch these attacks vary is itself accepted', async () => {
  signInTarget(await launchAs(env, platform, LEARNER));
});

test('a wrong signature is 401', async () => {
  await refused(
    async ({ nonce }) => {
      const [header, payload, signature] = (await platform.idToken({ nonce, ...LEARNER })).split('.');
      const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      return `${header}.${payload}.${flipped}`;
    },
    401,
    /Invalid LTI launch: the signature does not verify/,
  );
  // The payload changed under a valid signature is the same failure.
  await refused(
    async ({ nonce }) => {
      const [header, , signature] = (await platform.idToken({ nonce, ...LEARNER })).split('.');
      return `${header}.${b64({ ...(await validPayload(nonce)), sub: 'someone-else' })}.${signature}`;
    },
    401,
    /signature does not verify/,
  );
});

test('a key not in the platform JWKS is 401', async () => {
  await refused(async ({ nonce }) => platform.sign(await validPayload(nonce), { withUnpublishedKey: true }), 401, /key is not in the platform's key set/);
});

test('a wrong audience is 401; several audiences need azp naming this tool', async () => {
  await refused(async ({ nonce }) => platform.idToken({ nonce, ...LEARNER, clientId: 'another-tool' }), 401, /aud/);
  await refused(
    async ({ nonce }) => platform.sign({ ...(await validPayload(nonce)), aud: [platform.clientId, 'another-tool'], azp: 'another-tool' }),
    401,
    /azp/,
  );
  await refused(
    async ({ nonce }) => {
      const { azp: _, ...payload } = await validPayload(nonce);
      return platform.sign({ ...payload, aud: [platform.clientId, 'another-tool'] });
    },
    401,
    /azp/,
  );
});

test('an expired token is 401, and so is one from another issuer', async () => {
  await refused(async ({ nonce }) => platform.idToken({ nonce, ...LEARNER, lifetimeSeconds: -600 }), 401, /expired/);
  await refused(async ({ nonce }) => platform.sign({ ...(await validPayload(nonce)), iss: 'https://evil.example.com' }), 401, /iss/);
});

test('a replayed launch (same state and token) is 400 the second time, and creates nothing more', async () => {
  const { state, nonce } = await startLogin(env, platform);
  const token = await platform.idToken({ nonce, ...LEARNER });
  signInTarget(await postLaunch(env, token, state));
  const before = await counts(env);
  const replay = await postLaunch(env, token, state);
  assert.is(replay.status, 400);
  assert.match(replay.body.error, /unknown or already used state/);
  assert.equal(await counts(env), before);
  // Nor does its nonce pass with a state of another login.
  await refused(async () => token, 401, /nonce does not match/);
});

test("a nonce that is not the login's is 401; an unknown or expired state is 400", async () => {
  await refused(async () => platform.idToken({ nonce: 'another-nonce', ...LEARNER }), 401, /nonce does not match/);
  const before = await counts(env);
  const unknown = await postLaunch(env, await platform.idToken({ nonce: 'n', ...LEARNER }), 'no-such-state');
  assert.is(unknown.status, 400);
  const { state, nonce } = await startLogin(env, platform);
  env.clock.advance(11 * 60 * 1000);
  const late = await postLaunch(env, await platform.idToken({ nonce, ...LEARNER }), state);
  assert.is(late.status, 400);
  assert.match(late.body.error, /login expired/);
  assert.equal(await counts(env), before);
});

test('an unknown deployment is 400', async () => {
  await refused(async ({ nonce }) => platform.idToken({ nonce, ...LEARNER, deploymentId: 'deployment-9' }), 400, /Unknown LTI deployment deployment-9/);
});

test('missing or wrong LTI claims are 400 naming the claim', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ [`${LTI_CLAIM}version`]: '1.1' }, /version must be 1\.3\.0/],
    [{ [`${LTI_CLAIM}message_type`]: 'LtiSubmissionReviewRequest' }, /message_type must be one of/],
    [{ [`${LTI_CLAIM}roles`]: 'Learner' }, /roles/],
    [{ [`${LTI_CLAIM}context`]: { title: 'no id' } }, /context\.id/],
    [{ [`${LTI_CLAIM}resource_link`]: undefined }, /resource_link is missing/],
    [{ [`${LTI_CLAIM}target_link_uri`]: 'javascript:alert(1)' }, /target_link_uri must be an http\(s\) URL/],
  ];
  for (const [claims, message] of cases) {
    await refused(async ({ nonce }) => platform.sign({ ...(await validPayload(nonce)), ...claims }), 400, message);
  }
});

test('a learner claiming Instructor in another course gains nothing in this unit, nor there', async () => {
  // The learner of context-1 (linked to `unit`), already enrolled there.
  await launchAs(env, platform, LEARNER);
  const other = await seedUnit(env, { code: 'OTHER' });
  await enrol(env, people.student.user, other);
  await linkContext(env, platformId, 'context-2', other);
  const before = await counts(env);
  // Instructor of a linked course: their Student account cannot teach (403).
  await refused(async ({ nonce }) => platform.idToken({ nonce, ...LEARNER, roles: ['Instructor'], context: { id: 'context-2' } }), 403, /cannot teach/);
  // Instructor of an unlinked course: nothing to link (403), no page, no ticket.
  await refused(async ({ nonce }) => platform.idToken({ nonce, ...LEARNER, roles: ['Instructor'], context: { id: 'context-3' } }), 403, /not linked/);
  assert.equal(await counts(env), before);
  const roles = await env.orm.em.fork().execute("select r.unit_id from unit_roles r join users u on u.id = r.user_id where u.username = 'new.learner'");
  assert.equal(roles, []);
});

test('alg "none" (an unsigned token) is 401', async () => {
  await refused(async ({ nonce }) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(await validPayload(nonce))}.`, 401, /Invalid LTI launch/);
});

test('HS256 signed with the platform public key as the secret is 401', async () => {
  const pem = createPublicKey({ key: platform.publicJwk as never, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
  await refused(
    async ({ nonce }) =>
      new SignJWT(await validPayload(nonce))
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: String(platform.publicJwk.kid) })
        .sign(new TextEncoder().encode(pem)),
    401,
    /must be signed with RS256/,
  );
});

test('refusals are HTML pages for a browser', async () => {
  const { state, nonce } = await startLogin(env, platform);
  const res = await postLaunch(env, await platform.idToken({ nonce, ...LEARNER, lifetimeSeconds: -600 }), state, { accept: 'text/html' });
  assert.is(res.status, 401);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.match(res.text, /Invalid LTI launch: the token has expired/);
});

test('the platform JWKS is fetched once for many launches, and again for an unknown kid', async () => {
  const fresh = await startLoopbackPlatform({ clientId: 'jwks-client' });
  try {
    const id = await registerPlatform(env, people, fresh);
    await linkContext(env, id, 'context-1', unit);
    signInTarget(await launchAs(env, fresh, LEARNER));
    signInTarget(await launchAs(env, fresh, LEARNER));
    assert.is(fresh.jwksFetches, 1);
    // A key not published (yet) costs one fetch and is refused...
    const { state, nonce } = await startLogin(env, fresh);
    const res = await postLaunch(env, await fresh.sign(await validPayload(nonce, fresh), { withUnpublishedKey: true }), state);
    assert.is(res.status, 401);
    assert.is(fresh.jwksFetches, 2);
    // ...and a platform that rotated is followed at once.
    await fresh.rotateKey();
    signInTarget(await launchAs(env, fresh, LEARNER));
    assert.is(fresh.jwksFetches, 3);
    signInTarget(await launchAs(env, fresh, LEARNER));
    assert.is(fresh.jwksFetches, 3);
  } finally {
    await fresh.close();
  }
});

test.run();
