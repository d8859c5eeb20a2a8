import { availableParallelism, tmpdir } from 'node:os';
import { resolve } from 'node:path';

/** Which halves of the service this process runs: both (default), only HTTP, or only jobs. */
export type ServiceRole = 'all' | 'api' | 'worker';
export type AuthMethod = 'database' | 'saml';

export interface Config {
  port: number;
  host: string;
  /** Unset means: run an embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  storageRoot: string;
  role: ServiceRole;
  adminUsername: string;
  adminPassword: string | undefined;
  /** '*' or an explicit list of allowed web origins. */
  corsOrigins: '*' | string[];
  authMethod: AuthMethod;
  saml: { idpCert: string | undefined; ssoUrl: string | null; signoutUrl: string | null; audience: string | undefined };
  overseerEnabled: boolean;
  /** Timeouts in ms: `idleMs` with no word from the engine, `pullMs` for a whole image pull. */
  docker: { host: string | undefined; registryProxy: string | undefined; idleMs: number; pullMs: number };
  /** Limits and identity of each automated-assessment container (build, then run). */
  overseer: { timeoutMs: number; memoryMb: number; cpus: number; pidsLimit: number; user: string; workDir: string };
  /** On when a similarity-check service URL is configured (SIMCHECK_URL). */
  simcheckEnabled: boolean;
  /** The TurnItIn-style similarity service: base URL, API key, webhook signing secret, request timeout. */
  simcheck: { url: string | undefined; apiKey: string; webhookSecret: string; indexSubmissions: boolean; timeoutMs: number };
  /** Winnowing of code similarity (src/similarity/code.ts): tokens per k-gram, k-grams per window. */
  codeSimilarity: { kgramLength: number; window: number };
  externalName: string;
  /** Printed at the top of submission PDF covers. */
  institutionName: string;
  /** A TTF/OTF used for characters the DejaVu fonts lack (for example a CJK font); unset: none. */
  pdfFallbackFont: string | undefined;
  privacyStatement: string;
  plagiarismStatement: string;
  workerConcurrency: number;
  /**
   * Job workers' liveness (workers/liveness.ts): each refreshes its heartbeat row every
   * `heartbeatSeconds`; one silent for `staleSeconds` is presumed dead and its jobs are freed.
   */
  workerLiveness: { heartbeatSeconds: number; staleSeconds: number };
  /** Worker threads for CPU-heavy work (src/threads/pool.ts): how many at most, and each one's heap cap. */
  threads: { threads: number; memoryMb: number };
  /** Pages of a PDF each code, text or notebook file may fill; the rest is left out with a note. */
  pdfMaxPagesPerFile: number;
  /** How long a verified token is trusted without asking the database; 0 turns the cache off. */
  sessionCacheSeconds: number;
  /** Largest JSON, form or plain multipart body an operation reads; larger ones get 413. */
  maxBodyBytes: number;
  /** Default cap on the files of one upload (an upload route may set its own); larger get 413. */
  maxUploadBytes: number;
  /** Failed sign-ins allowed per (client address, username) and per client address in one window; 0 turns a limit off. */
  signInThrottle: { maxFailuresPerUser: number; maxFailuresPerAddress: number; windowSeconds: number };
  /** Fastify's trustProxy: whether (or which) proxies' X-Forwarded-For names the client address. */
  trustProxy: boolean | string[];
  logRequests: boolean;
  /** How long a stop waits for requests in flight and running jobs before cutting them off. */
  shutdownGraceSeconds: number;
  /**
   * The API's database pool: `poolSize` connections, and as many requests at once working with
   * the database; others wait in memory, in order, for at most `queueTimeoutMs` (then 503, busy).
   * `connectTimeoutMs` bounds one attempt to connect (then 503, unavailable).
   */
  database: { poolSize: number; queueTimeoutMs: number; connectTimeoutMs: number };
  /** How long a request body may take to arrive: on any route, and on upload routes (src/http-limits.ts). */
  http: { bodyTimeoutMs: number; uploadBodyTimeoutMs: number };
  /** Notification e-mails: the SMTP server (unset: none are sent), the sender, and the web client's address for links. */
  mail: { smtpUrl: string | undefined; from: string; webUrl: string | undefined };
}

type Env = Record<string, string | undefined>;

/** Connections of the API's database pool unless DATABASE_POOL_SIZE says otherwise (docs/operating/database-load.md). */
export const DEFAULT_POOL_SIZE = 10;

