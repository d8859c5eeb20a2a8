import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openApiDocument } from '../../src/openapi.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { createMetrics } from '../../src/metrics/registry.ts';
import { observeQueue } from '../../src/metrics/queue.ts';
import { startMetricsListener } from '../../src/metrics/listener.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';

const test = suite('GET /metrics');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));
test.after.each(() => {
  env.config.metrics.token = undefined;
});

/** The value of one series in Prometheus' text format: `name{labels} value`, the labels in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => given[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** Every label value in a scrape: ids must not reach them, while a sample's value (a heap size in
 * bytes, a sum of seconds) may hold any digits, so the values are left out of such checks. */
function labelValues(text: string): string[] {
  return [...text.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
}

async function scrape(headers: Record<string, string> = {}) {
  const response = await env.app.inject({ method: 'GET', url: '/metrics', headers });
  return { status: response.statusCode, type: String(response.headers['content-type']), text: response.body };
}

test('requests are counted by their route pattern and status class, never by the raw URL', async () => {
  const series = { method: 'GET', route: '/api/units/:id', status_class: '4xx' };
  const before = sample((await scrape()).text, 'http_request_duration_seconds_count', series) ?? 0;
  const unit = await api(env, 'GET', '/api/units/987654', { as: people.convenor.creds });
  assert.is(unit.status, 404);
  const { status, type, text } = await scrape();
  assert.is(status, 200);
  assert.match(type, /^text\/plain; version=0\.0\.4/);
  assert.is(sample(text, 'http_request_duration_seconds_count', series), before + 1);
  assert.ok(sample(text, 'http_request_duration_seconds_bucket', { ...series, le: '+Inf' }));
  assert.not.ok(labelValues(text).some((value) => value.includes('987654')));
  // A URL no route matches is one series, whatever was asked.
  await env.app.inject({ method: 'GET', url: '/no/such/path/12345' });
  const after = (await scrape()).text;
  assert.ok(sample(after, 'http_request_duration_seconds_count', { route: 'unmatched', status_class: '4xx' }));
  assert.not.match(after, /no\/such\/path/);
  // Scrapes are not requests of the service: they would swamp the low-traffic routes.
  assert.not.match(after, /route="\/metrics"/);
});

test('a tRPC call is counted under its procedure; a batch or an unknown name under /trpc/:path, never as sent', async () => {
  const call = (url: string) => env.app.inject({ method: 'POST', url, payload: {}, headers: { 'content-type': 'application/json' } });
  await call('/trpc/campuses.create');
  await call('/trpc/campuses.create,units.create?batch=1');
  await call('/trpc/made.up.name-98765');
  const { text } = await scrape();
  assert.ok(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/trpc/campuses.create' }));
  assert.is(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/trpc/:path' }), 2);
  assert.not.ok(labelValues(text).some((value) => /made\.up|98765|units\.create/.test(value)));
});

test('the process, the event loop and the database pools are reported', async () => {
  const { text } = await scrape();
  assert.ok(sample(text, 'process_resident_memory_bytes'), 'resident memory');
  assert.ok(sample(text, 'nodejs_heap_size_used_bytes'), 'heap');
  assert.is.not(sample(text, 'nodejs_eventloop_lag_seconds'), undefined, 'event-loop lag');
  assert.is.not(sample(text, 'db_pool_connections', { pool: 'requests', state: 'in_use' }), undefined);
  assert.is.not(sample(text, 'db_pool_waiting', { pool: 'requests' }), undefined);
  assert.is(sample(text, 'db_admission_requests', { state: 'waiting' }), 0);
});

test('with METRICS_TOKEN set, a scrape without the bearer token is refused with 401', async () => {
  env.config.metrics.token = 'scrape-secret';
  for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: 'Basic c2NyYXBlLXNlY3JldA==' }]) {
    const refused = await scrape(headers);
    assert.is(refused.status, 401, JSON.stringify(headers));
    assert.type(JSON.parse(refused.text).error, 'string');
    assert.not.match(refused.text, /process_resident_memory_bytes/);
  }
  const allowed = await scrape({ authorization: 'Bearer scrape-secret' });
  assert.is(allowed.status, 200);
  assert.ok(sample(allowed.text, 'process_resident_memory_bytes'));
});

