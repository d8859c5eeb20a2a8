import { importJWK, jwtVerify, SignJWT } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { signingKey } from '../../src/operations/lti/tool-keys.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/lti/jwks and /api/lti/keys/rotate');
let env: TestEnv;
let people: People;

// The tests' app has LTI_KEY_SECRET set (test/support/env.ts); tests of the unset case clear it.
freshEachTest(test, (world) => ({ env, people } = world));

const DAY = 24 * 60 * 60 * 1000;

async function keyRows() {
  return env.orm.em
    .fork()
    .execute<{ kid: string; private_key: string; retired_at: Date | null }[]>('select kid, private_key, retired_at from lti_keys order by id');
}

test('without LTI_KEY_SECRET the routes answer 503 "LTI is not configured" and make no key', async () => {
  env.config.lti = { keySecret: undefined };
  const jwks = await api(env, 'GET', '/api/lti/jwks');
  assert.is(jwks.status, 503);
  assert.equal(jwks.body, { error: 'LTI is not configured' });
  const rotate = await api(env, 'POST', '/api/lti/keys/rotate', { as: people.admin.creds });
  assert.is(rotate.status, 503);
  assert.equal(await keyRows(), []);
});

test('the JWKS is public and holds one RS256 signing key, made on first need and then kept', async () => {
  const first = await api(env, 'GET', '/api/lti/jwks');
  assert.is(first.status, 200, first.text);
  assert.is(first.body.keys.length, 1);
  const [key] = first.body.keys;
  assert.equal(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
  assert.is(key.kty, 'RSA');
  assert.is(key.alg, 'RS256');
  assert.is(key.use, 'sig');
  assert.ok(key.kid.length > 0);
  const again = await api(env, 'GET', '/api/lti/jwks');
  assert.equal(again.body, first.body);
  assert.is((await keyRows()).length, 1);
});

test('the private key is stored encrypted: no PEM in the table, and it signs what the published key verifies', async () => {
  const { keys } = (await api(env, 'GET', '/api/lti/jwks')).body;
  const [row] = await keyRows();
  assert.not.match(row.private_key, /BEGIN|PRIVATE KEY|MII/);
  assert.match(row.private_key, /^v1:/);
  const { kid, key } = await signingKey(env.orm.em.fork(), env.config, env.clock);
  assert.is(kid, keys[0].kid);
  const jwt = await new SignJWT({ hello: 'platform' }).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
  const { payload } = await jwtVerify(jwt, await importJWK(keys[0], 'RS256'));
  assert.is(payload.hello, 'platform');
});

test('with another LTI_KEY_SECRET the stored private key cannot be read', async () => {
  assert.is((await api(env, 'GET', '/api/lti/jwks')).status, 200);
  env.config.lti = { keySecret: 'another-secret-also-at-least-32-characters' };
  try {
    await signingKey(env.orm.em.fork(), env.config, env.clock);
    assert.unreachable('decrypted with the wrong secret');
  } catch (error) {
    assert.not.instance(error, assert.Assertion);
  }
});

test('an Admin rotates: the new key signs, the old one stays published for a day and then goes', async () => {
  const before = (await api(env, 'GET', '/api/lti/jwks')).body.keys[0].kid;
  const rotated = await api(env, 'POST', '/api/lti/keys/rotate', { as: people.admin.creds });
  assert.is(rotated.status, 201, rotated.text);
  assert.is(rotated.body.retired_kid, before);
  assert.is.not(rotated.body.kid, before);
  const after = await api(env, 'GET', '/api/lti/jwks');
  assert.equal(
    after.body.keys.map((k: { kid: string }) => k.kid),
    [rotated.body.kid, before],
  );
  assert.is((await signingKey(env.orm.em.fork(), env.config, env.clock)).kid, rotated.body.kid);
  env.clock.advance(DAY - 60_000);
  assert.is((await api(env, 'GET', '/api/lti/jwks')).body.keys.length, 2);
  env.clock.advance(2 * 60_000);
  assert.equal(
    (await api(env, 'GET', '/api/lti/jwks')).body.keys.map((k: { kid: string }) => k.kid),
    [rotated.body.kid],
  );
});

test('only an Admin rotates: Convenor, Tutor and Student 403, no credentials 419; the key is unchanged', async () => {
  const before = (await api(env, 'GET', '/api/lti/jwks')).body;
  for (const who of [people.convenor, people.tutor, people.student]) {
    const res = await api(env, 'POST', '/api/lti/keys/rotate', { as: who.creds });
    assert.is(res.status, 403, who.user.username);
    assert.equal(res.body, { error: 'Not authorised to manage LTI' });
  }
  assert.is((await api(env, 'POST', '/api/lti/keys/rotate')).status, 419);
  assert.equal((await api(env, 'GET', '/api/lti/jwks')).body, before);
});

test.run();
