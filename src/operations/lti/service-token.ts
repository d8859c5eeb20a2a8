// An OAuth2 access token for the platform's services (NRPS, AGS), by the client-credentials grant with
// a JWT bearer client assertion signed with the tool's key (LTI Security Framework 1.0 §4.1,
// RFC 7523). Tokens are kept per process until shortly before they expire: a roster sync or a burst
// of grade passbacks asks the platform once, not once per call.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { ILtiPlatform } from '../../../schema/index.ts';
import { LtiPlatformError, ltiFetch } from '../../adapters/lti-http.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { LTI_ALG, signingKey } from './tool-keys.ts';

export const LTI_SCOPES = {
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  resultReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
} as const;

/** How long the assertion is valid; the platform uses it at once. */
const ASSERTION_SECONDS = 300;
/** A token is not reused in its last minute, so a call never starts with one about to lapse. */
const RENEW_BEFORE_MS = 60_000;
/** Platforms and scope sets are few; the bound only keeps a misbehaving caller from growing the map. */
const MAX_CACHED = 1000;

const cache = new Map<string, { token: string; expiresAt: number }>();

// The registration's creation time is in the key: a platform registered again (or a database reset
// in tests) reuses an id but never a token.
function cacheKey(platform: ILtiPlatform, scopes: string[]): string {
  return `${platform.id}|${platform.createdAt.getTime()}|${platform.authTokenUrl}|${platform.clientId}|${[...scopes].sort().join(' ')}`;
}

/** The client assertion: iss and sub the tool's client_id, aud the token endpoint, single-use jti. */
async function clientAssertion(em: Em, config: Pick<Config, 'lti'>, clock: Clock, platform: ILtiPlatform): Promise<string> {
  const { kid, key } = await signingKey(em, config, clock);
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: LTI_ALG, typ: 'JWT', kid })
    .setIssuer(platform.clientId)
    .setSubject(platform.clientId)
    .setAudience(platform.authTokenUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + ASSERTION_SECONDS)
    .setJti(randomUUID())
    .sign(key);
}

/** A bearer token for `scopes` at this platform; LtiPlatformError when the platform refuses or fails. */
export async function serviceToken(em: Em, config: Pick<Config, 'lti'>, clock: Clock, platform: ILtiPlatform, scopes: string[]): Promise<string> {
  const key = cacheKey(platform, scopes);
  const now = clock.now().getTime();
  const cached = cache.get(key);
  if (cached && cached.expiresAt - RENEW_BEFORE_MS > now) return cached.token;

  const { json } = await ltiFetch(platform.authTokenUrl, {
    method: 'POST',
    body: {
      form: {
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await clientAssertion(em, config, clock, platform),
        scope: scopes.join(' '),
      },
    },
  });
  const answer = json as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (typeof answer?.access_token !== 'string' || answer.access_token === '') {
    throw new LtiPlatformError(200, `POST ${platform.authTokenUrl}: the answer has no access_token`);
  }
  // Without expires_in the token is used for this call only.
  const seconds = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 0;
  if (seconds > 0) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, { token: answer.access_token, expiresAt: now + seconds * 1000 });
  }
  return answer.access_token;
}

/** Forgets a token the platform refused (401), so the next call asks for a new one. */
export function forgetServiceToken(platform: ILtiPlatform, scopes: string[]): void {
  cache.delete(cacheKey(platform, scopes));
}