function flag(value: string | undefined, fallback = false): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** `true`/`false`, or a comma-separated list of the proxies' addresses or CIDR ranges. */
function trustProxy(value: string | undefined): boolean | string[] {
  const v = (value ?? '').trim();
  if (v === '' || ['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
  if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Single sign-on without an audience would accept assertions the identity provider issued to any
 * other service, and without a certificate it could verify nothing: refuse to start instead.
 */
function requireSamlSettings(env: Env): void {
  if (env.AUTH_METHOD !== 'saml') return;
  if (!env.SAML_AUDIENCE) {
    throw new Error("AUTH_METHOD=saml needs SAML_AUDIENCE: set it to this service's entity id, which every SAML assertion must name as its audience");
  }
  if (!env.SAML_IDP_CERT) {
    throw new Error("AUTH_METHOD=saml needs SAML_IDP_CERT: set it to the identity provider's signing certificate (PEM text or a path)");
  }
}

/**
 * SMTP_URL (smtp://user:pass@host:25, smtps://...), MAIL_FROM (default: the product's name at
 * no-reply@ the web client's host) and WEB_CLIENT_URL (for the notification-settings link).
 */
function mailSettings(env: Env): Config['mail'] {
  const webUrl = env.WEB_CLIENT_URL?.trim().replace(/\/+$/, '') || undefined;
  let host = 'localhost';
  if (webUrl) {
    try {
      host = new URL(webUrl).hostname || host;
    } catch {
      throw new Error(`WEB_CLIENT_URL must be an absolute URL, got "${env.WEB_CLIENT_URL}"`);
    }
  }
  const name = (env.EXTERNAL_NAME || 'Course Service').replace(/["\\]/g, '');
  return { smtpUrl: env.SMTP_URL || undefined, from: env.MAIL_FROM || `"${name}" <no-reply@${host}>`, webUrl };
}

/**
 * A killed worker's jobs run again about `staleSeconds` (plus one heartbeat) after it stopped
 * checking in; a worker must be allowed to miss at least one heartbeat before it is presumed dead.
 */
function workerLiveness(env: Env): Config['workerLiveness'] {
  const heartbeatSeconds = int(env.WORKER_HEARTBEAT_SECONDS, 5, 'WORKER_HEARTBEAT_SECONDS');
  const staleSeconds = int(env.WORKER_STALE_SECONDS, 30, 'WORKER_STALE_SECONDS');
  if (heartbeatSeconds < 1) throw new Error('WORKER_HEARTBEAT_SECONDS must be at least 1');
  if (staleSeconds < 2 * heartbeatSeconds) {
    throw new Error(`WORKER_STALE_SECONDS must be at least twice WORKER_HEARTBEAT_SECONDS (${heartbeatSeconds}), got ${staleSeconds}`);
  }
  return { heartbeatSeconds, staleSeconds };
}

/** Reads the whole configuration from the environment; see the README for the table. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolve(env.DATA_DIR || '.data');
  const origins = (env.CORS_ORIGINS ?? '*').trim();
  requireSamlSettings(env);
  const windowSeconds = int(env.SIGNIN_THROTTLE_WINDOW_SECONDS, 900, 'SIGNIN_THROTTLE_WINDOW_SECONDS');
  if (windowSeconds < 1) throw new Error('SIGNIN_THROTTLE_WINDOW_SECONDS must be at least 1');
  return {
    port: int(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    storageRoot: resolve(env.STORAGE_ROOT || resolve(dataDir, 'files')),
    role: oneOf(env.SERVICE_ROLE, ['all', 'api', 'worker'] as const, 'all', 'SERVICE_ROLE'),
    adminUsername: (env.ADMIN_USERNAME || 'admin').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    corsOrigins:
      origins === '*' || origins === ''
        ? '*'
        : origins
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean),
    authMethod: oneOf(env.AUTH_METHOD, ['database', 'saml'] as const, 'database', 'AUTH_METHOD'),
    saml: {
      idpCert: env.SAML_IDP_CERT || undefined,
      ssoUrl: env.SAML_SSO_URL || null,
      signoutUrl: env.SAML_SIGNOUT_URL || null,
      audience: env.SAML_AUDIENCE || undefined,
    },
    overseerEnabled: flag(env.OVERSEER_ENABLED),
    docker: {
      host: env.DOCKER_HOST || undefined,
      registryProxy: env.DOCKER_REGISTRY_PROXY || undefined,
      idleMs: int(env.DOCKER_TIMEOUT_SECONDS, 60, 'DOCKER_TIMEOUT_SECONDS') * 1000,
      pullMs: int(env.DOCKER_PULL_TIMEOUT_SECONDS, 1800, 'DOCKER_PULL_TIMEOUT_SECONDS') * 1000,
    },
    overseer: {
      // Each of build and run is stopped (killed) after this long.
      timeoutMs: int(env.OVERSEER_TIMEOUT_SECONDS, 20, 'OVERSEER_TIMEOUT_SECONDS') * 1000,
      // Memory and memory+swap of a container; beyond it the kernel kills the step (exit 137).
      memoryMb: int(env.OVERSEER_MEMORY_MB, 100, 'OVERSEER_MEMORY_MB'),
      // CPUs a container may use (fractions allowed, e.g. 0.5).
      cpus: positive(env.OVERSEER_CPUS, 1, 'OVERSEER_CPUS'),
      // Processes a container may hold at once (stops fork bombs).
      pidsLimit: int(env.OVERSEER_PIDS_LIMIT, 256, 'OVERSEER_PIDS_LIMIT'),
      // The unprivileged uid:gid the scripts run as (a worker that is not root runs them as itself).
      user: env.OVERSEER_USER || '1000:1000',
      // Where sandboxes are prepared; the engine must see this path (it is bind-mounted).
      workDir: resolve(env.OVERSEER_WORK_DIR || tmpdir()),
    },
    simcheckEnabled: Boolean(env.SIMCHECK_URL),
    simcheck: {
      url: env.SIMCHECK_URL || undefined,
      apiKey: env.SIMCHECK_API_KEY ?? '',
      webhookSecret: env.SIMCHECK_WEBHOOK_SECRET ?? '',
      // Whether checked documents join the service's index, so later work is compared with them.
      indexSubmissions: flag(env.SIMCHECK_INDEX_SUBMISSIONS),
      timeoutMs: int(env.SIMCHECK_TIMEOUT_SECONDS, 30, 'SIMCHECK_TIMEOUT_SECONDS') * 1000,
    },
    codeSimilarity: {
      // Shorter k-grams find smaller shared pieces of code, and more pieces shared by chance.
      kgramLength: Math.max(2, int(env.CODE_SIMILARITY_KGRAM_LENGTH, 12, 'CODE_SIMILARITY_KGRAM_LENGTH')),
      // At least one fingerprint is kept from every this many k-grams.
      window: Math.max(1, int(env.CODE_SIMILARITY_WINDOW, 8, 'CODE_SIMILARITY_WINDOW')),
    },
    externalName: env.EXTERNAL_NAME || 'Course Service',
    institutionName: env.INSTITUTION_NAME || env.EXTERNAL_NAME || 'Course Service',
    pdfFallbackFont: env.PDF_FALLBACK_FONT || undefined,
    privacyStatement:
      env.PRIVACY_STATEMENT ||
      'Your submissions are stored by your institution to assess your work and give you feedback. Staff teaching your unit can see them.',
    plagiarismStatement:
      env.PLAGIARISM_STATEMENT || 'By submitting you declare that the work is your own, except where you have acknowledged the work of others.',
    workerConcurrency: int(env.WORKER_CONCURRENCY, 2, 'WORKER_CONCURRENCY'),
    workerLiveness: workerLiveness(env),
    threads: {
      // All cores but the event loop's by default; at least one.
      threads: Math.max(1, int(env.CPU_THREADS, availableParallelism() - 1, 'CPU_THREADS')),
      // Enough for the largest legitimate render measured (docs/operating/heavy-work.md); past it the thread ends, not the process.
      memoryMb: Math.max(32, int(env.CPU_THREAD_MEMORY_MB, 1024, 'CPU_THREAD_MEMORY_MB')),
    },
    pdfMaxPagesPerFile: Math.max(1, int(env.PDF_MAX_PAGES_PER_FILE, 200, 'PDF_MAX_PAGES_PER_FILE')),
    sessionCacheSeconds: int(env.SESSION_CACHE_SECONDS, 5, 'SESSION_CACHE_SECONDS'),
    maxBodyBytes: int(env.MAX_BODY_BYTES, 1024 * 1024, 'MAX_BODY_BYTES'),
    maxUploadBytes: int(env.MAX_UPLOAD_BYTES, 10_000_000, 'MAX_UPLOAD_BYTES'),
    signInThrottle: {
      maxFailuresPerUser: int(env.SIGNIN_MAX_FAILURES_PER_USER, 10, 'SIGNIN_MAX_FAILURES_PER_USER'),
      maxFailuresPerAddress: int(env.SIGNIN_MAX_FAILURES_PER_ADDRESS, 100, 'SIGNIN_MAX_FAILURES_PER_ADDRESS'),
      windowSeconds,
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    logRequests: flag(env.LOG_REQUESTS),
    shutdownGraceSeconds: int(env.SHUTDOWN_GRACE_SECONDS, 10, 'SHUTDOWN_GRACE_SECONDS'),
    database: {
      poolSize: Math.max(1, int(env.DATABASE_POOL_SIZE, DEFAULT_POOL_SIZE, 'DATABASE_POOL_SIZE')),
      queueTimeoutMs: positive(env.DATABASE_QUEUE_TIMEOUT_SECONDS, 60, 'DATABASE_QUEUE_TIMEOUT_SECONDS') * 1000,
      connectTimeoutMs: positive(env.DATABASE_CONNECT_TIMEOUT_SECONDS, 5, 'DATABASE_CONNECT_TIMEOUT_SECONDS') * 1000,
    },
    http: {
      bodyTimeoutMs: positive(env.REQUEST_BODY_TIMEOUT_SECONDS, 60, 'REQUEST_BODY_TIMEOUT_SECONDS') * 1000,
      uploadBodyTimeoutMs: positive(env.UPLOAD_BODY_TIMEOUT_SECONDS, 600, 'UPLOAD_BODY_TIMEOUT_SECONDS') * 1000,
    },
    mail: mailSettings(env),
  };
}
