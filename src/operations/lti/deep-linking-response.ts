// The Instructor's choice on the deep-linking page (POST /api/lti/deep_link): the page's ticket is
// consumed, the chosen task definitions become `ltiResourceLink` content items, and the signed
// LtiDeepLinkingResponse (LTI Deep Linking 2.0) is auto-posted back to the platform.
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { LtiContext, LtiPlatform, TaskDefinition } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml, htmlPage } from '../../lib/html.ts';
import { badRequest } from '../../lib/errors.ts';
import { ltiSecret } from './configured.ts';
import { contentItemUrl, type DeepLinkingSettings, RESOURCE_LINK } from './deep-linking.ts';
import { LTI_ALG, signingKey } from './tool-keys.ts';
import { SCORM_PLAYER_CUSTOM } from './launch-player.ts';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
/** How long the platform may take to receive the response. */
const RESPONSE_LIFETIME_SECONDS = 600;
/**
 * A gradebook column's maximum: the passback sends each task's score as a percentage (docs/lti.md,
 * "Deep linking"), so every column made here is out of 100.
 */
export const SCORE_MAXIMUM = 100;

export interface DeepLinkChoice {
  ticket: string;
  task_definition_ids: number[];
}

interface TicketRow {
  platform_id: number;
  deployment_id: string;
  context_id: number;
  settings: DeepLinkingSettings;
  target_link_uri: string;
  expired: boolean;
}

/** The ticket's row, deleted as it is read: a second use finds nothing. */
async function consumeTicket(em: Em, ticket: string, now: Date): Promise<TicketRow> {
  const { rows } = await sql<TicketRow>`delete from lti_deep_linking_tickets where ticket = ${ticket}
    returning platform_id, deployment_id, context_id, settings, target_link_uri, expires_at <= ${now} as expired`.execute(db(em));
  const row = rows[0];
  if (!row) throw badRequest('This choice was already sent, or is unknown: start again from the course');
  if (row.expired) throw badRequest('This choice has expired: start again from the course');
  return row;
}

/** The chosen task definitions, in the order chosen; 400 when one is not a task of the linked unit. */
async function chosenTasks(em: Em, unitId: number | undefined, ids: number[]) {
  if (ids.length === 0) return [];
  if (unitId === undefined) throw badRequest('This course is not linked to a unit');
  const found = await em.find(TaskDefinition, { id: { $in: ids }, unit: unitId }, { fields: ['id', 'name', 'abbreviation', 'scormEnabled'] });
  const byId = new Map(found.map((t) => [t.id, t]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw badRequest(`Not tasks of this unit: ${missing.join(', ')}`);
  return ids.map((id) => byId.get(id)!);
}

/**
 * A link to one task, with its gradebook column (`resourceId` and `tag` name the task for the
 * passback and for people). A task with an online test opens the SCORM player (launch-player.ts).
 */
function contentItem(url: string, task: { id: number; name: string; abbreviation: string; scormEnabled: boolean }) {
  return {
    type: RESOURCE_LINK,
    title: task.scormEnabled ? `${task.name} (online test)` : task.name,
    url,
    custom: { task_definition_id: String(task.id), ...(task.scormEnabled && { [SCORM_PLAYER_CUSTOM]: 'true' }) },
    lineItem: { scoreMaximum: SCORE_MAXIMUM, label: task.name, resourceId: `task-definition-${task.id}`, tag: task.abbreviation },
  };
}

/** A page that posts the signed response to the platform at once (a button without scripts). */
function autoPostPage(product: string, action: string, jwt: string): string {
  return htmlPage(
    product,
    'Returning to the course',
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="JWT" value="${escapeHtml(jwt)}">
<noscript><button type="submit">Continue</button></noscript></form>
<script>document.forms[0].submit()</script>`,
  );
}

/** Consumes the ticket and answers the page that returns the signed LtiDeepLinkingResponse. */
export async function sendDeepLinkingResponse(em: Em, config: Config, clock: Clock, choice: DeepLinkChoice): Promise<string> {
  ltiSecret(config);
  const now = clock.now();
  const row = await consumeTicket(em, choice.ticket, now);
  const { settings } = row;
  const ids = [...new Set(choice.task_definition_ids)];
  if (ids.length > 1 && settings.accept_multiple !== true) throw badRequest('The course accepts one task at a time');
  const platform = await em.findOneOrFail(LtiPlatform, { id: row.platform_id });
  const context = await em.findOneOrFail(LtiContext, { id: row.context_id });
  const tasks = await chosenTasks(em, context.unit?.id, ids);

  const url = contentItemUrl(config, row.target_link_uri);
  const { kid, key } = await signingKey(em, config, clock);
  const iat = Math.floor(now.getTime() / 1000);
  const jwt = await new SignJWT({
    nonce: randomBytes(16).toString('base64url'),
    azp: platform.clientId,
    [`${LTI}deployment_id`]: row.deployment_id,
    [`${LTI}message_type`]: 'LtiDeepLinkingResponse',
    [`${LTI}version`]: '1.3.0',
    [`${DL}content_items`]: tasks.map((t) => contentItem(url, t)),
    ...(settings.data !== undefined && { [`${DL}data`]: settings.data }),
  })
    .setProtectedHeader({ alg: LTI_ALG, kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + RESPONSE_LIFETIME_SECONDS)
    .sign(key);
  return autoPostPage(config.externalName, settings.deep_link_return_url, jwt);
}
