// Structured logs (docs/operating/logs.md): one JSON line per request, X-Request-Id honoured or
// made and echoed on every answer, and the id carried into the jobs a request queues and onto
// their log lines in the worker. The app here is the test app's twin, writing its log lines to an
// array instead of stdout.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { inScope } from '../../src/lib/request-scope.ts';
import { workerLogger } from '../../src/lib/worker-logger.ts';
import { createServices, type Services } from '../../src/trpc/context.ts';
import { withJobLog } from '../../workers/job-log.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('logs: a JSON line per request, request ids, and the ids in the jobs a request queues');
let env: TestEnv;
let people: People;
let logged: Record<string, unknown>[] = [];
let services: Services;
let app: FastifyInstance;
/** The test environment with the logging app and services in place of the quiet ones. */
let logging: TestEnv;

freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(async () => {
  logged = [];
  // Every line must be one JSON object: a line that is not fails JSON.parse here.
  const destination = { write: (line: string) => void logged.push(JSON.parse(line)) };
  services = createServices(env.orm, env.config, env.clock, createLogger({ level: 'info', destination }));
  app = await buildApp(services);
  await app.ready();
  logging = { ...env, app, services };
});
test.after.each(async () => {
  await app.close();
  await services.metrics.close();
});

const requestLines = () => logged.filter((line) => line.msg === 'request completed');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('one JSON line per request: method, route pattern, status, duration, user id, request id; no URL, query or token', async () => {
  const { creds, user } = people.convenor;
  const res = await logging.app.inject({
    method: 'GET',
    url: '/api/units/987654?access_token=query-secret',
    headers: { Username: creds.username, 'Auth-Token': creds.token, 'X-Request-Id': 'trace-0001' },
  });
  assert.is(res.statusCode, 404);
  const lines = requestLines();
  assert.is(lines.length, 1, JSON.stringify(logged));
  const [line] = lines;
  assert.is(line.level, 'info');
  assert.is(line.method, 'GET');
  assert.is(line.route, '/api/units/:id');
  assert.is(line.status, 404);
  assert.type(line.durationMs, 'number');
  assert.ok((line.durationMs as number) >= 0);
  assert.is(line.userId, user.id);
  assert.is(line.requestId, 'trace-0001');
  assert.type(line.time, 'string');
  // Nothing of the raw URL, the query string or the credentials in any line.
  const text = JSON.stringify(logged);
  assert.not.match(text, '987654');
  assert.not.match(text, 'query-secret');
  assert.not.match(text, creds.token);
  // Fastify's own "incoming request" and "request completed" lines are off: one line, not three.
  assert.not.ok(logged.some((l) => l.msg === 'incoming request'));
});

test('a request without credentials is logged without a user id; an unknown URL under `unmatched`', async () => {
  await logging.app.inject({ method: 'GET', url: '/api/units/987654' });
  await logging.app.inject({ method: 'GET', url: '/no/such/path/12345' });
  const [unauthenticated, unmatched] = requestLines();
  assert.is(unauthenticated.route, '/api/units/:id');
  assert.is(unauthenticated.userId, undefined);
  assert.is(unmatched.route, 'unmatched');
  assert.is(unmatched.status, 404);
  assert.not.match(JSON.stringify(logged), '12345');
});

test('a tRPC call is logged by its procedure (the route pattern /trpc/:path says nothing)', async () => {
  const res = await logging.app.inject({ method: 'POST', url: '/trpc/campuses.create', payload: {}, headers: { 'content-type': 'application/json' } });
  assert.ok(res.statusCode >= 400);
  await logging.app.inject({ method: 'GET', url: '/trpc/no.such.procedure' });
  const [known, unknown] = requestLines();
  assert.is(known.route, '/trpc/campuses.create');
  assert.is(unknown.route, '/trpc/:path');
});

