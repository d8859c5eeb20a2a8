import type { Config } from '../config.ts';
import { Admission } from '../db/admission.ts';
import type { Em, Orm } from '../db/orm.ts';
import type { Clock } from '../lib/clock.ts';
import { jobQueue, type JobQueue } from '../db/jobs.ts';
import { createLogger, type Logger } from '../lib/logger.ts';
import { SessionCache } from '../operations/auth/session-cache.ts';
import { serviceMetrics, type Metrics } from '../metrics/index.ts';
import { createStorage, type Storage } from '../storage/index.ts';
import { LiveHub } from '../live/hub.ts';

/** Long-lived things a request may use. */
export interface Services {
  orm: Orm;
  config: Config;
  clock: Clock;
  sessions: SessionCache;
  /** Stored files (src/storage): the directory STORAGE_ROOT, or the bucket of an `s3://` STORAGE_URL. */
  storage: Storage;
  /** Turns with the database: as many at once as the pool has connections (src/db/admission.ts). */
  admission: Admission;
  /** The process's Prometheus metrics (src/metrics), served at GET /metrics. */
  metrics: Metrics;
  /** The process's one logger (src/lib/logger.ts): Fastify's, the job runner's and the service's own lines. */
  logger: Logger;
  /** Live updates (src/live): the process's LISTEN connection and its open subscriptions. */
  live: LiveHub;
}

/** `logger` defaults to a new one at LOG_LEVEL on stdout; the running service passes its own (src/main.ts). */
export function createServices(orm: Orm, config: Config, clock: Clock, logger: Logger = createLogger({ level: config.logLevel })): Services {
  const admission = new Admission(config.database.poolSize, config.database.queueTimeoutMs);
  return {
    orm,
    config,
    clock,
    sessions: new SessionCache(config.sessionCacheSeconds * 1000),
    storage: createStorage(config),
    admission,
    metrics: serviceMetrics(orm, config, admission, logger),
    logger,
    live: new LiveHub({ databaseUrl: orm.config.get('clientUrl')!, ...config.live, logger }),
  };
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
  storage: Storage;
  credentials: Credentials;
  /** The client's address (behind proxies as TRUST_PROXY allows); unknown for in-process callers. */
  clientIp: string | undefined;
  /**
   * Runs `fn` once the request's writes are committed: inside a transaction (`inTransaction`)
   * after a successful commit, and never after a rollback; outside one, at once. Caches of
   * database rows are updated here, so that no request can re-read and re-cache the old row
   * between the change and its commit.
   */
  afterCommit: (fn: () => void) => void;
  /** Live updates: set for HTTP requests (subscriptions), not for in-process callers. */
  live?: { hub: LiveHub; orm: Orm };
  /** Where a procedure waits for its turn with the database; none for callers that need no turn. */
  admission?: Admission;
  /** Set once the request has its turn, so that a procedure calling another does not wait twice. */
  admitted?: boolean;
}

export function createContext(services: Services, credentials: Credentials, clientIp?: string): Context {
  const em = services.orm.em.fork();
  return {
    em,
    config: services.config,
    clock: services.clock,
    jobs: jobQueue(em),
    sessions: services.sessions,
    storage: services.storage,
    credentials,
    clientIp,
    afterCommit: (fn) => fn(),
    admission: services.admission,
    live: { hub: services.live, orm: services.orm },
  };
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * Reads credentials the ways the real clients send them: headers `Username` with `Auth-Token`
 * (Angular client) or `Auth_Token` (spec, legacy client). Never from the query string: URLs end
 * up in access logs and browser histories, and the web client never puts credentials there.
 */
export function readCredentials(headers: Record<string, unknown>): Credentials {
  return {
    username: first(headers.username),
    token: first(headers['auth-token']) ?? first(headers.auth_token),
  };
}
