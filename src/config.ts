import { resolve } from 'node:path';
import { type Environment, environment } from './config/schema.ts';

export { DEFAULT_POOL_SIZE } from './config/schema.ts';

/** Which halves of the service this process runs: both (default), only HTTP, or only jobs. */
export type ServiceRole = 'all' | 'api' | 'worker';
export type AuthMethod = 'database' | 'saml';

export interface Config {
  port: number;
  host: string;
  /** Unset means: run an embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** The directory of stored files (STORAGE_URL's `file://` path, STORAGE_ROOT or `DATA_DIR/files`), unless `objectStorage` is set. */
  storageRoot: string;
  /** Stored files in an S3-compatible bucket instead (an `s3://` STORAGE_URL); undefined: the directory. */
  objectStorage: { bucket: string; prefix: string; forcePathStyle: boolean; timeoutMs: number } | undefined;
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
  /** Winnowing of code similarity (src/domain/code-similarity.ts): tokens per k-gram, k-grams per window. */
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
  /** Online-test packages (docs/online-tests.md): as uploaded, and their entries unpacked. */
  scormPackage: { maxBytes: number; maxUnpackedBytes: number };
  /**
   * LTI 1.3 (docs/lti.md): the secret the tool's private keys are encrypted with (undefined: LTI is off,
   * 503), and the tool's public base URL (no trailing slash; undefined: unknown, so no dynamic registration).
   */
  lti: { keySecret: string | undefined; toolUrl?: string };
  /** Failed sign-ins allowed per (client address, username) and per client address in one window; 0 turns a limit off. */
  signInThrottle: { maxFailuresPerUser: number; maxFailuresPerAddress: number; windowSeconds: number };
  /** Fastify's trustProxy: whether (or which) proxies' X-Forwarded-For names the client address. */
  trustProxy: boolean | string[];
  /** The least severe log line written (pino's levels; src/lib/logger.ts). */
  logLevel: Environment['LOG_LEVEL'];
  /** GET /metrics: the bearer token it requires (unset: open), and the port of its own listener (unset: none). */
  metrics: { token: string | undefined; port: number | undefined };
  /** How long a stop waits for requests in flight and running jobs before cutting them off. */
  shutdownGraceSeconds: number;
  /**
   * The API's database pool: `poolSize` connections, and as many requests at once working with
   * the database; others wait in memory, in order, for at most `queueTimeoutMs` (then 503, busy).
   * `connectTimeoutMs` bounds one attempt to connect (then 503, unavailable).
   */
  database: { poolSize: number; queueTimeoutMs: number; connectTimeoutMs: number };
  /** How long a request body may take to arrive: on any route, and on upload routes (src/http/limits.ts). */
  http: { bodyTimeoutMs: number; uploadBodyTimeoutMs: number };
  /** Live updates (src/live): open subscriptions per process, and how long events are kept for reconnecting clients. */
  live: { maxSubscriptions: number; keepMs: number; recheckMs: number };
  /** Notification e-mails: the SMTP server (unset: none are sent), the sender, and the web client's address for links. */
  mail: { smtpUrl: string | undefined; from: string; webUrl: string | undefined };
}

type Env = Record<string, string | undefined>;

/**
 * Reads the whole configuration from the environment (the variables, their defaults and their checks
 * are in src/config/schema.ts; docs/configuration.md's table lists them). An empty variable counts as unset.
 * A wrong value stops the start with one line per mistake, each naming its variable.
 */
export function loadConfig(env: Env = process.env): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = environment.safeParse(given);
  if (!result.success) {
    // A variable's message follows its name ("must be ..."); a rule across variables words its whole message.
    throw new Error(result.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')} ${issue.message}` : issue.message)).join('\n'));
  }
  return toConfig(result.data);
}

