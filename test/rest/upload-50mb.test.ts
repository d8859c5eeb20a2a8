// A 50 MB upload to a real upload route (POST .../task_sheet, cap MAX_UPLOAD_BYTES = 10 MB) against
// the service in a process of its own (test/rest/upload-flood.server.ts): with and without a
// declared size it gets its 413, nothing is kept, and the server's resident memory stays flat.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TaskDefinition } from '../../schema/index.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { resetDatabase, testEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import { samplePdf } from '../support/sample-files.ts';
import { seedUnit } from '../support/seed.ts';
import { startFloodServer, type FloodServer } from '../support/flood-server.ts';

const test = suite('upload of 50 MB: a 413, nothing kept, memory flat');

const MB = 1_000_000;
const MiB = 1024 * 1024;
const CAP = 10 * MB; // the default MAX_UPLOAD_BYTES
const BODY_BYTES = 50 * MB;

let server: FloodServer;
let port: number;
let dataDir: string;
let auth: Record<string, string>;
let sheetPath: string;
let storedSheet: string;

test.before(async () => {
  const env = await testEnv();
  await resetDatabase(env);
  const admin = await createUser(env, 'bigadmin', 'Admin');
  const token = await issueToken(env.orm.em.fork(), admin, new Date(), false); // the server runs on the real clock
  auth = { Username: 'bigadmin', 'Auth-Token': token };
  const unit = await seedUnit(env, { code: 'BIG101' });
  const em = env.orm.em.fork();
  const td = em.create(TaskDefinition, {
    unit,
    name: 'Big',
    abbreviation: 'B1',
    description: '',
    startDate: '2026-03-02',
    targetDate: '2026-03-13',
    plagiarismChecks: [],
    uploadRequirements: [],
  });
  await em.flush();
  sheetPath = `/api/units/${unit}/task_definitions/${td.id}/task_sheet`;
  dataDir = mkdtempSync(join(tmpdir(), 'course-50mb-'));
  storedSheet = join(dataDir, 'files', 'task_definitions', String(td.id), 'sheet.pdf');
  // FLOOD_UPLOAD_CAP only starts the shared server; the task sheet route keeps MAX_UPLOAD_BYTES' default.
  server = await startFloodServer({ DATABASE_URL: env.databaseUrl, DATA_DIR: dataDir, FLOOD_UPLOAD_CAP: String(CAP), MAX_UPLOAD_BYTES: '', STORAGE_ROOT: '' });
  port = server.port;
});

test.after(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const BOUNDARY = 'bigboundary';
const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Streams a multipart body: `file`'s first bytes, then `fill` filler bytes (one shared 64 KiB
 * buffer, so the client holds no copy), then `end`. Stops sending once the answer arrives.
 */
function upload(start: Buffer, fill: number, end: Buffer, declare: boolean): Promise<{ status: number; body: string; sent: number; ms: number }> {
  const total = head.length + start.length + fill + end.length + tail.length;
  const started = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (status: number, body: string) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, body, sent, ms: Math.round(performance.now() - started) });
    };
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: sheetPath,
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...(declare ? { 'content-length': String(total) } : {}) },
    });
    const timer = setTimeout(() => finish(0, 'no answer'), 20_000);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        clearTimeout(timer);
        finish(res.statusCode ?? 0, text);
      });
    });
    req.on('error', (e) =>
      setTimeout(() => {
        clearTimeout(timer);
        finish(0, `connection error ${e.message}`);
      }, 200),
    );
    let filled = 0;
    const pump = () => {
      if (sent === 0) {
        req.write(head);
        req.write(start);
        sent += head.length + start.length;
      }
      while (!done && filled < fill) {
        const chunk = fill - filled >= CHUNK.length ? CHUNK : CHUNK.subarray(0, fill - filled);
        filled += chunk.length;
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (done) return;
      sent += end.length + tail.length;
      req.end(Buffer.concat([end, tail]));
    };
    pump();
  });
}

const leftovers = () => {
  const incoming = join(dataDir, 'incoming');
  return existsSync(incoming) ? readdirSync(incoming) : [];
};
const mib = (n: number) => (n / MiB).toFixed(1);

/** A PDF by its signature and end marker, `size` bytes long: `%PDF-` head, padding, a real PDF's end. */
function pdfPieces(size: number): { start: Buffer; fill: number; end: Buffer } {
  const pdf = samplePdf('big');
  const start = Buffer.from('%PDF-1.4\n%');
  const end = Buffer.concat([Buffer.from('\n'), pdf]);
  return { start, fill: size - start.length - end.length, end };
}

test("an authenticated 50 MB upload gets 413 (declared or chunked), nothing is kept, and the server's RSS stays flat", async () => {
  // Warm up the route, the session cache and the storage path with a sheet of a size it takes.
  const fits = pdfPieces(9 * MB);
  for (let i = 0; i < 2; i++) {
    const ok = await upload(fits.start, fits.fill, fits.end, false);
    assert.equal([ok.status, ok.body], [200, 'true']);
  }
  // A 9 MB sheet is stored whole, byte for byte.
  const expected = createHash('sha256').update(fits.start).update(Buffer.alloc(fits.fill, 'x')).update(fits.end).digest('hex');
  assert.is(createHash('sha256').update(readFileSync(storedSheet)).digest('hex'), expected);
  rmSync(storedSheet);

  const before = await server.memory('reset-peak');
  const big = pdfPieces(BODY_BYTES);
  const results = [];
  for (const declare of [true, false]) {
    const res = await upload(big.start, big.fill, big.end, declare);
    results.push(res);
    assert.is(res.status, 413, `${declare ? 'declared' : 'chunked'}: ${res.status} ${res.body}`);
    // A declared size is refused from the headers; an undeclared one when the file passes the cap.
    assert.match(
      JSON.parse(res.body).error,
      declare ? /^The request body is larger than \d+ bytes\.$/ : /^The files of this upload are larger than 10000000 bytes\.$/,
    );
  }
  let after = await server.memory('measure');
  for (let i = 0; i < 20 && after.heap - before.heap >= 8 * MiB; i++) {
    await new Promise((r) => setTimeout(r, 100));
    after = await server.memory('measure');
  }
  console.log(
    `\n  50 MB upload to POST .../task_sheet (cap 10 MB): declared 413 after ${mib(results[0].sent)} MiB sent (${results[0].ms} ms), ` +
      `chunked 413 after ${mib(results[1].sent)} MiB sent (${results[1].ms} ms); server RSS before ${mib(before.rss)} MiB, peak ${mib(after.peak)} MiB ` +
      `(+${mib(after.peak - before.rss)}), after ${mib(after.rss)} MiB; JS heap+buffers ${mib(before.heap)} -> ${mib(after.heap)} MiB`,
  );
  // Buffering the body would add 50 MB; streaming it to a temporary file adds a few socket buffers.
  assert.ok(after.peak - before.rss < 32 * MiB, `RSS peaked ${mib(after.peak - before.rss)} MiB above the start`);
  assert.ok(after.heap - before.heap < 8 * MiB, `${mib(after.heap - before.heap)} MiB more held afterwards`);
  assert.is(existsSync(storedSheet), false, 'nothing stored');
  assert.equal(leftovers(), [], 'no temporary upload left');
});

test.run();
