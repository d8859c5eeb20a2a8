// A SERVICE_ROLE=worker process serves no HTTP, and the jobs it runs are counted only in its memory:
// with METRICS_PORT it serves GET /metrics on a listener of its own (docs/operating/metrics.md).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobQueue } from '../../src/db/jobs.ts';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { freePort, launchServer, type ServerProcess } from '../support/server-process.ts';

const test = suite('operations: a worker process is scraped on METRICS_PORT');
let env: TestEnv;
let worker: ServerProcess | undefined;

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
});

test.after.each(async () => {
  if (worker?.child.exitCode === null) worker.child.kill('SIGKILL');
  await worker?.exited;
  worker = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function count(text: string, task: string): number {
  const line = text.split('\n').find((l) => l.startsWith('job_duration_seconds_count{') && l.includes(`task="${task}"`) && l.includes('outcome="success"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

test('the worker counts the job it ran, behind the bearer token, and stops cleanly', async () => {
  const metricsPort = await freePort();
  worker = await launchServer(mkdtempSync(join(tmpdir(), 'course-worker-metrics-')), {
    SERVICE_ROLE: 'worker',
    DATABASE_URL: env.databaseUrl,
    METRICS_PORT: String(metricsPort),
    METRICS_TOKEN: 'worker-scrape',
  });
  const url = `http://127.0.0.1:${metricsPort}/metrics`;
  const scrape = () =>
    fetch(url, { headers: { authorization: 'Bearer worker-scrape' } }).then(
      async (r) => ({ status: r.status, text: await r.text() }),
      () => undefined,
    );
  let first: { status: number; text: string } | undefined;
  for (let waited = 0; worker.child.exitCode === null && waited < 90_000; waited += 200) {
    first = await scrape();
    if (first) break;
    await sleep(200);
  }
  assert.ok(first, `the worker's metrics listener answered:\n${worker.output()}`);
  assert.is(first.status, 200);
  assert.is((await fetch(url)).status, 401, 'without the token');
  assert.match(first.text, /db_pool_connections\{pool="jobs"/);
  assert.not.match(first.text, /http_request_duration_seconds_count/, 'a worker answers no requests');

  await jobQueue(env.orm.em.fork()).add('delete_expired_tokens', {});
  let text = '';
  for (let waited = 0; count(text, 'delete_expired_tokens') < 1 && waited < 60_000; waited += 200) {
    await sleep(200);
    text = (await scrape())?.text ?? '';
  }
  // At least: the hourly cron may add its own run of the same task.
  assert.ok(count(text, 'delete_expired_tokens') >= 1, `the job was counted:\n${worker.output()}`);

  worker.child.kill('SIGTERM');
  assert.is(await worker.exited, 0);
});

test.run();
