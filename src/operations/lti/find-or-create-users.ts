// Who a platform's user is here (issue 17 §2 "People"): the account already linked to their
// (issuer, sub); else the account with their email (any case), which is then linked; else a new
// account (no password: they sign in through the LMS), linked. The launch matches one person, the
// roster sync (NRPS) hundreds at once, with the same rules and a fixed number of statements.
// Accounts found are never changed (names and roles stay as the service has them).
import { sql } from 'kysely';
import type { SystemRole } from '../../../schema/enums.ts';
import { batches } from '../../db/batches.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { claimableByEmail } from '../../policy/index.ts';
import { badRequest } from '../../lib/errors.ts';
import { emailLocalPart, uniqueUsernames } from '../users/usernames.ts';

/** The standard OIDC claims of an LTI launch or an NRPS member that name a person. */
export interface LtiPersonClaims {
  sub: string;
  email?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  name?: string | null;
}

export interface LtiUser {
  userId: number;
  systemRole: SystemRole;
  /** The account was made now. */
  created: boolean;
}

/** A person matched or created, or why not (e.g. no email to create an account with). */
export type LtiPersonOutcome = { user: LtiUser } | { error: string };

const MAX_TEXT = 255;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The address to create with (trimmed); null when absent, else an error when unusable. */
function emailOf(claims: LtiPersonClaims): string | null | { error: string } {
  const email = claims.email?.trim();
  if (!email) return null;
  if (email.length > MAX_TEXT || !EMAIL.test(email)) return { error: `Invalid email address (${email.slice(0, MAX_TEXT)})` };
  return email;
}

/**
 * First and last name: given_name/family_name, else `name` split at its last space (as the
 * launch does); null when the LMS sent no name, and the first-time setup then asks for one.
 */
function namesOf(claims: LtiPersonClaims): { firstName: string; lastName: string } | null {
  const given = claims.given_name?.trim();
  const family = claims.family_name?.trim();
  const name = claims.name?.trim();
  let named: { firstName: string; lastName: string } | null = null;
  if (given || family) named = { firstName: given ?? '', lastName: family ?? '' };
  else if (name) {
    const cut = name.lastIndexOf(' ');
    named = cut < 0 ? { firstName: name, lastName: '' } : { firstName: name.slice(0, cut), lastName: name.slice(cut + 1) };
  }
  return named && { firstName: named.firstName.slice(0, MAX_TEXT), lastName: named.lastName.slice(0, MAX_TEXT) };
}

const ADMIN_BY_EMAIL = "The email address belongs to an administrator's account, which is never linked from an LMS";

/**
 * `= any($1)` with the whole list as one array parameter: a roster of thousands stays one statement
 * and never meets PostgreSQL's limit of 65,535 parameters.
 */
function anyOf(values: readonly string[]) {
  return sql<string>`any(${sql.val(values)}::text[])`;
}

/** Rows per INSERT: a few parameters each, well under that limit. */
const INSERT_BATCH = 1000;

interface Found {
  id: number;
  system_role: SystemRole;
}

/**
 * Matches or creates each person of one platform (its `issuer`); `systemRole` is a new account's.
 * People must have distinct subs. A person who cannot be matched or created is an error for them
 * alone. Races with a launch of the same person are settled by the unique indexes (`on conflict do
 * nothing`, then reading what the other side wrote), never by an aborted transaction.
 */
