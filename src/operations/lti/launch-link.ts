// Linking a platform's course to a unit, on the first Instructor launch from it: a page that asks
// which unit (those the Instructor convenes, every active one for whoever administers units) or
// offers to create one from the course, and the choice (POST /api/lti/launch/link) that links it
// and continues the launch. Between the two a single-use ticket holds the validated launch.
import { randomBytes } from 'node:crypto';
import { LtiLaunchTicket, LtiPlatform, User, type ILtiPlatform, type IUser } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { toDay } from '../../domain/dates.ts';
import type { Clock } from '../../lib/clock.ts';
import { escapeHtml, htmlPage } from '../../lib/html.ts';
import { hashToken } from '../auth/session-tokens.ts';
import { can, ROLE } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { createUnit } from '../units/create-unit.ts';
import { ltiSecret } from './configured.ts';
import type { LaunchClaims } from './launch-claims.ts';
import { findContext, upsertContext } from './launch-context.ts';
import { continueLaunch, type LaunchAnswer } from './launch-continue.ts';
import { findLaunchUser } from './launch-people.ts';
import { webClientUrl } from './sign-in-tokens.ts';

/** How long the Instructor has to choose. */
export const TICKET_TTL_MS = 10 * 60 * 1000;
/** Posted as the form's `unit` to create a new unit from the course. */
export const NEW_UNIT = 'new';

const NO_UNIT =
  'This course is not linked to a unit yet, and you convene no unit here to link it to, nor may you create one. ' +
  'Ask a convenor of the unit or an administrator to open the tool from this course first.';
const TICKET_USED = 'This choice has expired or was already made. Open the tool again from the LMS.';

interface LinkableUnit {
  id: number;
  code: string;
  name: string;
}

/** The units this user may link a course to: those they convene, or every active unit for whoever administers units. */
async function linkableUnits(em: Em, user: IUser): Promise<LinkableUnit[]> {
  let query = db(em).selectFrom('units as u').select(['u.id', 'u.code', 'u.name']).orderBy('u.code').orderBy('u.id');
  if (can(user, 'admin_units')) query = query.where('u.active', '=', true);
  else query = query.where('u.id', 'in', (q) => q.selectFrom('unit_roles').select('unit_id').where('user_id', '=', user.id).where('role', '=', ROLE.convenor));
  return query.execute();
}

function choicePage(config: Config, claims: LaunchClaims, units: LinkableUnit[], mayCreate: boolean, ticket: string): string {
  const course = claims.context.title ?? claims.context.label ?? claims.context.id;
  const options = [
    ...(mayCreate ? [`<option value="${NEW_UNIT}">Create a new unit from this course</option>`] : []),
    ...units.map((u) => `<option value="${u.id}">${escapeHtml(`${u.code} ${u.name}`)}</option>`),
  ];
  // The action is relative to /api/lti/launch, so it works under any prefix the service is served at.
  return htmlPage(
    config.externalName,
    'Link this course',
    `<p>The course <strong>${escapeHtml(course)}</strong> is not linked to a unit yet. Choose the unit its launches open;
students and staff who open the tool from this course then join that unit.</p>
<form method="post" action="launch/link">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<label for="unit">Unit</label>
<select id="unit" name="unit">${options.join('')}</select>
<button type="submit">Link and continue</button>
</form>`,
  );
}

/**
 * The choice page for an Instructor's launch from an unlinked context. Creates nothing but the
 * ticket: the user, their roles and the context come once the choice is made. An Instructor with no
 * account here yet, or one who neither convenes a unit nor may create one, gets 403.
 */
export async function linkingPage(em: Em, config: Config, clock: Clock, platform: ILtiPlatform, claims: LaunchClaims): Promise<string> {
  const user = await findLaunchUser(em, claims);
  const units = user ? await linkableUnits(em, user) : [];
  const mayCreate = user !== null && can(user, 'create_unit');
  if (!user || (units.length === 0 && !mayCreate)) throw forbidden(NO_UNIT);
  const now = clock.now();
  await em.nativeDelete(LtiLaunchTicket, { expiresAt: { $lte: now } });
  const ticket = randomBytes(32).toString('base64url');
  em.create(LtiLaunchTicket, {
    ticketHash: hashToken(ticket),
    platform,
    user,
    claims: claims as unknown as Record<string, unknown>,
    expiresAt: new Date(now.getTime() + TICKET_TTL_MS),
    createdAt: now,
  });
  await em.flush();
  return choicePage(config, claims, units, mayCreate, ticket);
}

export interface LinkChoice {
  ticket: string;
  /** A unit id, or NEW_UNIT. */
  unit: string;
}

/** Deletes the ticket (single use, even when the choice is then refused) and answers what it held. */
async function consumeTicket(em: Em, ticket: string, now: Date) {
  const row = await db(em)
    .deleteFrom('lti_launch_tickets')
    .where('ticket_hash', '=', hashToken(ticket))
    .returning(['platform_id', 'user_id', 'claims', 'expires_at'])
    .executeTakeFirst();
  if (!row || timestamp(row.expires_at).getTime() <= now.getTime()) throw badRequest(TICKET_USED);
  return { platformId: row.platform_id, userId: row.user_id, claims: row.claims as unknown as LaunchClaims };
}

/** Links the ticket's context to the chosen (or a new) unit and continues the launch. */
export async function linkContext(em: Em, config: Config, clock: Clock, choice: LinkChoice): Promise<LaunchAnswer> {
  ltiSecret(config);
  const webUrl = webClientUrl(config);
  const now = clock.now();
  // Outside the transaction, like the launch's state: a refused choice still uses the ticket up.
  const held = await consumeTicket(em, choice.ticket, now);
  return em.transactional(async (em) => {
    const platform = await em.findOne(LtiPlatform, { id: held.platformId });
    if (!platform) throw badRequest(TICKET_USED);
    const user = await em.findOneOrFail(User, { id: held.userId });
    const { claims } = held;
    let unitId: number;
    if (choice.unit === NEW_UNIT) {
      if (!can(user, 'create_unit')) throw forbidden('You may not create units.');
      const code = (claims.context.label ?? claims.context.id).slice(0, 255);
      const name = (claims.context.title ?? claims.context.label ?? claims.context.id).slice(0, 255);
      unitId = (await createUnit(em, user, { code, name }, toDay(now))).id;
    } else {
      unitId = Number(choice.unit);
      const units = await linkableUnits(em, user);
      if (!Number.isSafeInteger(unitId) || !units.some((u) => u.id === unitId)) throw forbidden('You may not link this course to that unit.');
    }
    const linked = (await findContext(em, platform, claims))?.unit;
    if (linked && (linked as { id: number }).id !== unitId) {
      throw badRequest('This course was linked to another unit meanwhile. Open the tool again from the LMS.');
    }
    await upsertContext(em, platform, claims, unitId);
    return continueLaunch(em, config, clock, { platform, claims, unitId, webUrl });
  });
}
