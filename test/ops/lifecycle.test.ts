// Stopping, killing and restarting the real service process, as an operator would: SIGTERM during
// work, kill -9, a database killed under it, and a data directory it cannot use.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { startFakeDocker, type FakeDockerEngine } from '../support/fake-docker.ts';
import { ADMIN_PASSWORD, alive, launchServer, signInAdmin, startServer, type ServerProcess } from '../support/server-process.ts';
import { Agent, request } from 'node:http';

const test = suite('operations: stopping, killing and restarting the service');
let engine: FakeDockerEngine;
let dataDir: string;
let running: ServerProcess[] = [];

test.before(async () => {
  engine = await startFakeDocker();
});
test.after(async () => {
  await engine.close();
});
test.before.each(() => {
  engine.requests.length = 0;
  dataDir = mkdtempSync(join(tmpdir(), 'course-ops-'));
  chmodSync(dataDir, 0o755); // as root, the embedded server's own user must reach its data
  running = [];
});
test.after.each(async () => {
  for (const server of running) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  // A postmaster orphaned by a test's kill -9 is stopped by starting on its data directory again.
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer(dataDir, { OVERSEER_ENABLED: 'true', DOCKER_HOST: engine.host, SHUTDOWN_GRACE_SECONDS: '5', ...env });
  running.push(server);
  return server;
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function eventually(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) if (await check()) return;
  assert.unreachable(`${what}: not within ${ms} ms`);
}

/** Queues a pull of a new overseer image through REST and waits until the engine is working on it. */
async function startPull(server: ServerProcess, headers: Record<string, string>, pullsBefore = 0): Promise<number> {
  const created = await fetch(`${server.baseUrl}/api/admin/overseer_images`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ overseer_image: { name: 'Python', tag: 'overseer/python:3' } }),
  });
  const { id } = (await created.json()) as { id: number };
  const pull = await fetch(`${server.baseUrl}/api/admin/overseer_images/${id}/pull_image`, { method: 'PUT', headers, body: '{}' });
  assert.is(pull.status, 200);
  await eventually(() => engine.pulls().length > pullsBefore, 30_000, 'the worker starts the pull');
  return id;
}

/**
 * One request on a connection of its own; `answer` resolves with the status, or the socket error's
 * message, and `sent` once the whole request is written to the connection.
 */
function sendTracked(server: ServerProcess, method: string, path: string, headers: Record<string, string>, body?: string) {
  let sent!: Promise<void>;
  const answer = new Promise<number | string>((resolve) => {
    const req = request(`${server.baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    sent = new Promise((written) => {
      req.once('finish', () => written());
      req.once('error', () => written());
    });
    req.on('error', (error) => resolve(error.message));
    req.end(body);
  });
  return { answer, sent };
}

/** Reads the stopped service's database directly. */
async function inDatabase<T>(query: (client: pg.Client) => Promise<T>): Promise<T> {
  const db = await startEmbeddedPostgres(join(dataDir, 'pg'), { persistent: true, log: () => {} });
  const client = new pg.Client(db.url);
  await client.connect();
  try {
    return await query(client);
  } finally {
    await client.end();
    await db.stop();
  }
}

test('SIGTERM during a burst of requests and a running job: every request is answered, the job finishes, exit 0', async () => {
  // A grace period long enough for 10 scrypt sign-ins on a busy 2-core machine.
  const server = await start({ SHUTDOWN_GRACE_SECONDS: '20' });
  const admin = await signInAdmin(server);
  engine.behave({ kind: 'slow', ms: 1_500 });
  const imageId = await startPull(server, admin);

  // Each on its own connection, fully sent before the signal: these are the requests in flight.
  const burst = Array.from({ length: 20 }, (_, i) =>
    i % 2
      ? sendTracked(server, 'GET', '/api/users', admin)
      : sendTracked(server, 'POST', '/api/auth', { 'content-type': 'application/json' }, JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD })),
  );
  // Every request written before the signal (on a loaded machine that takes longer than a fixed
  // wait), then a moment for the service to take them off its listening socket.
  await Promise.all(burst.map((b) => b.sent));
  await new Promise((r) => setTimeout(r, 500));
  server.child.kill('SIGTERM');
  const statuses = await Promise.all(burst.map((b) => b.answer));
  assert.equal(
    statuses.filter((s) => s !== 200 && s !== 201),
    [],
    'every request in flight got its answer',
  );
  assert.is(await within(server.exited, 45_000, 'the stop'), 0, server.output());
  assert.not.match(server.output(), /Unhandled|uncaught|BoundPool|error handlers/i);

  const [image, jobs] = await inDatabase(async (c) => [
    (await c.query('select pull_status from overseer_images where id = $1', [imageId])).rows[0],
    (
      await c.query(
        'select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id ' +
          "where t.identifier = 'pull_overseer_image'",
      )
    ).rows[0],
  ]);
  assert.is(image.pull_status, 'pulled', 'the running job finished before the exit');
  assert.is(jobs.n, 0);
});

interface AgentOutcome {
  status?: number;
  connection?: string;
  error?: string;
  /** Whether the request went out on a kept-alive connection (an error there would be ours). */
  reused?: boolean;
}

/** One request on `agent`; resolves with the status and Connection header, or the socket error's code. */
function onAgent(server: ServerProcess, agent: Agent, path: string): Promise<AgentOutcome> {
  return new Promise((resolve) => {
    const req = request(`${server.baseUrl}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: String(res.headers.connection ?? '') }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, reused: req.reusedSocket }));
    req.end();
  });
}

