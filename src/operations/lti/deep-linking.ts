// LTI Deep Linking 2.0 (an LtiDeepLinkingRequest launch): the page where an Instructor chooses the
// linked unit's task definitions, and the signed LtiDeepLinkingResponse returned to the platform.
// The launch (launch.ts) validates the request and calls deepLinkingPage; the choice comes back to
// POST /api/lti/deep_link (deep-linking-response.ts) with the page's single-use ticket.
import { randomBytes } from 'node:crypto';
import { type ILtiContext, type ILtiPlatform, type IUser, LtiDeepLinkingTicket, TaskDefinition, Unit } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml, htmlPage } from '../../lib/html.ts';
import { badRequest } from '../../lib/errors.ts';
import { ltiSecret } from './configured.ts';
import { LAUNCH_PATH } from './login.ts';
import { isPlatformUrl } from './platforms.ts';

/** The `https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings` claim. */
export interface DeepLinkingSettings {
  deep_link_return_url: string;
  accept_types: string[];
  accept_presentation_document_targets?: string[];
  accept_multiple?: boolean;
  auto_create?: boolean;
  title?: string;
  text?: string;
  /** Opaque: must be returned unchanged in the response. */
  data?: string;
}

/** A validated deep-linking launch from an Instructor of a linked context. */
export interface DeepLinkingRequest {
  platform: ILtiPlatform;
  deploymentId: string;
  settings: DeepLinkingSettings;
  /** Its `unit` is set: the launch links the context first. */
  context: ILtiContext;
  user: IUser;
  /** The launch's `target_link_uri`: the tool's launch URL the content items point at. */
  targetLinkUri: string;
}

/** The only content item type offered: a link that launches the tool on a task. */
export const RESOURCE_LINK = 'ltiResourceLink';
/** How long the Instructor has to choose: the ticket is refused after this. */
export const DEEP_LINKING_TICKET_TTL_MS = 15 * 60 * 1000;
export const DEEP_LINK_PATH = '/api/lti/deep_link';

/**
 * Where the content items point: the launch URL under LTI_TOOL_URL, else the launch's own
 * `target_link_uri` (the URL the platform has for the tool).
 */
export function contentItemUrl(config: Pick<Config, 'lti'>, targetLinkUri: string): string {
  return config.lti.toolUrl ? `${config.lti.toolUrl}${LAUNCH_PATH}` : targetLinkUri;
}

/** The tool's own deep_link URL, beside the launch URL (so a path prefix is kept). */
function choiceUrl(config: Pick<Config, 'lti'>, targetLinkUri: string): string {
  return config.lti.toolUrl ? `${config.lti.toolUrl}${DEEP_LINK_PATH}` : new URL('deep_link', contentItemUrl(config, targetLinkUri)).toString();
}

/** Refuses what the tool cannot answer, before anything is stored. */
function checkSettings(settings: DeepLinkingSettings): void {
  if (!isPlatformUrl(settings.deep_link_return_url)) throw badRequest('deep_link_return_url must be an https URL');
  if (!settings.accept_types.includes(RESOURCE_LINK)) {
    throw badRequest(`This tool offers only ${RESOURCE_LINK} content items; the platform accepts ${settings.accept_types.join(', ') || 'none'}`);
  }
}

function choicePage(
  product: string,
  action: string,
  ticket: string,
  unitName: string,
  multiple: boolean,
  tasks: { id: number; abbreviation: string; name: string; scormEnabled: boolean }[],
) {
  const hidden = `<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">`;
  const type = multiple ? 'checkbox' : 'radio';
  const options = tasks
    .map(
      (t) =>
        `<label><input type="${type}" name="task_definition_ids[]" value="${t.id}"> ${escapeHtml(t.abbreviation)} ${escapeHtml(t.name)}${t.scormEnabled ? ' (online test: opens the test player)' : ''}</label>`,
    )
    .join('\n');
  const choose = tasks.length
    ? `<p>${multiple ? 'Choose the tasks' : 'Choose the task'} of ${escapeHtml(unitName)} to place in the course.</p>
<form method="post" action="${escapeHtml(action)}">${hidden}
${options}
<button type="submit">Add</button>
</form>`
    : `<p>${escapeHtml(unitName)} has no tasks yet.</p>`;
  // Returning with no choice tells the platform nothing was added (its cancel).
  const cancel = `<form method="post" action="${escapeHtml(action)}">${hidden}<button type="submit">Cancel</button></form>`;
  return htmlPage(product, 'Add tasks', `${choose}\n${cancel}`);
}

/** The HTML page listing the unit's task definitions to choose from. */
export async function deepLinkingPage(em: Em, config: Config, clock: Clock, request: DeepLinkingRequest): Promise<string> {
  ltiSecret(config);
  const { settings, context } = request;
  checkSettings(settings);
  const unit = context.unit ? await em.findOne(Unit, { id: context.unit.id }, { fields: ['id', 'code', 'name'] }) : null;
  if (!unit) throw badRequest('This course is not linked to a unit yet');
  const tasks = await em.find(
    TaskDefinition,
    { unit: unit.id },
    { orderBy: { startDate: 'asc', id: 'asc' }, fields: ['id', 'abbreviation', 'name', 'scormEnabled'] },
  );

  const now = clock.now();
  // Choices never made are dropped here, so the table holds only choices in flight.
  await em.nativeDelete(LtiDeepLinkingTicket, { expiresAt: { $lt: now } });
  const ticket = randomBytes(32).toString('base64url');
  em.create(LtiDeepLinkingTicket, {
    ticket,
    platform: request.platform,
    deploymentId: request.deploymentId,
    context,
    user: request.user,
    settings: { ...settings },
    targetLinkUri: request.targetLinkUri,
    expiresAt: new Date(now.getTime() + DEEP_LINKING_TICKET_TTL_MS),
  });
  await em.flush();
  const unitName = `${unit.code} ${unit.name}`;
  return choicePage(config.externalName, choiceUrl(config, request.targetLinkUri), ticket, unitName, settings.accept_multiple === true, tasks);
}
