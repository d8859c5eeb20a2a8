// Reading one LMS course's roster through LTI Names and Role Provisioning Services 2.0: GET the
// context's memberships URL with a client-credentials token of the NRPS scope, following
// `Link: <…>; rel="next"` pages. All or nothing: a roster that could not be read whole is an
// error, since acting on part of it would withdraw the students of the pages never read.
import { z } from 'zod';
import type { ILtiPlatform } from '../../../schema/index.ts';
import { nextPageUrl } from '../../adapters/link-header.ts';
import { LtiPlatformError, ltiFetch } from '../../adapters/lti-http.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Clock } from '../../lib/clock.ts';
import { forgetServiceToken, LTI_SCOPES, serviceToken } from './service-token.ts';

export const NRPS_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
/** Pages read per course at most: a platform whose next links never end is an error, not a loop. */
export const ROSTER_MAX_PAGES = 100;
/** Members per course at most (the largest courses have a few thousand). */
export const ROSTER_MAX_MEMBERS = 50_000;

export const MEMBER_STATUSES = ['Active', 'Inactive', 'Deleted'] as const;

/** One member as NRPS describes them; `status` is Active when the platform leaves it out. */
const memberSchema = z
  .object({
    user_id: z.string().trim().min(1).max(255),
    roles: z.array(z.string()).default([]),
    status: z.enum(MEMBER_STATUSES).default('Active'),
    email: z.string().nullish(),
    given_name: z.string().nullish(),
    family_name: z.string().nullish(),
    name: z.string().nullish(),
  })
  .loose();
export type RosterMember = z.output<typeof memberSchema>;

const pageSchema = z.object({ members: z.array(z.unknown()) }).loose();

export interface RosterProblem {
  user_id: string;
  error: string;
}

export interface Roster {
  members: RosterMember[];
  /** Members the page described in a form that cannot be used (no user_id, an unknown status). */
  problems: RosterProblem[];
  pages: number;
}

function describe(issue: z.core.$ZodIssue): string {
  return `${issue.path.join('.') || 'member'} is invalid`;
}

/**
 * The whole roster at `membershipsUrl`. Throws LtiPlatformError when the platform refuses the
 * token or a page, answers something that is not a membership container, or pages beyond the caps.
 * Next links must stay on the memberships URL's origin: the bearer token is sent with each page.
 */
export async function fetchRoster(em: Em, config: Pick<Config, 'lti'>, clock: Clock, platform: ILtiPlatform, membershipsUrl: string): Promise<Roster> {
  const scopes = [LTI_SCOPES.memberships];
  const origin = new URL(membershipsUrl).origin;
  const roster: Roster = { members: [], problems: [], pages: 0 };
  const seen = new Set<string>();
  let refreshed = false;
  let url: string | null = membershipsUrl;
  while (url !== null) {
    if (seen.has(url)) throw new LtiPlatformError(200, `GET ${url}: the next link points at a page already read`);
    if (roster.pages >= ROSTER_MAX_PAGES) throw new LtiPlatformError(200, `GET ${membershipsUrl}: more than ${ROSTER_MAX_PAGES} pages`);
    seen.add(url);
    let answer: Awaited<ReturnType<typeof ltiFetch>>;
    try {
      answer = await ltiFetch(url, { bearer: await serviceToken(em, config, clock, platform, scopes), accept: NRPS_MEDIA_TYPE });
    } catch (error) {
      // A token the platform no longer honours (revoked, or its clock runs ahead): one new one.
      if (!(error instanceof LtiPlatformError) || error.status !== 401 || refreshed) throw error;
      refreshed = true;
      forgetServiceToken(platform, scopes);
      answer = await ltiFetch(url, { bearer: await serviceToken(em, config, clock, platform, scopes), accept: NRPS_MEDIA_TYPE });
    }
    roster.pages += 1;
    const page = pageSchema.safeParse(answer.json);
    if (!page.success) throw new LtiPlatformError(answer.status, `GET ${url}: the answer is not a membership container (no members list)`);
    if (roster.members.length + page.data.members.length > ROSTER_MAX_MEMBERS) {
      throw new LtiPlatformError(answer.status, `GET ${membershipsUrl}: more than ${ROSTER_MAX_MEMBERS} members`);
    }
    for (const raw of page.data.members) {
      const member = memberSchema.safeParse(raw);
      if (member.success) roster.members.push(member.data);
      else {
        const id = (raw as { user_id?: unknown } | null)?.user_id;
        roster.problems.push({ user_id: typeof id === 'string' ? id.slice(0, 255) : '', error: member.error.issues.map(describe).join(', ') });
      }
    }
    try {
      url = nextPageUrl(answer.headers, url);
    } catch (error) {
      throw new LtiPlatformError(answer.status, `GET ${url}: ${(error as Error).message}`);
    }
    if (url !== null && new URL(url).origin !== origin) {
      throw new LtiPlatformError(answer.status, `the next page's link leaves ${origin}: ${url.slice(0, 200)}`);
    }
  }
  return roster;
}