test('SIGTERM under keep-alive traffic: no connection reset, every request answered 200, the stop does not wait out the grace', async () => {
  const server = await start({ SHUTDOWN_GRACE_SECONDS: '20' });
  const outcomes: AgentOutcome[] = [];
  let signalled = false;
  // Ten clients, each on one keep-alive connection, sending a request every few tens of ms until
  // the server is gone (a new connection refused).
  const clients = Array.from({ length: 10 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (;;) {
        const outcome = await onAgent(server, agent, '/api/campuses');
        outcomes.push(outcome);
        if (outcome.error) return;
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
      }
    } finally {
      agent.destroy();
    }
  });
  await new Promise((r) => setTimeout(r, 1_500));
  server.child.kill('SIGTERM');
  signalled = true;
  assert.is(await within(server.exited, 45_000, 'the stop'), 0, server.output());
  await Promise.all(clients);
  assert.ok(signalled);
  // A kept-alive connection is never reset under a client. A new connection may be: one the kernel
  // completed but the process had not yet accepted when the listening socket closed is reset by the
  // kernel (on a loaded machine that window is long enough to hit). Its request never reached the
  // service, so for the client it is the server gone, as a refusal is.
  assert.equal(
    outcomes.filter((o) => o.error && o.reused).map((o) => o.error),
    [],
    'no request on a kept-alive connection fails',
  );
  const errors = outcomes.filter((o) => o.error).map((o) => (o.error === 'ECONNRESET' ? 'ECONNREFUSED' : o.error));
  assert.equal([...new Set(errors)], ['ECONNREFUSED'], 'each client ends when the server is gone, and only then');
  assert.is(outcomes.filter((o) => o.error).length, 10, 'one error a client: its last');
  assert.equal([...new Set(outcomes.filter((o) => o.status !== undefined).map((o) => o.status))], [200], 'every answer a 200');
  assert.not.match(server.output(), 'requests still running', 'idle keep-alive connections did not hold the stop');
});

/** Starts a signed-in upload and sends only the start of its file; resolves once its temporary file exists. */
async function startSlowUpload(server: ServerProcess, headers: Record<string, string>): Promise<Socket> {
  const port = Number(new URL(server.baseUrl).port);
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `POST /api/projects/1/task_def_id/1/submission HTTP/1.1\r\nHost: x\r\nUsername: ${headers.Username}\r\nAuth-Token: ${headers['Auth-Token']}\r\n` +
      'Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 1000000\r\n\r\n--XyZ\r\nContent-Disposition: form-data; name="file0"; ' +
      'filename="a.pdf"\r\n\r\n' +
      '%PDF-1.4 '.repeat(2_000),
  );
  await eventually(() => incoming().length > 0, 30_000, 'the upload streams to a temporary file');
  return socket;
}

const incoming = () => (existsSync(join(dataDir, 'incoming')) ? readdirSync(join(dataDir, 'incoming')) : []);

test('an upload cut off by a stop leaves no temporary file behind', async () => {
  const server = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
  const upload = await startSlowUpload(server, await signInAdmin(server));
  server.child.kill('SIGTERM');
  assert.is(await within(server.exited, 45_000, 'the stop'), 0, server.output());
  upload.destroy();
  assert.equal(incoming(), []);
});

test('after kill -9 mid-upload, a start sweeps temporary files older than any request may keep one, and only those', async () => {
  const first = await start();
  const upload = await startSlowUpload(first, await signInAdmin(first));
  first.child.kill('SIGKILL');
  await first.exited;
  upload.destroy();
  const [left] = incoming();
  assert.ok(left, 'kill -9 leaves the partial file');
  const dir = join(dataDir, 'incoming');
  const hoursAgo = new Date(Date.now() - 2 * 3600_000);
  utimesSync(join(dir, left!), hoursAgo, hoursAgo);
  writeFileSync(join(dir, 'another-process-upload'), 'still being written');
  const second = await start();
  assert.equal(incoming(), ['another-process-upload'], 'the old leftover is gone, a file of a request that may still run stays');
  assert.match(second.output(), 'removed 1 temporary upload file');
  second.child.kill('SIGTERM');
  assert.is(await within(second.exited, 45_000, 'the stop'), 0);
});

test('a job still running when the grace period ends is handed back unlocked, and the process still exits 0', async () => {
  const server = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
  engine.behave({ kind: 'slow', ms: 60_000 });
  await startPull(server, await signInAdmin(server));
  server.child.kill('SIGTERM');
  assert.is(await within(server.exited, 30_000, 'the stop'), 0);
  const job = await inDatabase(async (c) => (await c.query('select locked_at, locked_by, attempts from graphile_worker._private_jobs')).rows[0]);
  assert.is(job.locked_at, null, 'no worker holds the job');
  assert.is(job.locked_by, null);
});

