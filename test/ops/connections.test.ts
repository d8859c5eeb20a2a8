// Connections a client holds open (issue 14 §4): slow bodies are cut after their route's
// allowance, an upload route's allowance is longer for a signed-in client, a refused oversized
// header says `Connection: close`, and running out of file descriptors answers 503 (never 500)
// with readiness 503 while it lasts. Allowances are shortened through the configuration, and the
// test waits generously for what must happen eventually.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { createServices } from '../../src/trpc/context.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api, type TestResponse } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('operations: connections, slow bodies and file descriptors');
let env: TestEnv;
let people: People;
let opened: { service: TestEnv; orm: Orm }[] = [];
let sockets: Socket[] = [];

freshEachTest(test, (world) => ({ env, people } = world));

test.after.each(async () => {
  for (const s of sockets) s.destroy();
  sockets = [];
  for (const { service, orm } of opened) {
    await service.app.close();
    await orm.close();
  }
  opened = [];
});

/** A service of its own, listening on a port, with these environment settings. */
async function serviceWith(settings: Record<string, string>, poolMax = 2): Promise<{ service: TestEnv; port: number; orm: Orm }> {
  const config = { ...loadConfig({ DATA_DIR: env.config.dataDir, ...settings }), storageRoot: env.config.storageRoot, sessionCacheSeconds: 0 };
  const orm = await createOrm(env.databaseUrl, { poolMax });
  const services = createServices(orm, config, env.clock, env.services.logger);
  const service = { ...env, orm, config, services, app: await buildApp(services) };
  opened.push({ service, orm });
  await service.app.listen({ host: '127.0.0.1', port: 0 });
  return { service, orm, port: (service.app.server.address() as { port: number }).port };
}

/** Opens a connection and sends `head` (and the start of a body); resolves when connected. */
function slowRequest(port: number, head: string): Promise<{ socket: Socket; closed: () => boolean; received: () => string }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    let received = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      resolve({ socket, closed: () => closed, received: () => received });
    });
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    socket.once('error', reject);
    sockets.push(socket);
  });
}

async function eventually(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) if (check()) return;
  assert.unreachable(`${what}: not within ${ms} ms`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a slow body to POST /api/auth or /trpc/auth.signIn is cut once the body allowance has passed', async () => {
  const { port } = await serviceWith({ REQUEST_BODY_TIMEOUT_SECONDS: '1' });
  const auth = await slowRequest(port, 'POST /api/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":');
  const trpc = await slowRequest(
    port,
    'POST /trpc/auth.signIn HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username":',
  );
  await eventually(() => auth.closed() && trpc.closed(), 30_000, 'both connections closed by the server');
});

test('a signed-in upload may take the longer upload allowance; then it is cut too', async () => {
  const w = await taskWorld(env, people);
  const { port } = await serviceWith({ REQUEST_BODY_TIMEOUT_SECONDS: '1', UPLOAD_BODY_TIMEOUT_SECONDS: '8' });
  const { username, token } = people.student.creds;
  const upload = await slowRequest(
    port,
    `POST /api/projects/${w.project}/task_def_id/${w.td}/submission HTTP/1.1\r\nHost: x\r\nUsername: ${username}\r\nAuth-Token: ${token}\r\n` +
      'Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 100000\r\n\r\n--XyZ\r\nContent-Disposition: form-data; name="file0"; ' +
      'filename="a.pdf"\r\n\r\n%PDF',
  );
  await sleep(3_000);
  assert.not.ok(upload.closed(), 'still open after three times the ordinary body allowance');
  await eventually(() => upload.closed(), 40_000, 'the upload cut after its own allowance');
});

test('431 for oversized headers says Connection: close and answers {"error"}', async () => {
  const { port } = await serviceWith({});
  const big = await slowRequest(port, `GET /api/campuses HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  await eventually(() => big.closed(), 10_000, 'the connection closed');
  const [head, body] = big.received().split('\r\n\r\n');
  assert.match(head!, /^HTTP\/1\.1 431 /);
  assert.match(head!, /\r\nconnection: close/i);
  assert.ok(typeof JSON.parse(body!).error === 'string');
});

test('out of file descriptors: a request that needs a new one gets 503, never 500, and readiness says 503', async () => {
  if (process.platform !== 'linux') return;
  const { service, orm } = await serviceWith({ SESSION_CACHE_SECONDS: '0' }, 1);
  assert.is((await api(service, 'GET', '/api/ready')).status, 200);
  // No idle database connection left: the next request must open a socket.
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as pg.Pool;
  while (pool.totalCount > 0) (await pool.connect()).release(true);
  await sleep(1_000); // the dropped connections' sockets close
  const [soft, hard] = execFileSync('prlimit', ['--pid', String(process.pid), '--nofile', '--noheadings', '--raw', '--output', 'SOFT,HARD'], {
    encoding: 'utf8',
  })
    .trim()
    .split(/\s+/);
  // A limit a little above what is open, then every descriptor left taken, so that nothing new can open.
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${readdirSync('/proc/self/fd').length + 64}:${hard}`]);
  const fillers: number[] = [];
  let users: TestResponse;
  let ready: TestResponse;
  const fill = () => {
    try {
      for (;;) fillers.push(openSync('/dev/null', 'r'));
    } catch {
      // EMFILE: the process is out of descriptors.
    }
  };
  fill();
  // A connection whose connect finished after the drain above (seen once on a machine with both
  // cores busy) sits idle in the pool: drop it too, and take the descriptor it held.
  while (pool.idleCount > 0) (await pool.connect()).release(true);
  await sleep(200);
  fill();
  try {
    await sleep(6_000); // past readiness's cached storage probe
    users = await api(service, 'GET', '/api/users', { as: people.admin.creds });
    ready = await api(service, 'GET', '/api/ready');
  } finally {
    for (const fd of fillers) closeSync(fd);
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${soft}:${hard}`], { stdio: 'ignore' });
  }
  assert.is(users.status, 503, users.text);
  assert.match(users.body.error, 'too many connections and files open');
  assert.is(ready.status, 503, ready.text);
  assert.match(ready.body.error, 'too many open files');
});

test.run();
