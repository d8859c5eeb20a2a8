import type { Config } from '../config.ts';
import type { Em, Orm } from '../db/orm.ts';
import type { Clock } from '../lib/clock.ts';
import { jobQueue, type JobQueue } from '../lib/jobs.ts';
import { SessionCache } from '../lib/session-cache.ts';

/** Long-lived things a request may use. */
export interface Services {
  orm: Orm;
  config: Config;
  clock: Clock;
  sessions: SessionCache;
}

export function createServices(orm: Orm, config: Config, clock: Clock): Services {
  return { orm, config, clock, sessions: new SessionCache(config.sessionCacheSeconds * 1000) };
}

/** What the caller presented: the `Username` and `Auth-Token` (or `Auth_Token`) headers. */
export interface Credentials {
  username?: string;
  token?: string;
}

export interface Context {
  em: Em;
  config: Config;
  clock: Clock;
  jobs: JobQueue;
  sessions: SessionCache;
  credentials: Credentials;
}

export function createContext(services: Services, credentials: Credentials): Context {
  const em = services.orm.em.fork();
  return { em, config: services.config, clock: services.clock, jobs: jobQueue(em), sessions: services.sessions, credentials };
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * Reads credentials the ways the real clients send them: headers `Username` with `Auth-Token`
 * (Angular client) or `Auth_Token` (spec, legacy client); query parameters as a fallback.
 */
export function readCredentials(headers: Record<string, unknown>, query: Record<string, unknown> = {}): Credentials {
  return {
    username: first(headers['username']) ?? first(query['Username']) ?? first(query['username']),
    token:
      first(headers['auth-token']) ??
      first(headers['auth_token']) ??
      first(query['Auth-Token']) ??
      first(query['auth_token']) ??
      first(query['Auth_Token']) ??
      first(query['authToken']),
  };
}