test('after kill -9 the next start stops the orphaned database, starts cleanly, and runs the abandoned job again', async () => {
  const first = await start();
  engine.behave({ kind: 'slow', ms: 60_000 });
  const imageId = await startPull(first, await signInAdmin(first));
  const orphan = first.postmasterPid();
  first.child.kill('SIGKILL');
  await first.exited;
  assert.ok(alive(orphan), 'kill -9 leaves the postmaster running');

  engine.behave({ kind: 'succeed' });
  const second = await start();
  assert.not.ok(alive(orphan), 'the leftover postmaster was stopped');
  assert.match(second.output(), 'left running');
  assert.match(second.output(), 'released 1 job');
  const admin = await signInAdmin(second);
  await eventually(
    async () => {
      const res = await fetch(`${second.baseUrl}/api/admin/overseer_images`, { headers: admin });
      const images = (await res.json()) as { id: number; pulled_image_status: string }[];
      return images.find((i) => i.id === imageId)?.pulled_image_status === 'success';
    },
    30_000,
    'the abandoned pull runs again and succeeds',
  );
  second.child.kill('SIGINT');
  assert.is(await within(second.exited, 45_000, 'the stop'), 0);
});

test('the embedded database killed under a running service is restarted, and no request gets a 500', async () => {
  const server = await start();
  process.kill(server.postmasterPid(), 'SIGKILL');
  const statuses = new Set<number>();
  const ask = async () => {
    const status = await fetch(`${server.baseUrl}/api/campuses`).then((r) => r.status);
    statuses.add(status);
    return status;
  };
  // A backend already connected may still answer a moment after its postmaster died, so first
  // wait for the supervisor to notice and restart the server, asking all the while.
  await eventually(
    async () => {
      await ask();
      return server.output().includes('restarting');
    },
    30_000,
    'the supervisor restarts the embedded database',
  );
  await eventually(async () => (await ask()) === 200, 30_000, 'the service answers from the database again');
  assert.not.ok(statuses.has(500), `statuses seen: ${[...statuses]}`);
  assert.is((await fetch(`${server.baseUrl}/api/ready`)).status, 200);
  server.child.kill('SIGTERM');
  assert.is(await within(server.exited, 45_000, 'the stop'), 0);
});

test('the superuser password is generated per data directory and kept readable only by its owner', async () => {
  const server = await start();
  server.child.kill('SIGTERM');
  assert.is(await server.exited, 0);
  assert.is(statSync(join(dataDir, 'pg.password')).mode & 0o777, 0o600);
  const db = await startEmbeddedPostgres(join(dataDir, 'pg'), { persistent: true, log: () => {} });
  try {
    const guessed = new pg.Client(db.url.replace(/:[^:@]+@/, ':postgres@'));
    const refused = await guessed.connect().then(
      () => false,
      () => true,
    );
    assert.ok(refused, 'the old fixed password postgres/postgres no longer works');
    await guessed.end().catch(() => {});
  } finally {
    await db.stop();
  }
});

test('SIGTERM while the service is still starting ends in the same ordered stop: exit 0, no database left running', async () => {
  const server = await launchServer(dataDir, { SHUTDOWN_GRACE_SECONDS: '5' });
  running.push(server);
  await eventually(() => existsSync(join(dataDir, 'pg', 'postmaster.pid')), 30_000, 'the embedded database starts');
  const postmaster = server.postmasterPid();
  server.child.kill('SIGTERM');
  assert.is(await within(server.exited, 30_000, 'the stop'), 0, server.output());
  assert.not.ok(alive(postmaster), 'the embedded database was stopped');
});

test('as root, a project in a directory the postgres user cannot enter still starts, serves and stops with exit 0', async () => {
  if (process.getuid?.() !== 0) return;
  const closed = mkdtempSync(join(tmpdir(), 'course-closed-')); // mode 0700, like /root or mktemp -d
  const server = await startServer(join(closed, '.data'), { SHUTDOWN_GRACE_SECONDS: '5' });
  running.push(server);
  const cluster = readFileSync(join(closed, '.data', 'pg.location'), 'utf8').trim();
  try {
    assert.match(server.output(), 'cannot reach');
    assert.is((await fetch(`${server.baseUrl}/api/campuses`)).status, 200);
    server.child.kill('SIGTERM');
    assert.is(await within(server.exited, 45_000, 'the stop'), 0, server.output());
  } finally {
    rmSync(closed, { recursive: true, force: true });
    rmSync(cluster, { recursive: true, force: true });
    rmSync(`${cluster}.password`, { force: true });
  }
});

test('a data directory PostgreSQL cannot use stops the start with its own words and exit 1', async () => {
  mkdirSync(join(dataDir, 'pg'), { recursive: true });
  writeFileSync(join(dataDir, 'pg', 'PG_VERSION'), '18\n');
  const failure = await start().then(
    () => '',
    (error: Error) => error.message,
  );
  assert.match(failure, /exited \(1\)[\s\S]*cannot start: PostgreSQL did not start[\s\S]*postgresql.conf/);
});

test.run();
