// Large bodies over real sockets against a server in its own process: the answer must come
// before the body is read (credentials, declared sizes), bodies without a declared size must be
// cut off at the limit, and the server's memory must stay flat while it is flooded.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { resetDatabase, testEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import type { Memory } from './upload-flood.server.ts';
import { startFloodServer, type FloodServer } from '../support/flood-server.ts';

const test = suite('upload flood: nothing is read before credentials, and memory stays flat');

const MiB = 1024 * 1024;
const FLOOD_BYTES = 29 * MiB;
const UPLOAD_CAP = 5_000_000;
// Only a request that is never answered fails; how fast the answers come on a busy machine is the
// printed figure's business (no test asserts a time).
const GIVE_UP_MS = 60_000;

let server: FloodServer;
let port: number;
let dataDir: string;
let auth: Record<string, string>;

test.before(async () => {
  const env = await testEnv();
  await resetDatabase(env);
  const user = await createUser(env, 'floodadmin', 'Admin');
  // The server runs on the real clock.
  const token = await issueToken(env.orm.em.fork(), user, new Date(), false);
  auth = { Username: 'floodadmin', 'Auth-Token': token };
  dataDir = mkdtempSync(join(tmpdir(), 'course-flood-'));
  server = await startFloodServer({ DATABASE_URL: env.databaseUrl, DATA_DIR: dataDir, FLOOD_UPLOAD_CAP: String(UPLOAD_CAP) });
  port = server.port;
});

test.after(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Body {
  head?: string;
  /** Filler bytes after `head`, streamed in 64 KiB chunks of one shared buffer. */
  fill: number;
  tail?: string;
  /** Send Content-Length (else the body goes chunked, its size unknown until the end). */
  declare: boolean;
  /** Stop after this many bytes and wait, to show the answer needs none of the rest. */
  stallAfter?: number;
}

interface Outcome {
  status: number;
  ms: number;
  /** Bytes written when the answer arrived. */
  sent: number;
  body: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** A POST that streams its body, and stops sending as soon as the answer arrives. */
function post(path: string, headers: Record<string, string>, body: Body): Promise<Outcome> {
  const head = Buffer.from(body.head ?? '');
  const tail = Buffer.from(body.tail ?? '');
  const total = head.length + body.fill + tail.length;
  const started = performance.now();
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const finish = (outcome: Omit<Outcome, 'ms'>) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...outcome, ms: Math.round(performance.now() - started) });
    };
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path,
      headers: { ...headers, ...(body.declare ? { 'content-length': String(total) } : {}) },
    });
    const timer = setTimeout(() => finish({ status: 0, sent, body: 'no answer' }), GIVE_UP_MS);
    req.on('response', (res) => {
      const at = sent;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => finish({ status: res.statusCode ?? 0, sent: at, body: text }));
      res.on('error', () => finish({ status: res.statusCode ?? 0, sent: at, body: text }));
    });
    // The server may drop the connection once it has answered; only a missing answer counts.
    req.on('error', (e) => setTimeout(() => finish({ status: 0, sent, body: `connection error ${e.message}` }), 200));
    let filled = 0;
    const pump = () => {
      if (sent === 0) sent += write(head);
      while (!answered && filled < body.fill) {
        if (body.stallAfter !== undefined && sent >= body.stallAfter) return;
        const chunk = body.fill - filled >= CHUNK.length ? CHUNK : CHUNK.subarray(0, body.fill - filled);
        filled += chunk.length;
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && filled >= body.fill) {
        sent += tail.length;
        req.end(tail);
      }
    };
    const write = (b: Buffer) => {
      if (b.length) req.write(b);
      return b.length;
    };
    pump();
  });
}

const BOUNDARY = 'floodboundary';
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const JSON_TYPE = { 'content-type': 'application/json' };
const fileHead = (name = 'file') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const fileTail = `\r\n--${BOUNDARY}--\r\n`;
const bigFile = (declare: boolean, name?: string): Body => ({ head: fileHead(name), fill: FLOOD_BYTES, tail: fileTail, declare });
const bigJson = (declare: boolean): Body => ({ head: '{"campus":{"name":"', fill: FLOOD_BYTES, tail: '"}}', declare });

const leftovers = () => (existsSync(join(dataDir, 'incoming')) ? readdirSync(join(dataDir, 'incoming')) : []);
const mib = (n: number) => (n / MiB).toFixed(1);

test('without credentials the 419 comes before the body is sent, whatever its type and size', async () => {
  for (const [headers, body] of [
    [MULTIPART, { ...bigFile(true), stallAfter: 256 * 1024 }],
    [MULTIPART, { ...bigFile(false), stallAfter: 256 * 1024 }],
    [JSON_TYPE, { ...bigJson(true), stallAfter: 256 * 1024 }],
    [
      { ...MULTIPART, Username: 'floodadmin', 'Auth-Token': 'forged' },
      { ...bigFile(true), stallAfter: 256 * 1024 },
    ],
  ] as const) {
    const res = await post('/api/campuses', headers, body);
    assert.is(res.status, 419, `${JSON.stringify(headers)}: ${res.body}`);
    assert.ok(res.sent < FLOOD_BYTES, 'answered with most of the body unsent');
    assert.type(JSON.parse(res.body).error, 'string');
  }
});