test('X-Request-Id: an acceptable one is echoed, a missing or unacceptable one replaced by a new UUID, on every kind of answer', async () => {
  const ask = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET', payload?: string) =>
    logging.app.inject({ method, url, headers, payload });
  // A route's answer, a 404 of no route, a compat route's error (419 without a session), and a body Fastify refuses (400).
  const given = await ask('/api/health', { 'X-Request-Id': 'abc-123' });
  assert.is(given.headers['x-request-id'], 'abc-123');
  assert.is((await ask('/nowhere', { 'X-Request-Id': 'lb/77:x' })).headers['x-request-id'], 'lb/77:x');
  const refused = await ask('/api/units', { 'X-Request-Id': 'compat-1' });
  assert.ok(refused.statusCode >= 400);
  assert.is(refused.headers['x-request-id'], 'compat-1');
  const badJson = await ask('/api/auth', { 'X-Request-Id': 'bad-json-1', 'content-type': 'application/json' }, 'POST', '{"username":');
  assert.is(badJson.statusCode, 400);
  assert.is(badJson.headers['x-request-id'], 'bad-json-1');

  // A web page on another origin may read it (to show with an error) and send its own.
  const crossOrigin = await ask('/api/health', { Origin: 'https://courses.example.edu', 'X-Request-Id': 'page-1' });
  assert.match(String(crossOrigin.headers['access-control-expose-headers']), /\bX-Request-Id\b/i);

  const missing = await ask('/api/health');
  assert.match(String(missing.headers['x-request-id']), UUID);
  const another = await ask('/api/health');
  assert.is.not(another.headers['x-request-id'], missing.headers['x-request-id']);
  for (const unacceptable of ['x'.repeat(129), 'has space', 'quote"d', 'new\tline']) {
    const res = await ask('/api/health', { 'X-Request-Id': unacceptable });
    assert.match(String(res.headers['x-request-id']), UUID, unacceptable);
  }
  // The line of each request names the id its answer carried.
  const lines = requestLines();
  assert.equal(
    lines.slice(0, 4).map((l) => l.requestId),
    ['abc-123', 'lb/77:x', 'compat-1', 'bad-json-1'],
  );
  assert.is(lines[5].requestId, missing.headers['x-request-id']);
});

test("the request id travels into the jobs a request queues, and onto the worker's lines for them", async () => {
  env.config.mail.smtpUrl = 'smtp://127.0.0.1:9';
  try {
    const csv = 'email,first_name,last_name,username,nickname,role,student_id\nada@uni.edu,Ada,Lovelace,ada,,Student,s1\n';
    const res = await api(logging, 'POST', '/api/csv/users', {
      as: people.admin.creds,
      headers: { 'X-Request-Id': 'import-42' },
      multipart: { file: { filename: 'users.csv', contentType: 'text/csv', data: Buffer.from(csv) } },
    });
    assert.is(res.status, 201, res.text);
  } finally {
    env.config.mail.smtpUrl = undefined;
  }
  const queued = await env.orm.em
    .fork()
    .execute<{ request_id: string | null }[]>("select payload->>'_requestId' as request_id from graphile_worker._private_jobs");
  assert.equal(
    queued.map((j) => j.request_id),
    ['import-42'],
  );

  await runJobs(logging);
  const jobLines = logged.filter((line) => line.msg === 'job completed');
  assert.is(jobLines.length, 1, JSON.stringify(logged));
  assert.is(jobLines[0].task, 'send_email');
  assert.is(jobLines[0].outcome, 'success');
  assert.is(jobLines[0].requestId, 'import-42');
  assert.is(jobLines[0].component, 'worker');
});

test("a task's own lines (helpers.logger) and its failure line name the request that queued the job", async () => {
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logged.push(JSON.parse(line)) } });
  const task = withJobLog(async (_payload, helpers) => {
    helpers.logger.error('the mail server refused it');
    throw new Error('try again later');
  }, logger);
  const job = { id: '9', task_identifier: 'send_email', attempts: 2 };
  const helpers = { job, logger: workerLogger(logger).scope({ jobId: job.id, taskIdentifier: job.task_identifier }) };
  const outcome = await Promise.resolve(task({ kind: 'x', _requestId: 'req-9' }, helpers as never)).then(
    () => 'completed',
    (error: Error) => error.message,
  );
  assert.is(outcome, 'try again later', 'the failure reaches graphile-worker, which retries the job');
  const own = logged.find((line) => line.msg === 'the mail server refused it');
  assert.is(own?.requestId, 'req-9');
  assert.is(own?.jobId, '9');
  assert.is(own?.level, 'error');
  const failed = logged.find((line) => line.msg === 'job failed');
  assert.is(failed?.requestId, 'req-9');
  assert.is(failed?.attempt, 2);
  assert.is(failed?.level, 'warn');
  assert.match(String((failed?.err as { message?: string })?.message), 'try again later');
});

test('a job queued outside any request carries no request id; one queued in a scope carries its id', async () => {
  const em = env.orm.em.fork();
  await jobQueue(em).add('delete_expired_tokens', {});
  await inScope({ requestId: 'job-parent-7' }, () => jobQueue(em).add('delete_expired_tokens', {}, { jobKey: 'second' }));
  const rows = await em.execute<{ request_id: string | null }[]>("select payload->>'_requestId' as request_id from graphile_worker._private_jobs order by id");
  assert.equal(
    rows.map((r) => r.request_id),
    [null, 'job-parent-7'],
  );
});

test.run();
