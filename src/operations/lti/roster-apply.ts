// Applying the rosters read from the LMS to one unit (docs/lti.md "Roster sync (NRPS)"): active
// learners enrolled, active instructors and teaching assistants employed, enrolled students linked
// to the platform who are no longer active members withdrawn. Nothing is deleted and staff are never
// removed. A fixed number of statements whatever the roster's size (people matched, projects
// enrolled and withdrawn in bulk), plus a few for each member of staff newly employed.
import { sql } from 'kysely';
import type { SystemRole } from '../../../schema/enums.ts';
import { batches } from '../../db/batches.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { courseRole, type LtiCourseRole } from '../../domain/lti-roles.ts';
import { ROLE, staffRoleFromLms, systemRoleForNewUser } from '../../policy/index.ts';
import { enrolProjects, withdrawProjects } from '../projects/enrol-projects.ts';
import { employStaff } from '../unit_roles/change-staff.ts';
import { findOrCreateLtiUsers, type LtiUser } from './find-or-create-users.ts';
import type { RosterMember, RosterProblem } from './roster-fetch.ts';

/** What a sync did, counted by member; `errors` names each member it could not act on. */
export interface RosterReport {
  added: number;
  withdrawn: number;
  unchanged: number;
  errors: RosterProblem[];
}

/** The members of one platform's courses linked to the unit, one per `user_id` (sub). */
export interface PlatformRoster {
  issuer: string;
  members: RosterMember[];
  /**
   * Every course of the unit on this platform was read, so a student linked to the platform who is
   * in none of them has left. False when one of them offers no roster (no memberships URL).
   */
  complete: boolean;
}

/**
 * Users per call of the enrolment operations, which list them as parameters: PostgreSQL takes at
 * most 65,535 in one statement. Rosters this large are rare, so the cost is rarely a second call.
 */
const BATCH = 10_000;

interface Placed {
  member: RosterMember;
  role: LtiCourseRole;
  user: LtiUser;
}

const CANNOT_TEACH = (systemRole: SystemRole) =>
  `The account's system role (${systemRole}) cannot teach: an Admin must change it before the account can be employed`;

/**
 * Applies the rosters to the unit, inside the caller's transaction. Two syncs of one unit (the
 * daily job and a convenor's) take turns on a transaction-scoped advisory lock.
 */
