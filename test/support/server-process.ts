// The service as an operator runs it: `node --import tsx src/main.ts` (or another entry, such as the
// build's `dist/src/main.js`) in its own process, with its own embedded PostgreSQL under a data
// directory of the test's (or DATABASE_URL), stopped by signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.ts';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
export const ADMIN_PASSWORD = 'operator-test-password';

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  /** The embedded postmaster's pid, from its pid file. */
  postmasterPid(): number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** How the tests start the service by default: the TypeScript sources through tsx, with the service's Node flags. */
export const SOURCE_ENTRY = [...NODE_FLAGS, '--import', 'tsx', 'src/main.ts'];

/** Starts the service process without waiting for it; `entry` is node's arguments. */
export async function launchServer(dataDir: string, env: Record<string, string> = {}, entry = SOURCE_ENTRY): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | string>((r) => child.on('exit', (code, signal) => r(code ?? signal ?? 'unknown')));
  const server: ServerProcess = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    postmasterPid: () => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]),
  };
  return server;
}

/** Starts the service and resolves once it is ready, or rejects with what it printed. */
export async function startServer(dataDir: string, env: Record<string, string> = {}, timeoutMs = 60_000, entry = SOURCE_ENTRY): Promise<ServerProcess> {
  const server = await launchServer(dataDir, env, entry);
  const { child, exited } = server;
  const until = Date.now() + timeoutMs;
  let exitCode: number | string | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < until && exitCode === undefined) {
    const ready = await fetch(`${server.baseUrl}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (exitCode !== undefined) throw new Error(`the service exited (${exitCode}) before it was ready:\n${server.output()}`);
  child.kill('SIGKILL');
  throw new Error(`the service did not become ready:\n${server.output()}`);
}

/** The admin's credentials on a started server, as the web client sends them. */
export async function signInAdmin(server: ServerProcess): Promise<Record<string, string>> {
  const res = await fetch(`${server.baseUrl}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const body = (await res.json()) as { auth_token: string };
  return { Username: 'admin', 'Auth-Token': body.auth_token, 'content-type': 'application/json' };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
