// Every environment variable the service reads, once: how its text is read, its default, and what it
// means. The configuration table in docs/configuration.md shows the same (test/domain/config-table.test.ts keeps the two
// alike). A default computed from something else is labelled for the table with `defaultLabel`; a
// variable without `.default()` is unset unless given, and src/config.ts derives what follows from that.
import { availableParallelism, tmpdir } from 'node:os';
import { z } from 'zod';
import { absoluteUrl, atLeast, flag, int, oneOf, origins, positive, raiseTo, storageUrl, trustProxy } from './parsers.ts';

declare module 'zod/v4/core' {
  interface GlobalMeta {
    /** The table's default when it is not a literal value, e.g. "generated" or "cores − 1". */
    defaultLabel?: string;
  }
}

/** Connections of the API's database pool unless DATABASE_POOL_SIZE says otherwise (docs/operating/database-load.md). */
export const DEFAULT_POOL_SIZE = 10;

const text = () => z.string();
const statement = (defaultText: string) =>
  text().default(defaultText).describe("Shown before a student's first upload").meta({ defaultLabel: 'built-in text' });

const variables = z.object({
  PORT: int().default(3000).describe('HTTP port'),
  HOST: text().default('0.0.0.0').describe('HTTP bind address'),
  DATABASE_URL: text().optional().describe('PostgreSQL URL. Unset: an embedded PostgreSQL with its data under `DATA_DIR/pg`'),
  DATA_DIR: text().default('.data').describe('Local data directory (embedded database, default file storage)'),
  STORAGE_ROOT: text().optional().describe('Root directory of stored files (task sheets, submissions, PDFs)').meta({ defaultLabel: '`DATA_DIR/files`' }),
  STORAGE_URL: storageUrl()
    .optional()
    .describe(
      'Where stored files live: `file:///path` (a directory) or `s3://bucket/optional/prefix` (S3-compatible object storage; ' +
        "credentials, region and endpoint from the AWS SDK's own variables, see docs/operating/object-storage.md)",
    )
    .meta({ defaultLabel: '`file://` + `STORAGE_ROOT`' }),
  S3_FORCE_PATH_STYLE: flag()
    .default(false)
    .describe('With an `s3://` `STORAGE_URL`, put the bucket in the path rather than the host name (MinIO, Ceph, Garage and most stores that are not AWS)'),
  S3_TIMEOUT_SECONDS: int()
    .refine(atLeast(1), 'must be at least 1')
    .default(30)
    .describe(
      'With an `s3://` `STORAGE_URL`, how long connecting to the store, or a request with no bytes moving, may take before it fails (503, or the job is retried)',
    ),
  SERVICE_ROLE: oneOf(['all', 'api', 'worker'])
    .default('all')
    .describe('`all`, `api` (HTTP only) or `worker` (jobs only). Several `api` and `worker` processes can share one database; split roles need `DATABASE_URL`'),

  // Administration, callers and sign-in
  ADMIN_USERNAME: text()
    .transform((name) => name.toLowerCase())
    .default('admin')
    .describe('Admin created on first start with an empty database'),
  ADMIN_PASSWORD: text().optional().describe("That Admin's password; when unset a random one is printed once").meta({ defaultLabel: 'generated' }),
  CORS_ORIGINS: origins().default('*').describe('`*` or a comma-separated list of web origins allowed to call the API'),
  AUTH_METHOD: oneOf(['database', 'saml'])
    .default('database')
    .describe('`database` (username and password) or `saml` (single sign-on; password sign-in still works for users that have a password)'),
  SAML_IDP_CERT: text().optional().describe("Identity provider's signing certificate (PEM text or a path to a PEM file) for `POST /api/auth/jwt`"),
  SAML_SSO_URL: text().optional().describe('Where the sign-in page sends users when `AUTH_METHOD=saml` (`redirect_to`)'),
  SAML_SIGNOUT_URL: text().optional().describe('Sign-out address reported by `/api/auth/signout_url` when `AUTH_METHOD=saml`'),
  SAML_AUDIENCE: text()
    .optional()
    .describe(
      "This service's entity id, which every assertion must name as its audience. " +
        'Required with `AUTH_METHOD=saml` (as is `SAML_IDP_CERT`): the service refuses to start without them',
    ),

  // Automated assessment in containers
  OVERSEER_ENABLED: flag().default(false).describe('Automated assessment in containers (overseer images, pulls, runs)'),
  DOCKER_HOST: text()
    .optional()
    .describe('Docker engine for image pulls and assessment runs: `unix:///var/run/docker.sock`, `tcp://host:2375`')
    .meta({ defaultLabel: 'local socket' }),
  DOCKER_REGISTRY_PROXY: text().optional().describe('Registry prefix prepended to image tags when pulling'),
  DOCKER_TIMEOUT_SECONDS: int().default(60).describe('A Docker engine call with no word from the engine for this long fails'),
  DOCKER_PULL_TIMEOUT_SECONDS: int().default(1800).describe('An image pull that has not finished after this long is recorded as failed'),
  OVERSEER_TIMEOUT_SECONDS: int().default(20).describe("Each of an assessment's build and run steps is killed after this long"),
  // Beyond it the kernel kills the step (exit 137).
  OVERSEER_MEMORY_MB: int().default(100).describe('Memory (and memory + swap) of each assessment container'),
  OVERSEER_CPUS: positive().default(1).describe('CPUs per assessment container (fractions allowed)'),
  // Stops fork bombs.
  OVERSEER_PIDS_LIMIT: int().default(256).describe('Processes an assessment container may hold'),
  // A worker that is not root runs the scripts as itself.
  OVERSEER_USER: text().default('1000:1000').describe('uid:gid the assessment scripts run as'),
  OVERSEER_WORK_DIR: text()
    .default(tmpdir)
    .describe('Where assessment sandboxes are prepared; bind-mounted, so the engine must see this path')
    .meta({ defaultLabel: 'system temp dir' }),

  // Similarity checks
  SIMCHECK_URL: text()
    .optional()
    .describe('Base URL of the document-similarity service (TurnItIn Core API v1 style); setting it turns checks on (`simcheckEnabled` / `tiiEnabled`)'),
  SIMCHECK_API_KEY: text().default('').describe('Bearer API key for that service'),
  SIMCHECK_WEBHOOK_SECRET: text()
    .default('')
    .describe('Signing secret (HMAC-SHA256) of `POST /api/tii_hook`; without it the webhook answers 404 and polling alone moves documents on'),
  SIMCHECK_INDEX_SUBMISSIONS: flag().default(false).describe("Add checked documents to the service's index"),
  SIMCHECK_TIMEOUT_SECONDS: int().default(30).describe('Timeout of each call to the service'),
  CODE_SIMILARITY_KGRAM_LENGTH: int()
    .transform(raiseTo(2))
    .default(12)
    .describe('Tokens per fingerprinted piece of code; shorter finds smaller shared pieces (and more chance ones)'),
  CODE_SIMILARITY_WINDOW: int().transform(raiseTo(1)).default(8).describe('At least one fingerprint is kept from every this many pieces'),

  // Mail, documents and what the web client shows
  SMTP_URL: text().optional().describe('SMTP server for notification e-mails (`smtp://user:pass@host:25`, `smtps://…`); unset: no mail is sent'),
  MAIL_FROM: text()
    .optional()
    .describe('Sender of every notification')
    .meta({ defaultLabel: '`"<EXTERNAL_NAME>" <no-reply@<WEB_CLIENT_URL host, else localhost>>`' }),
  WEB_CLIENT_URL: absoluteUrl()
    .optional()
    .describe("The web client's address, for the links in e-mails and where an LTI launch signs the user in (absolute URL; unset: launches answer 503)"),
  INSTITUTION_NAME: text().optional().describe('Institution printed on submission PDF covers').meta({ defaultLabel: '`EXTERNAL_NAME`' }),
  PDF_FALLBACK_FONT: text().optional().describe('A TTF/OTF font for characters DejaVu lacks (e.g. CJK) in generated PDFs'),
  EXTERNAL_NAME: text().default('Course Service').describe('Product name shown by the web client'),
  PRIVACY_STATEMENT: statement(
    'Your submissions are stored by your institution to assess your work and give you feedback. Staff teaching your unit can see them.',
  ),
  PLAGIARISM_STATEMENT: statement('By submitting you declare that the work is your own, except where you have acknowledged the work of others.'),

  // Background work
  WORKER_CONCURRENCY: int().default(2).describe('Jobs one worker process runs at once'),
  WORKER_HEARTBEAT_SECONDS: int()
    .refine(atLeast(1), 'must be at least 1')
    .default(5)
    .describe('How often each worker process refreshes its row in `worker_heartbeats`'),
  WORKER_STALE_SECONDS: int()
    .default(30)
    .describe('A worker silent this long is presumed dead and its jobs are freed for the others (at least twice the heartbeat)'),
  // All cores but the event loop's.
  CPU_THREADS: int()
    .transform(raiseTo(1))
    .default(() => Math.max(1, availableParallelism() - 1))
    .describe('Worker threads for PDF rendering, portfolio compiles and code similarity')
    .meta({ defaultLabel: 'cores − 1, at least 1' }),
  // Enough for the largest legitimate render measured (docs/operating/heavy-work.md).
  CPU_THREAD_MEMORY_MB: int()
    .transform(raiseTo(32))
    .default(1024)
    .describe("Heap cap of each of those threads; a render that needs more fails that PDF (the student's to fix), not the process"),
  PDF_MAX_PAGES_PER_FILE: int()
    .transform(raiseTo(1))
    .default(200)
    .describe('Pages each code, text or notebook file may fill in a submission PDF; the rest is left out with a note naming the file'),

  // Load and limits
  DATABASE_POOL_SIZE: int()
    .transform(raiseTo(1))
    .default(DEFAULT_POOL_SIZE)
    .describe("Connections of each process's request pool; as many requests at once work with the database, the others wait their turn"),
  DATABASE_QUEUE_TIMEOUT_SECONDS: positive()
    .default(60)
    .describe('How long a request waits for its turn before 503 "busy" with `Retry-After`; keep it below your proxy\'s timeout'),
  DATABASE_CONNECT_TIMEOUT_SECONDS: positive().default(5).describe('How long one attempt to connect to PostgreSQL may take before it counts as unavailable'),
  REQUEST_BODY_TIMEOUT_SECONDS: positive().default(60).describe("How long any request's body may take to arrive before the connection is closed"),
  UPLOAD_BODY_TIMEOUT_SECONDS: positive().default(600).describe('The same for upload routes, which check credentials before reading the body'),
  SESSION_CACHE_SECONDS: int().default(5).describe('How long a verified token is trusted without a database query (see below); `0` turns it off'),
  METRICS_TOKEN: text()
    .optional()
    .describe('Bearer token `GET /metrics` requires (`Authorization: Bearer <token>`). Unset: the metrics are open, so keep `/metrics` off the public network'),
  METRICS_PORT: int()
    .optional()
    .describe('Also serve `GET /metrics` on this port (on `HOST`): how a `SERVICE_ROLE=worker` process, which has no HTTP port, is scraped'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe(
      "Least severe log line written (JSON lines on stdout, docs/operating/logs.md): `info` has one line per request and per job; `warn` leaves those out; `debug` adds the job runner's own lines",
    ),
  SHUTDOWN_GRACE_SECONDS: int()
    .default(10)
    .describe('On SIGTERM/SIGINT, how long requests in flight and running jobs may take before connections are closed and jobs handed back to the queue'),
  LIVE_MAX_SUBSCRIPTIONS: int()
    .default(2000)
    .describe('Live-update subscriptions (`/trpc` over server-sent events) one API process keeps open at once; beyond it a new one is refused with 429'),
  LIVE_EVENTS_KEEP_SECONDS: positive()
    .default(300)
    .describe('How long live events are kept for clients that reconnect with the last event id they saw; an older id gets a `refetch` signal'),
  MAX_BODY_BYTES: int()
    .default(1024 * 1024)
    .describe('Largest JSON, form or multipart-fields body any operation (REST or `/trpc`) reads; larger gets 413'),
  MAX_UPLOAD_BYTES: int().default(10_000_000).describe('Default cap on the files of one upload (an upload operation may set its own); larger gets 413'),
  SCORM_PACKAGE_MAX_BYTES: int()
    .default(100 * 1024 * 1024)
    .describe("Largest online-test (SCORM) package a task definition's `scorm_data` upload takes, as uploaded; larger gets 413 (docs/online-tests.md)"),
  SCORM_PACKAGE_MAX_UNPACKED_BYTES: int()
    .default(500 * 1024 * 1024)
    .describe("Largest a SCORM package's entries may add up to unpacked, as its zip declares them; more is refused with 400 (a zip bomb)"),
  SIGNIN_MAX_FAILURES_PER_USER: int()
    .default(10)
    .describe('Failed sign-ins allowed per username from one client address in one window; `0` turns this limit off'),
  SIGNIN_MAX_FAILURES_PER_ADDRESS: int().default(100).describe('Failed sign-ins allowed per client address in one window, across usernames; `0` turns it off'),
  SIGNIN_THROTTLE_WINDOW_SECONDS: int().refine(atLeast(1), 'must be at least 1').default(900).describe("Length of the sign-in throttle's fixed window"),
  LTI_KEY_SECRET: text()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      "Encrypts the LTI tool's private signing keys in the database (docs/lti.md); at least 32 characters. " +
        'Unset: every `/api/lti/*` route answers 503 "LTI is not configured". Changing it makes the stored keys unreadable: rotate after',
    ),
  LTI_TOOL_URL: absoluteUrl()
    .optional()
    .refine((url) => url === undefined || /^https?:\/\//i.test(url), 'must be an http(s) URL')
    .describe(
      "The service's public base URL as LMSs reach it, e.g. `https://courses.example.edu` (the API is under `/api`; docs/lti.md). " +
        'Needed for LTI Dynamic Registration; also the launch URL the login names. Unset: the login uses the origin of `target_link_uri`',
    ),
  TRUST_PROXY: trustProxy()
    .default(false)
    .describe(
      '`true`, or a comma-separated list of proxy addresses or CIDR ranges whose `X-Forwarded-For` names the client. ' +
        "Set it behind a reverse proxy, or every client shares the proxy's address and its sign-in limit",
    ),
});

/** The environment, read: each variable's value or default, and the rules that span variables. */
export const environment = variables.superRefine((env, ctx) => {
  // Single sign-on without an audience would accept assertions the identity provider issued to any
  // other service, and without a certificate it could verify nothing: refuse to start instead.
  if (env.AUTH_METHOD === 'saml' && !env.SAML_AUDIENCE) {
    ctx.addIssue({
      code: 'custom',
      message: "AUTH_METHOD=saml needs SAML_AUDIENCE: set it to this service's entity id, which every SAML assertion must name as its audience",
    });
  }
  if (env.AUTH_METHOD === 'saml' && !env.SAML_IDP_CERT) {
    ctx.addIssue({
      code: 'custom',
      message: "AUTH_METHOD=saml needs SAML_IDP_CERT: set it to the identity provider's signing certificate (PEM text or a path)",
    });
  }
  // Two places for the same files would leave one of them silently unused.
  if (env.STORAGE_URL && env.STORAGE_ROOT) {
    ctx.addIssue({ code: 'custom', message: 'STORAGE_URL and STORAGE_ROOT both name where stored files live: set only one of them' });
  }
  // A killed worker's jobs run again about WORKER_STALE_SECONDS (plus one heartbeat) after it stopped
  // checking in; a worker must be allowed to miss at least one heartbeat before it is presumed dead.
  if (env.WORKER_STALE_SECONDS < 2 * env.WORKER_HEARTBEAT_SECONDS) {
    ctx.addIssue({
      code: 'custom',
      path: ['WORKER_STALE_SECONDS'],
      message: `must be at least twice WORKER_HEARTBEAT_SECONDS (${env.WORKER_HEARTBEAT_SECONDS}), got ${env.WORKER_STALE_SECONDS}`,
    });
  }
});

export type Environment = z.output<typeof environment>;

/** One row of the configuration table: the variable, its default as the table shows it, and its meaning. */
export interface DocumentedVariable {
  name: string;
  defaultLabel: string;
  meaning: string;
}

/** The table's rows, from the schema: a literal default in backticks (an empty one is "empty"), no default "unset". */
export function documentedVariables(): DocumentedVariable[] {
  return Object.entries(variables.shape).map(([name, schema]) => {
    const meta = schema.meta();
    const def = schema.def;
    const literal = def.type === 'default' ? def.defaultValue : undefined;
    const defaultLabel = meta?.defaultLabel ?? (literal === undefined ? 'unset' : literal === '' ? 'empty' : `\`${literal}\``);
    return { name, defaultLabel, meaning: meta?.description ?? '' };
  });
}