export async function applyRosters(em: Em, unitId: number, rosters: PlatformRoster[]): Promise<RosterReport> {
  const k = db(em);
  await sql`select pg_advisory_xact_lock(hashtext('lti_roster_sync'), ${unitId})`.execute(k);
  const report: RosterReport = { added: 0, withdrawn: 0, unchanged: 0, errors: [] };

  // Who each active member with a role here is (matched, linked or created).
  const placed: Placed[] = [];
  /** Per issuer, the subs of active members: their linked accounts are not withdrawn. */
  const activeSubs = new Map<string, Set<string>>();
  const keepUsers = new Set<number>();
  /** Inactive or role-less members: unchanged unless their enrolment is withdrawn below. */
  const idle = new Map<string, Set<string>>();
  for (const roster of rosters) {
    const active = new Set<string>();
    const resting = new Set<string>();
    const wanted: { member: RosterMember; role: LtiCourseRole }[] = [];
    for (const member of roster.members) {
      const role = courseRole(member.roles);
      if (member.status === 'Active') active.add(member.user_id);
      if (member.status === 'Active' && role !== null) wanted.push({ member, role });
      else resting.add(member.user_id);
    }
    activeSubs.set(roster.issuer, active);
    idle.set(roster.issuer, resting);
    const outcomes = await findOrCreateLtiUsers(
      em,
      roster.issuer,
      wanted.map(({ member, role }) => ({ claims: { ...member, sub: member.user_id }, systemRole: systemRoleForNewUser(role !== 'learner') })),
    );
    for (const { member, role } of wanted) {
      const outcome = outcomes.get(member.user_id)!;
      if ('error' in outcome) report.errors.push({ user_id: member.user_id, error: outcome.error });
      else {
        placed.push({ member, role, user: outcome.user });
        keepUsers.add(outcome.user.userId);
      }
    }
  }

  const unit = await k.selectFrom('units').select('main_convenor_id').where('id', '=', unitId).executeTakeFirstOrThrow();
  const staff = new Set((await k.selectFrom('unit_roles').select('user_id').where('unit_id', '=', unitId).execute()).map((r) => r.user_id));

  // Learners: enrolled, or enrolled again at the campus they had. Staff of the unit are not enrolled.
  const learners = placed.filter((p) => p.role === 'learner' && !staff.has(p.user.userId));
  const learnerIds = [...new Set(learners.map((p) => p.user.userId))];
  const known = await k
    .selectFrom('projects')
    .select(['user_id', 'campus_id'])
    .where('unit_id', '=', unitId)
    .where('user_id', '=', sql<number>`any(${sql.val(learnerIds)}::int[])`)
    .execute();
  const campuses = new Map(known.map((p) => [p.user_id, p.campus_id]));
  const enrolled = [];
  for (const batch of batches(learnerIds, BATCH)) {
    enrolled.push(
      ...(await enrolProjects(
        em,
        unitId,
        batch.map((userId) => ({ userId, campusId: campuses.get(userId) ?? null })),
      )),
    );
  }
  const changed = new Set(enrolled.filter((e) => e.outcome !== 'unchanged').map((e) => e.userId));
  for (const p of learners) {
    if (changed.delete(p.user.userId)) report.added += 1;
    else report.unchanged += 1;
  }

  // Staff: employed once; a member of staff keeps the role they have.
  let hasMainConvenor = unit.main_convenor_id !== null;
  for (const p of placed) {
    if (p.role === 'learner') {
      if (staff.has(p.user.userId)) report.unchanged += 1;
      continue;
    }
    if (staff.has(p.user.userId)) {
      report.unchanged += 1;
      continue;
    }
    const role = staffRoleFromLms(p.role === 'instructor', p.user.systemRole, hasMainConvenor);
    if (!role) {
      report.errors.push({ user_id: p.member.user_id, error: CANNOT_TEACH(p.user.systemRole) });
      continue;
    }
    try {
      // A savepoint: a member who cannot be employed leaves the others' changes in place.
      await em.transactional((tx) => employStaff(tx, { unitId, userId: p.user.userId, role }));
    } catch (error) {
      report.errors.push({ user_id: p.member.user_id, error: (error as Error).message });
      continue;
    }
    staff.add(p.user.userId);
    if (role === ROLE.convenor) hasMainConvenor = true;
    report.added += 1;
  }

  // Withdrawals: enrolled students linked to a platform whose courses were all read, who are active
  // in none of them (left, Inactive or Deleted), and not kept through another platform.
  const withdrawn = new Set<number>();
  for (const roster of rosters.filter((r) => r.complete)) {
    const active = activeSubs.get(roster.issuer)!;
    const linked = await k
      .selectFrom('projects as p')
      .innerJoin('lti_identities as i', 'i.user_id', 'p.user_id')
      .select(['p.id', 'p.user_id', 'i.sub'])
      .where('p.unit_id', '=', unitId)
      .where('p.enrolled', '=', true)
      .where('i.issuer', '=', roster.issuer)
      .execute();
    const stays = new Set(linked.filter((r) => active.has(r.sub) || keepUsers.has(r.user_id)).map((r) => r.id));
    const resting = idle.get(roster.issuer)!;
    for (const row of linked) {
      if (stays.has(row.id) || withdrawn.has(row.id)) continue;
      withdrawn.add(row.id);
      resting.delete(row.sub);
    }
  }
  for (const batch of batches([...withdrawn], BATCH)) await withdrawProjects(em, batch);
  report.withdrawn = withdrawn.size;
  for (const resting of idle.values()) report.unchanged += resting.size;
  return report;
}