test('a job is counted by task and outcome once it has run', async () => {
  const series = { task: 'delete_expired_tokens', outcome: 'success' };
  const before = sample((await scrape()).text, 'job_duration_seconds_count', series) ?? 0;
  await jobQueue(env.orm.em.fork()).add('delete_expired_tokens', {});
  await runJobs(env);
  assert.is(sample((await scrape()).text, 'job_duration_seconds_count', series), before + 1);
});

test('queue depth: a queued job is waiting; locked by a live worker it is locked, by a dead one also locked_by_dead_worker', async () => {
  const depth = async (state: string) => sample((await scrape()).text, 'job_queue_jobs', { task: 'delete_expired_tokens', state });
  assert.is(await depth('waiting'), undefined, 'an empty queue has no series');
  await jobQueue(env.orm.em.fork()).add('delete_expired_tokens', {});
  assert.is(await depth('waiting'), 1);
  assert.is(await depth('locked'), 0);

  const em = env.orm.em.fork();
  await em.execute(`insert into worker_heartbeats (pool_id, hostname, pid, started_at, seen_at) values ('pool-live', 'here', 1, now(), now())`);
  await em.execute(`update graphile_worker._private_jobs set locked_at = now() - interval '1 hour', locked_by = 'pool-live'`);
  assert.is(await depth('waiting'), 0);
  assert.is(await depth('locked'), 1);
  assert.is(await depth('locked_by_dead_worker'), 0, 'its worker checks in');

  await em.execute(`delete from worker_heartbeats`);
  assert.is(await depth('locked_by_dead_worker'), 1, 'its worker has no heartbeat row and the lock is old');
});

test('a worker whose heartbeat row is older than WORKER_STALE_SECONDS counts as dead, as the sweep judges it', async () => {
  // Staleness counts from PostgreSQL's start at the earliest (workers/liveness.ts): the test's
  // server started seconds ago, so this collector is given a stale interval of 1 s.
  const metrics = createMetrics(() => {});
  observeQueue(metrics, env.databaseUrl, 1);
  try {
    const em = env.orm.em.fork();
    await jobQueue(em).add('delete_expired_tokens', {});
    await em.execute(
      `insert into worker_heartbeats (pool_id, hostname, pid, started_at, seen_at) values ('pool-silent', 'there', 2, now(), now() - interval '1 hour')`,
    );
    await em.execute(`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'pool-silent'`);
    const text = await metrics.scrape();
    assert.is(sample(text, 'job_queue_jobs', { task: 'delete_expired_tokens', state: 'locked_by_dead_worker' }), 1);
  } finally {
    await metrics.close();
  }
});

test('a collector that fails is left out of the scrape, counted and logged; the scrape still answers', async () => {
  const logged: string[] = [];
  const metrics = createMetrics((line) => logged.push(line));
  observeQueue(metrics, 'postgres://nobody@127.0.0.1:9/nothing', 30);
  const listener = await startMetricsListener(metrics, undefined, 0, '127.0.0.1');
  try {
    const response = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    const text = await response.text();
    assert.is(response.status, 200);
    assert.is(sample(text, 'job_queue_jobs'), undefined);
    assert.is(sample(text, 'metrics_collector_failures_total', { collector: 'job_queue' }), 1);
    assert.ok(sample(text, 'process_resident_memory_bytes'));
    assert.match(logged.join('\n'), /the job_queue collector failed/);
  } finally {
    await listener.close();
    await metrics.close();
  }
});

test("METRICS_PORT's listener (how a worker process is scraped) serves the same metrics and refuses without the token", async () => {
  const listener = await startMetricsListener(env.services.metrics, 'worker-secret', 0, '127.0.0.1');
  try {
    const url = `http://127.0.0.1:${listener.port}/metrics`;
    const refused = await fetch(url);
    assert.is(refused.status, 401);
    assert.type(((await refused.json()) as { error: string }).error, 'string');
    const allowed = await fetch(url, { headers: { authorization: 'Bearer worker-secret' } });
    assert.is(allowed.status, 200);
    assert.ok(sample(await allowed.text(), 'db_pool_connections', { pool: 'requests', state: 'idle' }) !== undefined);
    assert.is((await fetch(`http://127.0.0.1:${listener.port}/other`)).status, 404);
  } finally {
    await listener.close();
  }
});

test('/metrics is no REST compatibility route: the API document does not list it', () => {
  const paths = Object.keys((openApiDocument() as { paths: Record<string, unknown> }).paths);
  assert.not.ok(paths.some((path) => path.includes('metrics')));
});

test.run();
