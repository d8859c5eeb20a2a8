// A launch from a link the deep-linking choice made for an online test (custom `scorm_player`):
// it ends on the SCORM player's page instead of the web client, signed in with the same single-use
// sign-in token as the web client's sign-in, carried in the URL fragment (never sent to a server,
// so never logged); the page exchanges it through POST /api/auth and removes it from the address.
import { TaskDefinition } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';

/** The custom parameter a test's content item carries (deep-linking-response.ts). */
export const SCORM_PLAYER_CUSTOM = 'scorm_player';
export const PLAYER_PATH = '/api/scorm/player/';

/** The player's page under LTI_TOOL_URL, else on the origin of the launch's target_link_uri. */
export function playerUrl(config: Pick<Config, 'lti'>, targetLinkUri: string, taskDefinitionId: number): string {
  const base = config.lti.toolUrl;
  return base ? `${base}${PLAYER_PATH}${taskDefinitionId}` : new URL(`${PLAYER_PATH}${taskDefinitionId}`, targetLinkUri).toString();
}

/**
 * The test definition a launch opens in the player: its link asked for the player and names a
 * definition of the launch's unit with online tests on; otherwise null (the web client, as before).
 */
export async function playerDefinition(em: Em, custom: Record<string, string>, unitId: number): Promise<number | null> {
  if (custom[SCORM_PLAYER_CUSTOM] !== 'true') return null;
  const named = custom.task_definition_id;
  if (!named || !/^\d{1,9}$/.test(named)) return null;
  const definition = await em.findOne(TaskDefinition, { id: Number(named), unit: unitId, scormEnabled: true }, { fields: ['id'] });
  return definition ? definition.id : null;
}

/** The player's address with the sign-in token in its fragment. */
export function playerLocation(url: string, token: string, username: string): string {
  const location = new URL(url);
  location.hash = `sign_in_token=${encodeURIComponent(token)}&username=${encodeURIComponent(username)}`;
  return location.toString();
}
