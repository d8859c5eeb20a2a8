// Submission PDFs through the real service process and its worker (issue 9 §6): the time from
// upload to `has_pdf` for a 10-page mixed submission (a 6-page PDF, an image and code), p50 and
// p95, against the time the same PDF takes to render in this process (the baseline: what the job
// cannot avoid); then the throughput of PDF jobs with one worker process and with two.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createOrm } from '../../src/db/orm.ts';
import { buildSubmissionPdf } from '../../src/pdf/submission.ts';
import { Jimp } from 'jimp';
import type { TestEnv } from '../../test/support/env.ts';
import { everyone } from '../../test/support/fixtures.ts';
import { seedTaskDefinition } from '../../test/support/seed-enrolments.ts';
import { taskWorld } from '../../test/support/task-world.ts';
import { launchServer, startServer, type ServerProcess } from '../../test/support/server-process.ts';
import { quantile, startDatabase, stopDatabase } from './support.ts';

const SAMPLES = Number(process.env.BENCH_PDF_SAMPLES || 20);
const JOBS = Number(process.env.BENCH_PDF_JOBS || SAMPLES);
const REQUIREMENTS = [
  { key: 'file0', name: 'Report', type: 'document' as const },
  { key: 'file1', name: 'Screenshot', type: 'image' as const },
  { key: 'file2', name: 'Program', type: 'code' as const },
];

async function reportPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage();
    for (let line = 0; line < 40; line++)
      page.drawText(`Report page ${i}, line ${line}: the quick brown fox jumps over the lazy dog.`, { x: 50, y: 780 - line * 18, size: 11, font });
  }
  return doc.save();
}

/** An 800×600 gradient, as a screenshot-sized PNG. */
async function screenshot(): Promise<Buffer> {
  const width = 800;
  const height = 600;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x % 256, y % 256, (x + y) % 256, 255], (y * width + x) * 4);
  return new Jimp({ width, height, data }).getBuffer('image/png');
}

