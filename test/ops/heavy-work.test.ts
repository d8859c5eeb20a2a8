// CPU-heavy work must never stall the API (issue 14 §1), checked on the real service process as
// `npm start` runs it (API and jobs in one process): while a 9.5 MB program becomes a PDF,
// /api/health and GET /api/users keep answering, memory stays bounded, and the PDF arrives cut
// short with a note naming the file. A stop during a long render hands the job back within the
// grace period, and a render that outgrows its thread's memory fails that PDF only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bigPython, codeTaskWorld, embeddedDatabaseUrl, maxOf, probe, rssMiB, rssPeak, type CodeTaskWorld } from '../support/heavy-render.ts';
import { pdfPagesText } from '../support/pdf-text.ts';
import { startServer, type ServerProcess } from '../support/server-process.ts';

const test = suite('operations: heavy work never stalls the API');
let dataDir: string;
let running: ServerProcess[] = [];
let worlds: CodeTaskWorld[] = [];

test.before.each(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'course-heavy-'));
  chmodSync(dataDir, 0o755); // as root, the embedded server's own user must reach its data
  running = [];
  worlds = [];
});
test.after.each(async () => {
  for (const world of worlds) await world.close();
  for (const server of running) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer(dataDir, env);
  running.push(server);
  return server;
}

async function world(earlier?: CodeTaskWorld): Promise<CodeTaskWorld> {
  const w = await codeTaskWorld(embeddedDatabaseUrl(dataDir), earlier);
  worlds.push(w);
  return w;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the submission is no longer processing (its PDF stored, or refused); false after `ms`. */
async function processed(w: CodeTaskWorld, submissionId: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(200)) if (!(await w.state(submissionId)).processing) return true;
  return false;
}

const NINE_AND_A_HALF_MB = 9_500_000;

test('while a 9.5 MB program becomes a PDF, health and the users list answer, memory stays bounded, and the PDF notes the cut', async () => {
  const server = await start();
  const w = await world();
  const pid = server.child.pid!;
  const users = `${server.baseUrl}/api/users`;
  const adminHeaders = { Username: w.people.admin.creds.username, 'Auth-Token': w.people.admin.creds.token };
  // Warm: the first answers of a fresh process are slower than any later one.
  for (let i = 0; i < 5; i++) await Promise.all([fetch(`${server.baseUrl}/api/health`), fetch(users, { headers: adminHeaders })]);
  const program = bigPython(NINE_AND_A_HALF_MB);

  const before = rssMiB(pid);
  const peak = rssPeak(pid);
  const health = probe(`${server.baseUrl}/api/health`);
  const list = probe(users, adminHeaders, 250);
  const submissionId = await w.upload(server, 'big.py', program.text);
  const uploaded = performance.now();
  const done = await processed(w, submissionId, 120_000);
  const renderMs = performance.now() - uploaded;
  const [healthMs, usersMs] = [await health.stop(), await list.stop()];
  const grownMiB = peak.stop() - before;
  const figures =
    `render ${(renderMs / 1000).toFixed(1)} s, worst health ${maxOf(healthMs).toFixed(0)} ms (${healthMs.length} answers), ` +
    `worst users ${maxOf(usersMs).toFixed(0)} ms (${usersMs.length}), RSS +${grownMiB.toFixed(0)} MiB`;
  console.log(`  heavy render: ${figures}`);

  assert.ok(done, `the PDF (or a failed-PDF outcome) within 120 s: ${figures}`);
  // Ratios measured in this run: the API's worst wait is a small part of the render it waited beside.
  assert.ok(maxOf(healthMs) <= renderMs * 0.2, `health answers throughout the render: ${figures}`);
  assert.ok(maxOf(usersMs) <= renderMs * 0.25, `GET /api/users answers throughout the render: ${figures}`);
  assert.ok(grownMiB <= 400, `memory grows by at most 400 MiB: ${figures}`);

  const state = await w.state(submissionId);
  assert.ok(state.pdfPath, `a PDF was stored (task ${state.status})`);
  const pages = await pdfPagesText(readFileSync(join(dataDir, 'files', state.pdfPath!)));
  const text = pages.join('\n');
  assert.match(text, 'big.py', 'the file is named');
  assert.match(text, `of ${program.lines.toLocaleString('en')} lines`, 'the note says how many lines the file has');
  assert.match(pages[pages.length - 1], 'submission', 'the note, at the end, points to the submission files');
  assert.ok(pages.length < 400, `the cut PDF is short (${pages.length} pages)`);
});

test('a stop during a long render hands the job back within the grace period, and the next start builds the PDF', async () => {
  // Every page of the 9.5 MB file: a render of minutes, far longer than the 2 s grace.
  const server = await start({ SHUTDOWN_GRACE_SECONDS: '2', WORKER_CONCURRENCY: '1', PDF_MAX_PAGES_PER_FILE: '100000' });
  const w = await world();
  const submissionId = await w.upload(server, 'big.py', bigPython(NINE_AND_A_HALF_MB).text);
  for (let i = 0; ; i++) {
    const { rows } = await w.client.query('select count(*)::int as n from graphile_worker._private_jobs where locked_at is not null');
    if (rows[0].n > 0) break;
    assert.ok(i < 300, 'the worker takes the job');
    await sleep(100);
  }
  await sleep(1_500); // in the middle of the render
  await w.close();
  worlds = [];
  const stopping = performance.now();
  server.child.kill('SIGTERM');
  const code = await Promise.race([server.exited, sleep(20_000).then(() => 'still running after 20 s')]);
  const stopMs = performance.now() - stopping;
  assert.is(code, 0, `the stop ends the process (${(stopMs / 1000).toFixed(1)} s after SIGTERM):\n${server.output().slice(-2000)}`);
  assert.match(server.output(), 'handing them back to the queue');

  const again = await start();
  assert.not.match(again.output(), 'left locked by an earlier run', 'the stop itself unlocked the job');
  const w2 = await world(w);
  assert.ok(await processed(w2, submissionId, 120_000), 'the next start builds the PDF');
  assert.ok((await w2.state(submissionId)).pdfPath, 'a PDF was stored');
});

test('a render that outgrows its thread memory fails that PDF as the student’s to fix; the next upload still gets its PDF', async () => {
  const server = await start({ CPU_THREAD_MEMORY_MB: '64', PDF_MAX_PAGES_PER_FILE: '100000', WORKER_CONCURRENCY: '1' });
  const w = await world();
  const big = await w.upload(server, 'big.py', bigPython(NINE_AND_A_HALF_MB).text);
  // A hang detector, not a timing: the render took 10 s on an idle machine and over 120 s with both cores busy.
  assert.ok(await processed(w, big, 300_000), 'the outcome arrives');
  const failed = await w.state(big);
  assert.is(failed.pdfPath, null, 'no PDF');
  assert.is(failed.status, 'fix_and_resubmit');
  const { rows } = await w.client.query<{ comment: string }>("select comment from task_comments where comment like '%Automated Comment%'");
  assert.is(rows.length, 1);
  assert.match(rows[0].comment, 'memory');
  assert.is((await fetch(`${server.baseUrl}/api/health`)).status, 200, 'the process lives on');

  const small = await w.upload(server, 'small.py', 'print("hello")\n');
  assert.ok(await processed(w, small, 60_000), 'the next upload is processed');
  assert.ok((await w.state(small)).pdfPath, 'and gets its PDF');
});

test.run();
