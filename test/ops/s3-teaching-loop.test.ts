// The whole teaching loop once on object storage (issue 16 §2), on the real service process with
// `STORAGE_URL=s3://...` and a local S3-compatible server (s3rver) started here: the student
// uploads a submission (a program and a PDF report), the worker renders its PDF from the objects,
// the PDF downloads whole and by range, a portfolio with a part uploaded compiles from the objects,
// and the unit's zips of the task's files and PDFs stream out of them. Nothing is written under the
// service's local files directory: every file is an object in the bucket.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readAll, type Storage, storageKeys } from '../../src/storage/index.ts';
import { s3Storage } from '../../src/storage/s3.ts';
import { createOrm } from '../../src/db/orm.ts';
import type { TestEnv } from '../support/env.ts';
import { everyone } from '../support/fixtures.ts';
import { embeddedDatabaseUrl } from '../support/heavy-render.ts';
import { pdfPagesText } from '../support/pdf-text.ts';
import { type S3Server, s3Environment, startS3Server } from '../support/s3-server.ts';
import { samplePdf } from '../support/sample-files.ts';
import { startServer, type ServerProcess } from '../support/server-process.ts';
import { taskWorld } from '../support/task-world.ts';
import { unzip } from '../support/zips.ts';

const test = suite('operations: the teaching loop on S3 object storage');
const PREFIX = 'loop';
let s3: S3Server | string;
let dataDir: string;
let server: ServerProcess | undefined;

test.before(async () => {
  try {
    s3 = await startS3Server('teaching-loop');
  } catch (error) {
    s3 = `s3rver could not start: ${(error as Error).message}`;
  }
  dataDir = mkdtempSync(join(tmpdir(), 'course-s3-loop-'));
  chmodSync(dataDir, 0o755); // as root, the embedded server's own user must reach its data
});
test.after(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await server?.exited;
  if (typeof s3 !== 'string') await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Files anywhere under `dir` (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) {
    const got = await probe();
    if (got) return got;
  }
  throw new Error(`${what}: not within ${ms / 1000} s\n${server?.output().slice(-3000)}`);
}

