// Step 2 of an LTI 1.3 launch (the OIDC authentication response): the platform's form post of
// `id_token` and `state`. The state is consumed first, then the token is verified against the
// platform that state belongs to: its signature (RS256 only, with a key of the platform's JWKS),
// issuer, audience/azp, times and nonce.
import { errors, type JWTPayload, jwtVerify } from 'jose';
import { LtiPlatform, type ILtiPlatform } from '../../../schema/index.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { badRequest, unauthorized } from '../../lib/errors.ts';
import { platformJwks } from './platform-jwks.ts';

/** Clocks of the platform and this service may disagree by this much. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** An id_token older than this is refused even before `exp`: a launch follows its login within minutes. */
const MAX_TOKEN_AGE = '10m';

const invalid = (why: string) => unauthorized(`Invalid LTI launch: ${why}`);

/**
 * Deletes the login state and answers its nonce and platform; 400 when unknown, used or expired.
 *
 * The state is consumed whatever happens next, even when the token then fails: a state is single
 * use, so each login allows one launch attempt, and someone who saw a state (in a log, a proxy) cannot
 * keep trying tokens against it. A user whose launch failed starts again from the LMS. The delete runs
 * on its own, outside the launch's transaction, so a failed launch cannot roll it back.
 */
async function consumeState(em: Em, state: string, now: Date): Promise<{ nonce: string; platformId: number }> {
  const row = await db(em).deleteFrom('lti_login_states').where('state', '=', state).returning(['nonce', 'platform_id', 'expires_at']).executeTakeFirst();
  if (!row) throw badRequest('Invalid LTI launch: unknown or already used state. Open the tool again from the LMS.');
  if (timestamp(row.expires_at).getTime() <= now.getTime()) throw badRequest('Invalid LTI launch: the login expired. Open the tool again from the LMS.');
  return { nonce: row.nonce, platformId: row.platform_id };
}

/** Why jose refused the token, in words for the page. */
function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's ${error.claim} is not valid for this tool (${error.message})`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the token must be signed with RS256';
  if (error instanceof errors.JWKSNoMatchingKey) return "the token's key is not in the platform's key set";
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return "the platform's key set could not be read";
  if (error instanceof errors.JOSEError) return `the token cannot be verified (${error.code})`;
  return 'the token cannot be verified';
}

/**
 * The launch's verified claims and its platform. The platform is the one the state was issued for,
 * and the token must name it (iss = its issuer, aud = its client_id), so a token from one platform
 * cannot complete another's login.
 */
export async function verifyLaunch(em: Em, input: { id_token: string; state: string }, now: Date): Promise<{ platform: ILtiPlatform; payload: JWTPayload }> {
  const { nonce, platformId } = await consumeState(em, input.state, now);
  const platform = await em.findOne(LtiPlatform, { id: platformId });
  if (!platform) throw badRequest('Invalid LTI launch: unknown or already used state. Open the tool again from the LMS.');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(input.id_token, platformJwks(platform.jwksUrl), {
      // Exactly RS256 (LTI 1.3 Security §5.1.3): `none` and HS256 signed with the public key as the
      // secret never reach a key, whatever the header says.
      algorithms: ['RS256'],
      issuer: platform.issuer,
      audience: platform.clientId,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: MAX_TOKEN_AGE,
      requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
      // The platform's clock against this machine's (in service the clock is the machine's too; tests
      // move the service's clock, never the platform's).
    }));
  } catch (error) {
    throw invalid(reason(error));
  }
  // OIDC Core §3.1.3.7: with several audiences azp must be present and be this tool; if present, it must be this tool.
  const several = Array.isArray(payload.aud) && payload.aud.length > 1;
  if ((several || payload.azp !== undefined) && payload.azp !== platform.clientId) throw invalid("the token's azp is not this tool");
  // The nonce is bound to the state that was just deleted, so it too is accepted once: no separate list of
  // used nonces is needed (a replayed token would need its state again, which is gone).
  if (payload.nonce !== nonce) throw invalid('the nonce does not match the login');
  return { platform, payload };
}
