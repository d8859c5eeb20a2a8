// One student's huge upload against everyone else (issue 14 §1): the real service process, as
// `npm start` runs it (API and jobs in one process, embedded PostgreSQL), turns a 9.5 MB Python
// file into a PDF while /api/health and an authenticated GET /api/users are requested one after
// another. It prints their worst and p99 latency during the render against the same figures with
// nothing rendering (the baseline, measured first in the same run), the process's RSS growth and
// the time from upload to PDF.
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { bigPython, codeTaskWorld, embeddedDatabaseUrl, maxOf, probe, rssMiB, rssPeak } from '../../test/support/heavy-render.ts';
import { startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { quantile } from './support.ts';

const BYTES = Number(process.env.BENCH_STALL_BYTES || 9_500_000);
const BASELINE_MS = Number(process.env.BENCH_STALL_BASELINE_MS || 10_000);
const DEADLINE_MS = Number(process.env.BENCH_STALL_DEADLINE_MS || 300_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number) => `${n.toFixed(0)} ms`;
const figures = (latencies: number[]) => ({ max: maxOf(latencies), p99: quantile(latencies, 0.99), n: latencies.length });

const dataDir = mkdtempSync(join(tmpdir(), 'course-bench-stall-'));
chmodSync(dataDir, 0o755); // as root, the embedded server's own user must reach its data
let server: ServerProcess | undefined;
try {
  server = await startServer(dataDir);
  const world = await codeTaskWorld(embeddedDatabaseUrl(dataDir));
  const pid = server.child.pid!;
  const health = `${server.baseUrl}/api/health`;
  const users = `${server.baseUrl}/api/users`;
  const admin = { Username: world.people.admin.creds.username, 'Auth-Token': world.people.admin.creds.token };
  for (let i = 0; i < 20; i++) await Promise.all([fetch(health), fetch(users, { headers: admin })]);

  // The baseline: the same probes with nothing rendering.
  let probes = [probe(health), probe(users, admin, 250)];
  await sleep(BASELINE_MS);
  const [healthIdle, usersIdle] = [figures(await probes[0].stop()), figures(await probes[1].stop())];

  const program = bigPython(BYTES);
  const before = rssMiB(pid);
  const peak = rssPeak(pid);
  probes = [probe(health), probe(users, admin, 250)];
  const submissionId = await world.upload(server, 'big.py', program.text);
  const uploaded = performance.now();
  let state = await world.state(submissionId);
  while (state.processing && performance.now() - uploaded < DEADLINE_MS) {
    await sleep(200);
    state = await world.state(submissionId);
  }
  const renderMs = performance.now() - uploaded;
  const [healthBusy, usersBusy] = [figures(await probes[0].stop()), figures(await probes[1].stop())];
  const top = peak.stop();
  await world.close();

  const outcome = state.processing
    ? `no outcome after ${(DEADLINE_MS / 1000).toFixed(0)} s`
    : state.pdfPath
      ? `a ${(await PDFDocument.load(readFileSync(join(dataDir, 'files', state.pdfPath)))).getPageCount()}-page PDF`
      : `no PDF (task ${state.status})`;
  console.log(
    `stall: ${(BYTES / 1e6).toFixed(1)} MB Python file (${program.lines.toLocaleString('en')} lines) uploaded to the default single process; ` +
      `${outcome} ${(renderMs / 1000).toFixed(1)} s after the upload`,
  );
  const line = (name: string, busy: ReturnType<typeof figures>, idle: ReturnType<typeof figures>) =>
    console.log(
      `${name} during the render max ${ms(busy.max)}, p99 ${ms(busy.p99)} (n=${busy.n}); idle max ${ms(idle.max)}, p99 ${ms(idle.p99)} (n=${idle.n}); ` +
        `ratio max ${(busy.max / idle.max).toFixed(1)}, p99 ${(busy.p99 / idle.p99).toFixed(1)}`,
    );
  line('stall_health', healthBusy, healthIdle);
  line('stall_users', usersBusy, usersIdle);
  console.log(
    `stall_rss +${(top - before).toFixed(0)} MiB (${before.toFixed(0)} → ${top.toFixed(0)} MiB); stall_render ${(renderMs / 1000).toFixed(1)} s; ` +
      `worst health wait / render ${(healthBusy.max / renderMs).toFixed(3)}`,
  );
} finally {
  if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