test('upload → PDF → download (and a range) → portfolio → unit zips, every file in the bucket, none on local disk', async () => {
  if (typeof s3 === 'string') {
    console.log(`  skipped: ${s3}`);
    return;
  }
  server = await startServer(
    dataDir,
    {
      STORAGE_URL: `s3://${s3.bucket}/${PREFIX}`,
      S3_FORCE_PATH_STYLE: 'true',
      ...s3Environment(s3.endpoint),
    },
    180_000,
  ); // a first start: the embedded database is made and migrated
  const base = server.baseUrl;
  const bucket: Storage = s3Storage({ bucket: s3.bucket, prefix: PREFIX, forcePathStyle: true, timeoutMs: 30_000 });

  // The world, written into the service's own database (signed in on the real clock it checks tokens by).
  const databaseUrl = embeddedDatabaseUrl(dataDir);
  const orm = await createOrm(databaseUrl);
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    const there = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
    const people = await everyone(there);
    const world = await taskWorld(there, people, {
      uploadRequirements: [
        { key: 'file0', name: 'Program', type: 'code' },
        { key: 'file1', name: 'Report', type: 'document' },
      ],
    });
    const as = (who: { creds: { username: string; token: string } }, extra: Record<string, string> = {}) => ({
      Username: who.creds.username,
      'Auth-Token': who.creds.token,
      ...extra,
    });

    // 1. The student uploads: a program and a PDF report.
    const form = new FormData();
    form.append('file0', new Blob(['def main():\n    print("hello from S3")\n'], { type: 'text/x-python' }), 'main.py');
    form.append('file1', new Blob([new Uint8Array(samplePdf('Report kept in a bucket'))], { type: 'application/pdf' }), 'report.pdf');
    const uploaded = await fetch(`${base}/api/projects/${world.project}/task_def_id/${world.td}/submission`, {
      method: 'POST',
      headers: as(people.student),
      body: form,
    });
    assert.is(uploaded.status, 201, await uploaded.clone().text());
    const { rows: files } = await client.query<{ submission_id: number; storage_path: string }>(
      'select f.submission_id, f.storage_path from submission_files f order by f.idx',
    );
    assert.is(files.length, 2);
    for (const f of files) assert.ok(await bucket.exists(f.storage_path), `${f.storage_path} is an object in the bucket`);

    // 2. The worker renders the PDF from the objects and stores it as one.
    const pdfKey = await until('the submission PDF', 90_000, async () => {
      const { rows } = await client.query<{ processing: boolean; pdf_path: string | null }>(
        'select s.processing, t.pdf_path from task_submissions s join tasks t on t.id = s.task_id where s.id = $1',
        [files[0].submission_id],
      );
      return !rows[0].processing && rows[0].pdf_path;
    });
    assert.is(pdfKey, storageKeys.submissionPdf(files[0].submission_id));
    const stored = (await readAll(bucket, pdfKey, Number.POSITIVE_INFINITY))!;
    const text = (await pdfPagesText(stored)).join('\n');
    assert.match(text, 'hello from S3', 'the program, read from its object');
    assert.match(text, 'Report kept in a bucket', 'the PDF report, merged from its object');

    // 3. It downloads, whole and by range.
    const pdfUrl = `${base}/api/projects/${world.project}/task_def_id/${world.td}/submission`;
    const whole = await fetch(pdfUrl, { headers: as(people.tutor) });
    assert.is(whole.status, 200);
    assert.is(whole.headers.get('content-type'), 'application/pdf');
    assert.equal(Buffer.from(await whole.arrayBuffer()), stored);
    const part = await fetch(pdfUrl, { headers: as(people.tutor, { Range: 'bytes=100-1123' }) });
    assert.is(part.status, 206);
    assert.is(part.headers.get('content-range'), `bytes 100-1123/${stored.length}`);
    assert.equal(Buffer.from(await part.arrayBuffer()), stored.subarray(100, 1124));
    const tail = await fetch(pdfUrl, { headers: as(people.tutor, { Range: 'bytes=-500' }) });
    assert.is(tail.status, 206);
    assert.equal(Buffer.from(await tail.arrayBuffer()), stored.subarray(stored.length - 500));

    // 4. The portfolio: the task in it, a part uploaded, then compiled by the worker from the objects.
    await client.query('update tasks set include_in_portfolio = true where project_id = $1 and task_definition_id = $2', [world.project, world.td]);
    const partForm = new FormData();
    partForm.append('name', 'Reflection');
    partForm.append('kind', 'document');
    partForm.append('file0', new Blob([new Uint8Array(samplePdf('My reflection, from the bucket'))], { type: 'application/pdf' }), 'reflection.pdf');
    const partUpload = await fetch(`${base}/api/submission/project/${world.project}/portfolio`, {
      method: 'POST',
      headers: as(people.student),
      body: partForm,
    });
    assert.is(partUpload.status, 201, await partUpload.clone().text());
    const compile = await fetch(`${base}/api/projects/${world.project}`, {
      method: 'PUT',
      headers: { ...as(people.student), 'content-type': 'application/json' },
      body: JSON.stringify({ compile_portfolio: true }),
    });
    assert.is(compile.status, 200, await compile.clone().text());
    await until('the compiled portfolio', 90_000, async () => {
      const { rows } = await client.query<{ compile_portfolio: boolean; portfolio_production_date: Date | null }>(
        'select compile_portfolio, portfolio_production_date from projects where id = $1',
        [world.project],
      );
      return !rows[0].compile_portfolio && rows[0].portfolio_production_date !== null;
    });
    const portfolio = await fetch(`${base}/api/submission/project/${world.project}/portfolio`, { headers: as(people.student) });
    assert.is(portfolio.status, 200);
    assert.match(String(portfolio.headers.get('content-disposition')), 'portfolio.pdf');
    const portfolioBytes = Buffer.from(await portfolio.arrayBuffer());
    assert.equal(portfolioBytes, await readAll(bucket, storageKeys.portfolio(world.project), Number.POSITIVE_INFINITY));
    const portfolioText = (await pdfPagesText(portfolioBytes)).join('\n');
    assert.match(portfolioText, 'My reflection, from the bucket', 'the part, read from its object');
    assert.match(portfolioText, 'hello from S3', "the task's PDF, read from its object");

    // 5. The unit's zips of the task, streamed out of the objects.
    const submissions = await fetch(`${base}/api/submission/unit/${world.unit}/task_definitions/${world.td}/download_submissions`, {
      headers: as(people.tutor),
    });
    assert.is(submissions.status, 200);
    const submitted = await unzip(Buffer.from(await submissions.arrayBuffer()));
    const names = [...submitted.keys()].filter((n) => !n.endsWith('/')).sort();
    assert.is(names.length, 2, names.join(', '));
    assert.match(submitted.get(names[0])!.toString(), 'hello from S3');
    assert.equal(submitted.get(names[1])!, samplePdf('Report kept in a bucket'));
    const pdfs = await fetch(`${base}/api/submission/unit/${world.unit}/task_definitions/${world.td}/student_pdfs`, { headers: as(people.tutor) });
    assert.is(pdfs.status, 200);
    const zipped = [...(await unzip(Buffer.from(await pdfs.arrayBuffer()))).values()].filter((b) => b.length > 0);
    assert.equal(zipped, [stored]);

    // Every file is an object; the service's local files directory holds nothing.
    const objects: string[] = [];
    for await (const entry of bucket.list('submissions')) objects.push(entry.key);
    for await (const entry of bucket.list('portfolios')) objects.push(entry.key);
    assert.ok(objects.includes(pdfKey) && objects.includes(storageKeys.portfolio(world.project)), objects.join(', '));
    assert.equal(filesUnder(join(dataDir, 'files')), [], 'nothing under DATA_DIR/files');
  } finally {
    await client.end().catch(() => {});
    await orm.close();
  }
});

test.run();
