// The end of every launch from a linked context (straight from POST /api/lti/launch, or after the
// Instructor chose the unit): context and link kept current, the user found or made, their course
// roles applied in the linked unit, then the web client's sign-in (a redirect; the SCORM player's
// page for a link placed for an online test) or, for a deep
// linking request, the page to choose tasks. Runs inside the launch's transaction: a refusal
// anywhere leaves nothing behind.
import type { ILtiPlatform } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { deepLinkingPage } from './deep-linking.ts';
import type { LaunchClaims } from './launch-claims.ts';
import { upsertContext, upsertResourceLink } from './launch-context.ts';
import { launchUser } from './launch-people.ts';
import { courseRole, isCourseStaff } from '../../domain/lti-roles.ts';
import { applyCourseRoles } from './launch-unit-roles.ts';
import { issueSignInToken, signInLocation } from './sign-in-tokens.ts';
import { playerDefinition, playerLocation, playerUrl } from './launch-player.ts';

/** A page (deep linking) or where to send the browser (the web client's sign-in). */
export type LaunchAnswer = string | { location: string };

export async function continueLaunch(
  em: Em,
  config: Config,
  clock: Clock,
  place: { platform: ILtiPlatform; claims: LaunchClaims; unitId: number; webUrl: string },
): Promise<LaunchAnswer> {
  const { platform, claims, unitId } = place;
  const role = courseRole(claims.roles);
  const context = await upsertContext(em, platform, claims);
  const user = await launchUser(em, claims, isCourseStaff(role));
  await applyCourseRoles(em, unitId, user, role);
  await upsertResourceLink(em, context, unitId, claims);
  if (claims.messageType === 'LtiDeepLinkingRequest') {
    return deepLinkingPage(em, config, clock, {
      platform,
      deploymentId: claims.deploymentId,
      // launchClaims refuses a deep linking request without its settings.
      settings: claims.deepLinking!,
      context,
      user,
      targetLinkUri: claims.targetLinkUri,
    });
  }
  const token = await issueSignInToken(em, user, clock.now());
  // A link placed for an online test opens the SCORM player, signed in the same way.
  const test = await playerDefinition(em, claims.custom, unitId);
  if (test !== null) return { location: playerLocation(playerUrl(config, claims.targetLinkUri, test), token, user.username) };
  return { location: signInLocation(place.webUrl, token, user.username) };
}