test('with credentials, a declared size over the limit is a 413 before the body is sent; a file where none is taken, a 400', async () => {
  const json = await post('/api/campuses', { ...JSON_TYPE, ...auth }, { ...bigJson(true), stallAfter: 256 * 1024 });
  assert.is(json.status, 413, json.body);
  const multipart = await post('/api/campuses', { ...MULTIPART, ...auth }, { ...bigFile(true), stallAfter: 256 * 1024 });
  assert.is(multipart.status, 413, multipart.body);
  const upload = await post('/api/flood/upload', { ...MULTIPART, ...auth }, { ...bigFile(true), stallAfter: 256 * 1024 });
  assert.is(upload.status, 413, upload.body);
  const file = await post('/api/campuses', { ...MULTIPART, ...auth }, { ...bigFile(false), stallAfter: 256 * 1024 });
  assert.equal([file.status, JSON.parse(file.body)], [400, { error: 'file is a file, and this operation takes none' }]);
  // A file of a size the route takes is streamed to disk and gone afterwards.
  const fits = await post('/api/flood/upload', { ...MULTIPART, ...auth }, { head: fileHead(), fill: 1_000_000, tail: fileTail, declare: false });
  assert.equal([fits.status, JSON.parse(fits.body)], [201, { bytes: 1_000_000 }]);
  assert.equal(leftovers(), []);
});

/** Everything at once: uploads without credentials, oversized JSON and multipart, files where none are taken. */
type Request = [what: string, path: string, headers: Record<string, string>, body: Body, status: number];

function flood(): Request[] {
  return [
    ...Array.from({ length: 4 }, (): Request => ['anonymous upload', '/api/campuses', MULTIPART, bigFile(true), 419]),
    ['anonymous chunked upload', '/api/campuses', MULTIPART, bigFile(false), 419],
    ['anonymous chunked upload', '/api/campuses', MULTIPART, bigFile(false), 419],
    ['oversized JSON', '/api/campuses', { ...JSON_TYPE, ...auth }, bigJson(true), 413],
    ['oversized chunked JSON', '/api/campuses', { ...JSON_TYPE, ...auth }, bigJson(false), 413],
    ['oversized chunked JSON', '/api/campuses', { ...JSON_TYPE, ...auth }, bigJson(false), 413],
    ['oversized multipart', '/api/campuses', { ...MULTIPART, ...auth }, bigFile(true), 413],
    ['file where none is taken', '/api/campuses', { ...MULTIPART, ...auth }, bigFile(false), 400],
    ['upload over the cap', '/api/flood/upload', { ...MULTIPART, ...auth }, bigFile(true), 413],
    ['chunked upload over the cap', '/api/flood/upload', { ...MULTIPART, ...auth }, bigFile(false), 413],
    ['chunked upload over the cap', '/api/flood/upload', { ...MULTIPART, ...auth }, bigFile(false), 413],
  ];
}

test("a flood of large bodies gets 4xx answers, and the server's memory stays flat", async () => {
  // Warm up: the routes, the session cache and the parsers are in use before measuring.
  for (let i = 0; i < 3; i++) {
    await post('/api/campuses', { ...MULTIPART }, { head: fileHead(), fill: 1000, tail: fileTail, declare: true });
    await post('/api/flood/upload', { ...MULTIPART, ...auth }, { head: fileHead(), fill: 100_000, tail: fileTail, declare: true });
  }
  const rounds: { before: Memory; after: Memory }[] = [];
  for (let round = 1; round <= 2; round++) {
    const requests = flood();
    const before = await server.memory('reset-peak');
    const outcomes = await Promise.all(requests.map(([, path, headers, body]) => post(path, headers, body)));
    // Answered is not finished: the server may still be throwing away the rest of a body.
    let after = await server.memory('measure');
    for (let i = 0; i < 20 && after.heap - before.heap >= 8 * MiB; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await server.memory('measure');
    }
    rounds.push({ before, after });
    console.log(
      `\n  flood ${round}: ${requests.length} x ${FLOOD_BYTES / MiB} MiB in parallel; server RSS before ${mib(before.rss)} MiB, ` +
        `peak ${mib(after.peak)} MiB, after ${mib(after.rss)} MiB; JS heap+buffers ${mib(before.heap)} -> ${mib(after.heap)} MiB; ` +
        `slowest answer ${Math.max(...outcomes.map((o) => o.ms))} ms; ${mib(outcomes.reduce((n, o) => n + o.sent, 0))} MiB sent before the answers`,
    );
    requests.forEach(([what, , , , status], i) => {
      const o = outcomes[i];
      assert.is(o.status, status, `${what}: ${o.status} ${o.body}`);
      assert.type(JSON.parse(o.body).error, 'string', what);
    });
    // Buffering the bodies would add 29 MiB each (the old server grew by hundreds of MiB).
    assert.ok(after.peak - before.rss < 48 * MiB, `round ${round}: RSS peaked ${mib(after.peak - before.rss)} MiB above the start`);
    assert.ok(after.heap - before.heap < 8 * MiB, `round ${round}: ${mib(after.heap - before.heap)} MiB more held after the flood`);
    assert.equal(leftovers(), [], 'no upload is kept');
  }
  // A second flood finds the memory the first one used and needs no more. Measured against the
  // first flood's peak: the allocator may hand memory back between floods, and taking it again is
  // not growth.
  const [first, second] = rounds;
  const used = Math.max(first.after.peak, first.after.rss);
  assert.ok(second.after.peak - used < 16 * MiB, `the second flood grew RSS by ${mib(second.after.peak - used)} MiB past the first's peak`);
  // And the server still serves.
  const ok = await post('/api/flood/upload', { ...MULTIPART, ...auth }, { head: fileHead(), fill: 10, tail: fileTail, declare: true });
  assert.is(ok.status, 201, ok.body);
});

test.run();
