// Roster sync (issue 17 §4, docs/lti.md "Roster sync (NRPS)"): a unit's students and staff from the
// LMS course(s) linked to it. On demand (POST /api/lti/units/{unit_id}/sync_roster) and daily
// (workers/tasks/lti-roster-sync.ts), the same operation.
//
// The unit is the unit of work, not the course: a unit may be linked to several courses (e.g. two
// LMS sections), and a student of section A must not be withdrawn because section B's roster lacks
// them. So every linked course is read first, outside any transaction (no connection is held while
// the LMS answers), and only then is the union applied, in one transaction.
import { LtiContext, type ILtiContext, type ILtiPlatform } from '../../../schema/index.ts';
import { LtiPlatformError } from '../../adapters/lti-http.ts';
import type { Config } from '../../config.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { badGateway, badRequest } from '../../lib/errors.ts';
import { ltiSecret } from './configured.ts';
import { applyRosters, type PlatformRoster, type RosterReport } from './roster-apply.ts';
import { fetchRoster, type RosterMember, type RosterProblem } from './roster-fetch.ts';

export type { RosterReport } from './roster-apply.ts';

export const NOT_LINKED = (unitId: number) => `Unit ${unitId} is not linked to an LMS course: an Instructor links it by launching the tool from the course`;
export const NO_ROSTER_SERVICE = (unitId: number) =>
  `The LMS course(s) linked to unit ${unitId} offer no roster (Names and Role Provisioning Services): enable the service for the tool in the LMS, then launch it once from the course`;

/** Merges a member seen in several courses of one platform: every role, Active if active anywhere. */
function merge(into: Map<string, RosterMember>, member: RosterMember): void {
  const seen = into.get(member.user_id);
  if (!seen) {
    into.set(member.user_id, { ...member, roles: [...member.roles] });
    return;
  }
  seen.roles = [...new Set([...seen.roles, ...member.roles])];
  if (member.status === 'Active') seen.status = 'Active';
  seen.email ||= member.email;
  seen.given_name ||= member.given_name;
  seen.family_name ||= member.family_name;
  seen.name ||= member.name;
}

/**
 * Reads the rosters of every course linked to the unit and applies them. 400 when the unit is
 * linked to no course or none offers a roster, 502 when a course's roster cannot be read (then
 * nothing changes), 503 without LTI_KEY_SECRET.
 */
export async function syncUnitRoster(em: Em, config: Pick<Config, 'lti'>, clock: Clock, unitId: number): Promise<RosterReport> {
  ltiSecret(config);
  const contexts = (await em.find(LtiContext, { unit: unitId }, { populate: ['platform'], orderBy: { id: 'asc' } })) as ILtiContext[];
  if (contexts.length === 0) throw badRequest(NOT_LINKED(unitId));
  const readable = contexts.filter((c) => c.membershipsUrl);
  if (readable.length === 0) throw badRequest(NO_ROSTER_SERVICE(unitId));

  const byIssuer = new Map<string, { members: Map<string, RosterMember>; complete: boolean }>();
  const problems: RosterProblem[] = [];
  for (const context of contexts) {
    const platform = context.platform as unknown as ILtiPlatform;
    const entry = byIssuer.get(platform.issuer) ?? { members: new Map(), complete: true };
    byIssuer.set(platform.issuer, entry);
    if (!context.membershipsUrl) {
      entry.complete = false;
      continue;
    }
    try {
      const roster = await fetchRoster(em, config, clock, platform, context.membershipsUrl);
      for (const member of roster.members) merge(entry.members, member);
      problems.push(...roster.problems);
    } catch (error) {
      if (!(error instanceof LtiPlatformError)) throw error;
      const course = context.title ?? context.label ?? context.contextId;
      throw badGateway(`The roster of the LMS course "${course}" could not be read, so nothing was changed: ${error.message}`);
    }
  }
  const rosters: PlatformRoster[] = [...byIssuer].map(([issuer, { members, complete }]) => ({ issuer, members: [...members.values()], complete }));

  return em.transactional(async (tx) => {
    const report = await applyRosters(tx, unitId, rosters);
    report.errors.unshift(...problems);
    await tx.nativeUpdate(LtiContext, { id: { $in: readable.map((c) => c.id) } }, { lastRosterSyncAt: clock.now() });
    return report;
  });
}

/** Units with at least one linked course that offers a roster: what the daily sync reads. */
export async function unitsWithRosters(em: Em): Promise<number[]> {
  const rows = await db(em)
    .selectFrom('lti_contexts')
    .select('unit_id')
    .distinct()
    .where('unit_id', 'is not', null)
    .where('memberships_url', 'is not', null)
    .orderBy('unit_id')
    .execute();
  return rows.map((r) => r.unit_id as number);
}
