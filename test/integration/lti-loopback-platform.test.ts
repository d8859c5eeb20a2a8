// The loopback platform the LTI tests launch from: its JWKS verifies the id_tokens it signs, and a
// token signed with its unpublished key does not verify (what the attack tests rely on).
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LTI_CLAIM, type LoopbackPlatform, startLoopbackPlatform } from '../support/lti-platform.ts';

const test = suite('loopback LTI platform (test support)');
let platform: LoopbackPlatform;

test.before(async () => {
  platform = await startLoopbackPlatform();
});
test.after(() => platform.close());

test('its JWKS verifies an id_token with the standard LTI claims', async () => {
  const token = await platform.idToken({ nonce: 'n-1', roles: ['Instructor'] });
  const { payload, protectedHeader } = await jwtVerify(token, createRemoteJWKSet(new URL(platform.jwksUrl)), {
    issuer: platform.issuer,
    audience: platform.clientId,
  });
  assert.is(protectedHeader.alg, 'RS256');
  assert.is(protectedHeader.kid, platform.publicJwk.kid);
  assert.is(payload.nonce, 'n-1');
  assert.is(payload[`${LTI_CLAIM}version`], '1.3.0');
  assert.is(payload[`${LTI_CLAIM}message_type`], 'LtiResourceLinkRequest');
  assert.is(payload[`${LTI_CLAIM}deployment_id`], platform.deploymentId);
  assert.equal(payload[`${LTI_CLAIM}roles`], ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor']);
  assert.ok(payload[`${LTI_CLAIM}context`]);
  assert.ok(payload[`${LTI_CLAIM}resource_link`]);
  assert.is(platform.jwksFetches, 1);
});

test('a token signed with a key outside its JWKS does not verify', async () => {
  const token = await platform.sign({ iss: platform.issuer, aud: platform.clientId }, { withUnpublishedKey: true, kid: String(platform.publicJwk.kid) });
  try {
    await jwtVerify(token, createRemoteJWKSet(new URL(platform.jwksUrl)));
    assert.unreachable('verified');
  } catch (error) {
    assert.not.instance(error, assert.Assertion);
  }
});

test('its authorisation endpoint records the login redirect it receives', async () => {
  const res = await fetch(`${platform.authLoginUrl}?state=s-1&nonce=n-2`);
  assert.is(res.status, 200);
  const last = platform.authRequests.at(-1);
  assert.is(last?.query.get('state'), 's-1');
  assert.is(last?.query.get('nonce'), 'n-2');
});

test.run();