/** Two pages of code. */
const program = (): string =>
  `${Array.from(
    { length: 45 },
    (_, i) => `def step_${i}(values):\n\t"""Step ${i}."""\n\treturn [v * ${i} for v in values if v % 2 == 0]  # keep the even ones`,
  ).join('\n')}\n`;

const ms = (n: number) => `${n.toFixed(0)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

const db = await startDatabase();
const orm = await createOrm(db.url);
const servers: ServerProcess[] = [];
try {
  const env = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  const people = await everyone(env);
  const world = await taskWorld(env, people, { uploadRequirements: REQUIREMENTS }, {}, 'BENCH1');
  const definitions = [world.td];
  for (let i = 2; i <= SAMPLES; i++) definitions.push(await seedTaskDefinition(env, world.unit, `P${i}`, { uploadRequirements: REQUIREMENTS }));

  // Copied into plain ArrayBuffers, as Blob wants them.
  const files = { report: new Uint8Array(await reportPdf(6)), image: new Uint8Array(await screenshot()), code: program() };
  // The baseline: the same PDF rendered here, without upload, queue, storage or database.
  const cover = {
    institution: 'Bench',
    product: 'Course Service',
    unitCode: 'BENCH1',
    unitName: 'Bench',
    taskName: 'Task P1',
    submitter: { firstName: 'A', lastName: 'Student', username: 'astudent' },
    submittedAt: new Date(),
    tutor: 'A Tutor',
  };
  const submitted = [
    { name: 'Report', kind: 'document' as const, originalFilename: 'report.pdf', bytes: files.report },
    { name: 'Screenshot', kind: 'image' as const, originalFilename: 'shot.png', bytes: files.image },
    { name: 'Program', kind: 'code' as const, originalFilename: 'main.py', bytes: Buffer.from(files.code) },
  ];
  const renders: number[] = [];
  let pages = 0;
  for (let i = 0; i < SAMPLES + 2; i++) {
    const t0 = performance.now();
    pages = (await buildSubmissionPdf(cover, submitted)).pages;
    if (i >= 2) renders.push(performance.now() - t0);
  }

  const storage = mkdtempSync(join(tmpdir(), 'course-bench-files-'));
  const serviceEnv = { DATABASE_URL: db.url, STORAGE_ROOT: storage, WORKER_CONCURRENCY: '1', SHUTDOWN_GRACE_SECONDS: '5' };
  const service = await startServer(mkdtempSync(join(tmpdir(), 'course-bench-svc-')), serviceEnv);
  servers.push(service);
  const headers = { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token };
  const base = (td: number) => `${service.baseUrl}/api/projects/${world.project}/task_def_id/${td}`;
  const details = async (td: number) => (await (await fetch(`${base(td)}/submission_details`, { headers })).json()) as { has_pdf: boolean };

  const latencies: number[] = [];
  for (const td of definitions) {
    const form = new FormData();
    form.append('file0', new Blob([files.report], { type: 'application/pdf' }), 'report.pdf');
    form.append('file1', new Blob([files.image], { type: 'image/png' }), 'shot.png');
    form.append('file2', new Blob([files.code], { type: 'text/x-python' }), 'main.py');
    const t0 = performance.now();
    const res = await fetch(`${base(td)}/submission`, { method: 'POST', headers, body: form });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    while (!(await details(td)).has_pdf) {
      if (performance.now() - t0 > 60_000) throw new Error('no PDF after 60 s');
      await sleep(10);
    }
    latencies.push(performance.now() - t0);
  }
  const got = await fetch(`${base(world.td)}/submission`, { headers });
  const built = await PDFDocument.load(await got.arrayBuffer());
  const [p50, p95, r50] = [quantile(latencies, 0.5), quantile(latencies, 0.95), quantile(renders, 0.5)];
  console.log(
    `pdf: ${built.getPageCount()}-page submission (cover, 6-page PDF, 800x600 PNG, ${files.code.split('\n').length - 1} lines of code); ` +
      `${SAMPLES} uploads one after another`,
  );
  console.log(
    `pdf_upload_to_has_pdf p50 ${ms(p50)}, p95 ${ms(p95)} (goal < 2000 ms); render alone p50 ${ms(r50)}, p95 ${ms(quantile(renders, 0.95))}; ` +
      `ratio ${(p50 / r50).toFixed(2)} (${pages} pages rendered)`,
  );

  /** Queues a rebuild of every submission (PUT .../submission) and times the queue's emptying. */
  const throughput = async (): Promise<number> => {
    const t0 = performance.now();
    for (const td of definitions.slice(0, JOBS)) {
      const res = await fetch(`${base(td)}/submission`, { method: 'PUT', headers });
      if (res.status !== 200) throw new Error(`PUT answered ${res.status}`);
    }
    for (;;) {
      const states = await Promise.all(definitions.slice(0, JOBS).map(details));
      if (states.every((s) => s.has_pdf)) break;
      if (performance.now() - t0 > 120_000) throw new Error('jobs not done after 120 s');
      await sleep(20);
    }
    return JOBS / ((performance.now() - t0) / 1000);
  };
  const one = await throughput();
  const second = await launchServer(mkdtempSync(join(tmpdir(), 'course-bench-w2-')), { ...serviceEnv, SERVICE_ROLE: 'worker' });
  servers.push(second);
  for (let waited = 0; !second.output().includes('job worker running'); waited += 50) {
    if (waited > 30_000) throw new Error(`the second worker did not start:\n${second.output()}`);
    await sleep(50);
  }
  const two = await throughput();
  console.log(
    `pdf_jobs_throughput one worker ${one.toFixed(2)} jobs/s, two workers ${two.toFixed(2)} jobs/s (ratio ${(two / one).toFixed(2)}; ${JOBS} jobs each, ` +
      `concurrency 1 per worker process)`,
  );
} finally {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  for (const server of servers) await server.exited;
  await orm.close();
  await stopDatabase(db);
}
