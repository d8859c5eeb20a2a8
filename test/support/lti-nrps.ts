// A course's roster served by the loopback platform as an LTI NRPS 2.0 memberships endpoint: the
// bearer token's scope is checked, members are paged with `Link: <…>; rel="next"`, and each request
// is recorded. Tests change `members` between syncs to play people joining and leaving.
import type { ServerResponse } from 'node:http';
import { LTI_SCOPES } from '../../src/operations/lti/service-token.ts';
import type { LoopbackPlatform, PlatformRequest } from './lti-platform.ts';

export const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
export const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
export const TA = 'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant';
export const NRPS_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';

export interface Member {
  user_id?: string;
  roles?: string[];
  status?: string;
  email?: string;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** One course's roster as the platform serves it, and what it received. */
export interface Course {
  members: Member[];
  pageSize: number;
  /** The scope the endpoint demands (the NRPS scope unless a test changes it). */
  requiredScope: string;
  /** Answer 401 to this many requests first (a token the platform stopped honouring). */
  unauthorisedFirst: number;
  /** A next link that points back at the first page, for ever. */
  loop: boolean;
  requests: { accept: string | undefined; page: number; scopes: string[] }[];
}

export function course(members: Member[] = [], pageSize = 100): Course {
  return { members, pageSize, requiredScope: LTI_SCOPES.memberships, unauthorisedFirst: 0, loop: false, requests: [] };
}

/** Serves `c` at `path` on the platform (its memberships URL is `platform.url(path)`). */
export function serveRoster(platform: LoopbackPlatform, path: string, c: Course): void {
  platform.handle(path, ({ req, url, scopes }: PlatformRequest, res: ServerResponse) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    c.requests.push({ accept: req.headers.accept, page, scopes });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': NRPS_TYPE, ...headers }).end(JSON.stringify(body));
    };
    if (c.unauthorisedFirst > 0) {
      c.unauthorisedFirst -= 1;
      return json(401, { error: 'invalid_token' });
    }
    if (!scopes.includes(c.requiredScope)) return json(403, { error: 'insufficient_scope' });
    const members = c.members.slice((page - 1) * c.pageSize, page * c.pageSize);
    const more = page * c.pageSize < c.members.length;
    const headers: Record<string, string> = {};
    if (c.loop) headers.link = `<${platform.url(path)}>; rel="next"`;
    else if (more) headers.link = `<${path}?page=${page + 1}>; rel="next", <${path}?page=1>; rel="first"`;
    json(200, { id: platform.url(path), context: { id: 'context-1', title: 'Intro' }, members }, headers);
  });
}
