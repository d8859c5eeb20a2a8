// The service's image (Dockerfile) built and run on a real Docker engine (the one
// scripts/docker-engine.sh starts, or DOCKER_HOST's), as an operator runs it: against the test
// PostgreSQL, ready, an Admin signs in, and `docker stop` ends it in order with exit code 0.
// No registry is reachable here, so the base is the Debian image scripts/docker-base-image.sh makes
// with debootstrap (CONTAINER_BASE_IMAGE=node:22-bookworm-slim uses the official one where it can
// be pulled). The first build takes minutes (npm ci twice, Debian's npm); later ones reuse the
// engine's layer cache. Where no engine answers, the suite says so in one line and its tests count
// as skipped, never as passed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { resetDatabase, testEnv } from '../support/env.ts';
import { freePort } from '../support/server-process.ts';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const LOCAL_BASE = 'local/debian:bookworm';
const BASE = process.env.CONTAINER_BASE_IMAGE || LOCAL_BASE;
const IMAGE = 'course-service:test';
const ADMIN_PASSWORD = 'container-test-password';
const run = promisify(execFile);
const test = suite('operations: the container image on a real Docker engine');

const docker = async (...args: string[]) => (await run('docker', args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();

/** Why the engine cannot be used here, or null when it answers. */
async function noEngine(): Promise<string | null> {
  try {
    await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: 10_000 });
    return null;
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    const why = e.code === 'ENOENT' ? 'no docker command' : (e.stderr?.trim().split('\n')[0] ?? e.message);
    return `no Docker engine answers (${why}); run scripts/docker-engine.sh as root`;
  }
}

/** Runs a long command with its output in a file (a build prints thousands of lines); rejects with the file's end. */
async function logged(what: string, command: string, args: string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'container-test-'));
  const file = join(dir, 'output.log');
  const started = performance.now();
  try {
    const out = createWriteStream(file);
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    const code = await new Promise<number | null>((r) => child.on('close', r));
    await new Promise<void>((r) => out.end(r));
    if (code !== 0) throw new Error(`${what} failed (exit ${code}):\n${readFileSync(file, 'utf8').split('\n').slice(-40).join('\n')}`);
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The CA certificates this machine added to Debian's own (`/usr/local/share/ca-certificates`):
 * where a TLS-inspecting proxy stands between here and the npm registry, the build's npm must
 * trust it as this machine's npm does. Certificates, not secrets; used in the build stages only.
 */
function localCaCertificates(): string {
  const dir = '/usr/local/share/ca-certificates';
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.crt'))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8').trim())
    .join('\n');
}

async function waitFor<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

const reason = await noEngine();
if (reason) {
  console.log(`SKIPPED ops/container: ${reason}`);
  for (const name of ['the image builds', 'its container serves, signs an Admin in, and stops in order on docker stop']) test.skip(name, () => {});
} else {
  let container: string | undefined;

  test.after(async () => {
    if (container) await docker('rm', '-f', container).catch(() => {});
  });

  test('the image builds', async () => {
    if (BASE === LOCAL_BASE) await logged(`scripts/docker-base-image.sh`, 'bash', ['scripts/docker-base-image.sh']);
    // --network host: this engine has no bridge network (dockerd --bridge=none), and the build's
    // RUN steps need the npm registry and Debian's mirror.
    const seconds = await logged(`docker build of ${IMAGE} on ${BASE}`, 'docker', [
      'build',
      '--network',
      'host',
      '--force-rm',
      '--build-arg',
      `BASE_IMAGE=${BASE}`,
      '--build-arg',
      `BUILD_CA_CERTS=${localCaCertificates()}`,
      '--tag',
      IMAGE,
      '.',
    ]);
    console.log(`  built ${IMAGE} on ${BASE} in ${seconds.toFixed(0)} s`);
    const config = JSON.parse(await docker('image', 'inspect', '--format', '{{json .Config}}', IMAGE)) as {
      User: string;
      Entrypoint: string[];
      Cmd: string[];
      Env: string[];
      Healthcheck?: { Test: string[] };
      ExposedPorts: Record<string, unknown>;
    };
    assert.is(config.User, 'course', 'not root');
    assert.equal(config.Entrypoint, ['/usr/bin/tini', '--']);
    assert.equal(config.Cmd, ['node', ...NODE_FLAGS, 'dist/src/main.js'], 'exec form: node is tini’s child, not a shell’s');
    assert.equal(config.Healthcheck?.Test.slice(0, 3), ['CMD', 'node', '-e']);
    assert.ok('3000/tcp' in config.ExposedPorts);
    // No secret is baked in: the image's environment holds settings only.
    const secrets = config.Env.filter((e) => /PASSWORD|SECRET|TOKEN|KEY|DATABASE_URL|STORAGE_URL/i.test(e.split('=')[0]));
    assert.equal(secrets, []);
  });

  test('its container serves, signs an Admin in, and stops in order on docker stop', async () => {
    const env = await testEnv();
    await resetDatabase(env); // no user yet: the container's first start creates the Admin
    const port = await freePort();
    // The engine has no bridge network; the container shares the host's, and so reaches the test
    // PostgreSQL on the loopback.
    container = await docker(
      'run',
      '--detach',
      '--network',
      'host',
      '--env',
      `DATABASE_URL=${env.databaseUrl}`,
      '--env',
      `PORT=${port}`,
      '--env',
      'HOST=127.0.0.1',
      '--env',
      'ADMIN_USERNAME=admin',
      '--env',
      `ADMIN_PASSWORD=${ADMIN_PASSWORD}`,
      IMAGE,
    );
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitFor('GET /api/ready answers 200', 120_000, async () => ((await fetch(`${base}/api/ready`)).status === 200 ? true : undefined));

      const signIn = await fetch(`${base}/api/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      assert.is(signIn.status, 201);
      const body = (await signIn.json()) as { auth_token?: string; user?: { system_role?: string } };
      assert.type(body.auth_token, 'string');

      // The image's own health check command answers healthy in the running container.
      const health = JSON.parse(await docker('inspect', '--format', '{{json .Config.Healthcheck.Test}}', container)) as string[];
      await docker('exec', container, ...health.slice(1));
      // tini is PID 1 and node its child, running as the image's user.
      assert.is((await docker('exec', container, 'cat', '/proc/1/cmdline')).split('\0')[0], '/usr/bin/tini');
      assert.is(await docker('exec', container, 'id', '-u'), '10001');
      assert.match(await docker('exec', container, 'node', '--version'), /^v22\./);
    } catch (error) {
      console.error(`--- container output:\n${await docker('logs', container).catch(() => '')}`);
      throw error;
    }

    // docker stop: SIGTERM to tini, on to node, which stops in order and exits 0 well within the
    // engine's 10 s before SIGKILL (an exit code of 137 would mean it was killed).
    const stopping = performance.now();
    await docker('stop', container);
    const seconds = (performance.now() - stopping) / 1000;
    console.log(`  docker stop took ${seconds.toFixed(1)} s`);
    const state = JSON.parse(await docker('inspect', '--format', '{{json .State}}', container)) as { ExitCode: number };
    const logs = await run('docker', ['logs', container]);
    const output = logs.stdout + logs.stderr;
    assert.is(state.ExitCode, 0, `exit code 0, not killed:\n${output}`);
    assert.match(output, 'SIGTERM', 'node itself got the signal');
  });
}

test.run();
