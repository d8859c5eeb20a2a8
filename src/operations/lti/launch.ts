// POST /api/lti/launch: an LTI 1.3 launch (the platform's form post of `id_token` and `state`).
// Verified first (launch-token.ts: state, signature, issuer, audience, times, nonce; launch-claims.ts:
// the LTI claims and the deployment), then, in one transaction, the user signed in to the unit the
// launch's context is linked to (launch-continue.ts), or the Instructor of an unlinked context asked
// which unit to link (launch-link.ts). Nothing is written before the token is valid, and a refusal
// after that rolls everything back. See docs/lti.md.
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { ltiSecret } from './configured.ts';
import { launchClaims } from './launch-claims.ts';
import { findContext } from './launch-context.ts';
import { continueLaunch, type LaunchAnswer } from './launch-continue.ts';
import { linkingPage } from './launch-link.ts';
import { courseRole } from '../../domain/lti-roles.ts';
import { verifyLaunch } from './launch-token.ts';
import { webClientUrl } from './sign-in-tokens.ts';

export const NOT_LINKED = 'This course is not linked to a unit yet. Ask your instructor to open the tool from this course first.';
export const DEEP_LINKING_INSTRUCTORS_ONLY = "Only an Instructor of the course may choose the course's links to this tool.";

export interface LaunchInput {
  id_token: string;
  state: string;
}

export async function launch(em: Em, config: Config, clock: Clock, input: LaunchInput): Promise<LaunchAnswer> {
  ltiSecret(config);
  // Before the state is used: a service that cannot sign anyone in refuses without spending the login.
  const webUrl = webClientUrl(config);
  const { platform, payload } = await verifyLaunch(em, input, clock.now());
  const claims = launchClaims(platform, payload);
  const instructor = courseRole(claims.roles) === 'instructor';
  if (claims.messageType === 'LtiDeepLinkingRequest' && !instructor) throw forbidden(DEEP_LINKING_INSTRUCTORS_ONLY);
  return em.transactional(async (em) => {
    const unit = (await findContext(em, platform, claims))?.unit;
    if (!unit) {
      // Nothing at all for anyone else: not even the context row, so a course nobody links leaves no trace.
      if (!instructor) throw badRequest(NOT_LINKED);
      return linkingPage(em, config, clock, platform, claims);
    }
    return continueLaunch(em, config, clock, { platform, claims, unitId: (unit as { id: number }).id, webUrl });
  });
}