/** The settings in the shape the service uses: grouped, durations in ms, paths absolute, derived defaults filled in. */
function toConfig(env: Environment): Config {
  const dataDir = resolve(env.DATA_DIR);
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    storageRoot: resolve(env.STORAGE_URL?.kind === 'file' ? env.STORAGE_URL.root : (env.STORAGE_ROOT ?? resolve(dataDir, 'files'))),
    objectStorage:
      env.STORAGE_URL?.kind === 's3'
        ? {
            bucket: env.STORAGE_URL.bucket,
            prefix: env.STORAGE_URL.prefix,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
            timeoutMs: env.S3_TIMEOUT_SECONDS * 1000,
          }
        : undefined,
    role: env.SERVICE_ROLE,
    adminUsername: env.ADMIN_USERNAME,
    adminPassword: env.ADMIN_PASSWORD,
    corsOrigins: env.CORS_ORIGINS,
    authMethod: env.AUTH_METHOD,
    saml: { idpCert: env.SAML_IDP_CERT, ssoUrl: env.SAML_SSO_URL ?? null, signoutUrl: env.SAML_SIGNOUT_URL ?? null, audience: env.SAML_AUDIENCE },
    overseerEnabled: env.OVERSEER_ENABLED,
    docker: {
      host: env.DOCKER_HOST,
      registryProxy: env.DOCKER_REGISTRY_PROXY,
      idleMs: env.DOCKER_TIMEOUT_SECONDS * 1000,
      pullMs: env.DOCKER_PULL_TIMEOUT_SECONDS * 1000,
    },
    overseer: {
      timeoutMs: env.OVERSEER_TIMEOUT_SECONDS * 1000,
      memoryMb: env.OVERSEER_MEMORY_MB,
      cpus: env.OVERSEER_CPUS,
      pidsLimit: env.OVERSEER_PIDS_LIMIT,
      user: env.OVERSEER_USER,
      workDir: resolve(env.OVERSEER_WORK_DIR),
    },
    simcheckEnabled: env.SIMCHECK_URL !== undefined,
    simcheck: {
      url: env.SIMCHECK_URL,
      apiKey: env.SIMCHECK_API_KEY,
      webhookSecret: env.SIMCHECK_WEBHOOK_SECRET,
      indexSubmissions: env.SIMCHECK_INDEX_SUBMISSIONS,
      timeoutMs: env.SIMCHECK_TIMEOUT_SECONDS * 1000,
    },
    codeSimilarity: { kgramLength: env.CODE_SIMILARITY_KGRAM_LENGTH, window: env.CODE_SIMILARITY_WINDOW },
    externalName: env.EXTERNAL_NAME,
    institutionName: env.INSTITUTION_NAME ?? env.EXTERNAL_NAME,
    pdfFallbackFont: env.PDF_FALLBACK_FONT,
    privacyStatement: env.PRIVACY_STATEMENT,
    plagiarismStatement: env.PLAGIARISM_STATEMENT,
    workerConcurrency: env.WORKER_CONCURRENCY,
    workerLiveness: { heartbeatSeconds: env.WORKER_HEARTBEAT_SECONDS, staleSeconds: env.WORKER_STALE_SECONDS },
    threads: { threads: env.CPU_THREADS, memoryMb: env.CPU_THREAD_MEMORY_MB },
    pdfMaxPagesPerFile: env.PDF_MAX_PAGES_PER_FILE,
    sessionCacheSeconds: env.SESSION_CACHE_SECONDS,
    maxBodyBytes: env.MAX_BODY_BYTES,
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    scormPackage: { maxBytes: env.SCORM_PACKAGE_MAX_BYTES, maxUnpackedBytes: env.SCORM_PACKAGE_MAX_UNPACKED_BYTES },
    lti: { keySecret: env.LTI_KEY_SECRET, toolUrl: env.LTI_TOOL_URL },
    signInThrottle: {
      maxFailuresPerUser: env.SIGNIN_MAX_FAILURES_PER_USER,
      maxFailuresPerAddress: env.SIGNIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: env.SIGNIN_THROTTLE_WINDOW_SECONDS,
    },
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    database: {
      poolSize: env.DATABASE_POOL_SIZE,
      queueTimeoutMs: env.DATABASE_QUEUE_TIMEOUT_SECONDS * 1000,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
    },
    http: { bodyTimeoutMs: env.REQUEST_BODY_TIMEOUT_SECONDS * 1000, uploadBodyTimeoutMs: env.UPLOAD_BODY_TIMEOUT_SECONDS * 1000 },
    // Re-authorisation of open subscriptions (src/live/stream.ts): fixed, tests shorten it.
    live: { maxSubscriptions: env.LIVE_MAX_SUBSCRIPTIONS, keepMs: env.LIVE_EVENTS_KEEP_SECONDS * 1000, recheckMs: 30_000 },
    mail: {
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM ?? `"${env.EXTERNAL_NAME.replace(/["\\]/g, '')}" <no-reply@${mailHost(env.WEB_CLIENT_URL)}>`,
      webUrl: env.WEB_CLIENT_URL,
    },
  };
}

/** The web client's host, for the default sender's no-reply address. */
function mailHost(webUrl: string | undefined): string {
  return (webUrl && new URL(webUrl).hostname) || 'localhost';
}