export async function findOrCreateLtiUsers(
  em: Em,
  issuer: string,
  people: readonly { claims: LtiPersonClaims; systemRole: SystemRole }[],
): Promise<Map<string, LtiPersonOutcome>> {
  const outcomes = new Map<string, LtiPersonOutcome>();
  if (people.length === 0) return outcomes;
  const k = db(em);

  // 1. Linked already.
  const linked = await k
    .selectFrom('lti_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['i.sub', 'u.id', 'u.system_role'])
    .where('i.issuer', '=', issuer)
    .where('i.sub', '=', anyOf(people.map((p) => p.claims.sub)))
    .execute();
  const bySub = new Map(linked.map((r) => [r.sub, r as Found]));
  for (const { claims } of people) {
    const found = bySub.get(claims.sub);
    if (found) outcomes.set(claims.sub, { user: { userId: found.id, systemRole: found.system_role, created: false } });
  }

  // 2. By email, any case (`email` is the lower-cased key, `address` as the LMS sent it).
  const unlinked: { claims: LtiPersonClaims; systemRole: SystemRole; email: string; address: string }[] = [];
  for (const person of people) {
    if (outcomes.has(person.claims.sub)) continue;
    const address = emailOf(person.claims);
    if (address === null) outcomes.set(person.claims.sub, { error: 'No email address to match or create an account with' });
    else if (typeof address !== 'string') outcomes.set(person.claims.sub, address);
    else unlinked.push({ ...person, email: address.toLowerCase(), address });
  }
  if (unlinked.length === 0) return outcomes;
  const byEmail = await usersByEmail(em, [...new Set(unlinked.map((p) => p.email))]);

  // 3. New accounts, one per address (two subs with one address share it).
  const toCreate = new Map<string, { claims: LtiPersonClaims; systemRole: SystemRole; address: string }>();
  for (const p of unlinked) if (!byEmail.has(p.email) && !toCreate.has(p.email)) toCreate.set(p.email, p);
  const created = new Set<string>();
  if (toCreate.size > 0) {
    const emails = [...toCreate.keys()];
    const usernames = await uniqueUsernames(em, emails.map(emailLocalPart));
    const now = sql<string>`now()`;
    const rows = emails.map((email, i) => {
      const { claims, systemRole, address } = toCreate.get(email)!;
      const named = namesOf(claims);
      return {
        username: usernames[i],
        email: address,
        first_name: named?.firstName ?? emailLocalPart(address),
        last_name: named?.lastName ?? '',
        system_role: systemRole,
        // Sign-in through the LMS only, as SAML accounts.
        password_hash: null,
        // The LMS gave the name, so the first-time setup wizard is skipped; without one it asks.
        has_run_first_time_setup: named !== null,
        created_at: now,
        updated_at: now,
      };
    });
    const inserted = [];
    for (const batch of batches(rows, INSERT_BATCH)) {
      inserted.push(
        ...(await k
          .insertInto('users')
          .values(batch as never)
          // A launch that created the same address (or took the username) meanwhile: read below.
          .onConflict((oc) => oc.doNothing())
          .returning(['id', 'email', 'system_role'])
          .execute()),
      );
    }
    for (const row of inserted) {
      byEmail.set(row.email.toLowerCase(), { id: row.id, system_role: row.system_role as SystemRole });
      created.add(row.email.toLowerCase());
    }
    const missed = emails.filter((e) => !byEmail.has(e));
    if (missed.length > 0) for (const [email, user] of await usersByEmail(em, missed)) byEmail.set(email, user);
  }

  // 4. Link each (issuer, sub) to its account; a link made meanwhile by a launch wins. An account
  // that administers users is never claimed by email: where people may edit their own address in
  // the LMS, anyone could otherwise take it.
  const links: typeof unlinked = [];
  for (const p of unlinked) {
    const user = byEmail.get(p.email);
    if (!user) outcomes.set(p.claims.sub, { error: 'Could not create an account (its username was taken meanwhile); try again' });
    else if (!claimableByEmail(user.system_role)) outcomes.set(p.claims.sub, { error: ADMIN_BY_EMAIL });
    else links.push(p);
  }
  if (links.length === 0) return outcomes;
  const made = [];
  for (const batch of batches(links, INSERT_BATCH)) {
    made.push(
      ...(await k
        .insertInto('lti_identities')
        .values(batch.map((p) => ({ user_id: byEmail.get(p.email)!.id, issuer, sub: p.claims.sub, created_at: sql<string>`now()` })) as never)
        .onConflict((oc) => oc.columns(['issuer', 'sub']).doNothing())
        .returning(['sub'])
        .execute()),
    );
  }
  const madeSubs = new Set(made.map((r) => r.sub));
  const raced = links.filter((p) => !madeSubs.has(p.claims.sub)).map((p) => p.claims.sub);
  const racedTo = raced.length
    ? new Map(
        (
          await k
            .selectFrom('lti_identities as i')
            .innerJoin('users as u', 'u.id', 'i.user_id')
            .select(['i.sub', 'u.id', 'u.system_role'])
            .where('i.issuer', '=', issuer)
            .where('i.sub', '=', anyOf(raced))
            .execute()
        ).map((r) => [r.sub, r as Found]),
      )
    : new Map<string, Found>();
  for (const p of links) {
    const user = racedTo.get(p.claims.sub) ?? byEmail.get(p.email)!;
    outcomes.set(p.claims.sub, { user: { userId: user.id, systemRole: user.system_role, created: created.has(p.email) && !racedTo.has(p.claims.sub) } });
  }
  return outcomes;
}

/** Accounts by lower-cased address; the oldest when two differ only in case. */
async function usersByEmail(em: Em, emails: string[]): Promise<Map<string, Found>> {
  const rows = await db(em)
    .selectFrom('users')
    .select(['id', 'system_role', sql<string>`lower(email)`.as('key')])
    .where(sql<string>`lower(email)`, '=', anyOf(emails))
    .orderBy('id')
    .execute();
  const found = new Map<string, Found>();
  for (const row of rows) if (!found.has(row.key)) found.set(row.key, { id: row.id, system_role: row.system_role as SystemRole });
  return found;
}

/**
 * One person (the launch): their account, matched or created with `systemRole`; 400 when they can
 * be neither (no usable email address and no link yet).
 */
export async function findOrCreateLtiUser(em: Em, platform: { issuer: string }, claims: LtiPersonClaims, systemRole: SystemRole): Promise<LtiUser> {
  const outcome = (await findOrCreateLtiUsers(em, platform.issuer, [{ claims, systemRole }])).get(claims.sub)!;
  if ('error' in outcome) throw badRequest(outcome.error);
  return outcome.user;
}
