// A real PostgreSQL server run from the binaries that npm installs, for `npm start` without
// DATABASE_URL and for the tests. It is supervised: a server that dies is started again on the
// same port (the pools then reconnect by themselves), a server left running by a killed earlier
// run of the same data directory is stopped before starting, and its errors reach the operator.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { assertDataDirectoryReachable, platformBinaries, postgresRunAs, reachableBinaries, type PostgresBinaries, type RunAs } from './postgres-host.ts';

export interface EmbeddedDatabase {
  url: string;
  /** The postmaster's process id while it runs (tests kill it to prove recovery). */
  pid(): number | undefined;
  /** Stops the server; with `persistent: false` its data is removed too. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** false: the data directory is removed on stop (tests). */
  persistent: boolean;
  /** Where operator-facing messages go (restarts, leftovers, the server's fatal errors): the service's logger, or a script's terminal. */
  log: (message: string) => void;
  /** A fixed port instead of a free one (tests restart a server where its clients expect it). */
  port?: number;
}

const DATABASE = 'course_service';
const SUPERUSER = 'postgres';
const READY = 'database system is ready to accept connections';

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no free port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(50)) if (!alive(pid)) return true;
  return !alive(pid);
}

/**
 * A postmaster of this data directory left running by an earlier run that was killed (kill -9
 * leaves it orphaned, holding postmaster.pid) is shut down, so that this start can begin cleanly.
 */
async function stopLeftover(dataDir: string, log: (m: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return; // stale: PostgreSQL removes it itself
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // No /proc (macOS): trust the pid file, which only PostgreSQL writes.
  }
  if (cmdline && !cmdline.includes('postgres')) return; // the pid was reused by an unrelated process
  log(`stopping a PostgreSQL server (pid ${pid}) left running on ${dataDir} by an earlier run`);
  process.kill(pid, 'SIGINT'); // fast shutdown: ends sessions, writes a checkpoint
  if (await waitForExit(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT');
  if (!(await waitForExit(pid, 5_000))) throw new Error(`A PostgreSQL server (pid ${pid}) still holds ${dataDir}; stop it and start again.`);
}

function spawnAndWait(command: string, args: string[], runAs: RunAs | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...runAs, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', (error) => reject(new Error(`Could not run ${command}: ${error.message}`)));
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} failed (exit ${code}): ${output.trim()}`))));
  });
}

/** Creates the cluster with a superuser password that exists only in a file readable by its owner. */
async function initialise(bin: PostgresBinaries, dataDir: string, password: string, runAs: RunAs | undefined): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const scratch = mkdtempSync(join(tmpdir(), 'course-pg-init-'));
  const pwfile = join(scratch, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) for (const p of [dataDir, scratch, pwfile]) chownSync(p, runAs.uid, runAs.gid);
  try {
    await spawnAndWait(
      bin.initdb,
      [`--pgdata=${dataDir}`, `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C'],
      runAs,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The superuser password of a persistent cluster, kept beside its data directory, readable only by
 * the owner. A cluster made before passwords were generated still has the old fixed one; it is
 * changed on its first start and the new one saved.
 */
function passwordFile(dataDir: string): string {
  return `${dataDir}.password`;
}

class Postmaster {
  private child: ChildProcess | undefined;
  private stopping = false;
  private readonly recent: string[] = [];

  constructor(
    private readonly bin: PostgresBinaries,
    private readonly dataDir: string,
    private readonly port: number,
    private readonly runAs: RunAs | undefined,
    private readonly log: (m: string) => void,
  ) {}

  pid(): number | undefined {
    const child = this.child;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  private remember(text: string): void {
    for (const line of text.split('\n').filter(Boolean)) {
      this.recent.push(line);
      if (this.recent.length > 40) this.recent.shift();
      if (/\b(FATAL|PANIC):/.test(line)) this.log(`PostgreSQL: ${line}`);
    }
  }

  /** Starts the server and resolves once it accepts connections; rejects with its own words if it cannot. */
  start(): Promise<void> {
    this.recent.length = 0;
    return new Promise((resolve, reject) => {
      const child = spawn(
        this.bin.postgres,
        ['-D', this.dataDir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'lc_messages=C'],
        // Its own process group: a Ctrl-C in the terminal must not reach the database before the
        // service has drained; the service stops it last.
        { ...this.runAs, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
      );
      this.child = child;
      let ready = false;
      child.stderr!.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        this.remember(text);
        if (!ready && text.includes(READY)) {
          ready = true;
          resolve();
        }
      });
      child.on('error', (error) => {
        if (!ready) reject(new Error(`Could not run PostgreSQL: ${error.message}`));
      });
      child.on('exit', (code, signal) => {
        if (!ready) {
          reject(new Error(`PostgreSQL did not start (exit ${code ?? signal}):\n  ${this.recent.join('\n  ')}`));
          return;
        }
        if (!this.stopping) void this.restart(code, signal);
      });
    });
  }

  private async restart(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    this.log(`embedded PostgreSQL exited unexpectedly (${signal ?? `exit ${code}`}); restarting it`);
    for (let delay = 250; !this.stopping; delay = Math.min(delay * 2, 10_000)) {
      await sleep(delay);
      if (this.stopping) return;
      try {
        await this.start();
        this.log('embedded PostgreSQL is running again');
        return;
      } catch (error) {
        this.log(`restarting embedded PostgreSQL failed, retrying: ${(error as Error).message}`);
      }
    }
  }

  /** Fast shutdown; a server that ignores it for 20 s is killed. */
  async stop(): Promise<void> {
    this.stopping = true;
    const pid = this.pid();
    if (!pid) return;
    const exited = new Promise<void>((r) => this.child!.once('exit', () => r()));
    this.child!.kill('SIGINT');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }

  /** For a process that exits without stopping us (an uncaught error): the server must not outlive it. */
  signalStopSync(): void {
    const pid = this.pid();
    if (pid) process.kill(pid, 'SIGINT');
  }
}

async function connect(port: number, password: string): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database: 'postgres' });
  client.on('error', () => {}); // a dropped connection surfaces on the query in flight
  await client.connect();
  return client;
}

/**
 * Starts a real PostgreSQL server keeping its data in `dataDir` and creates the service's
 * database in it. Only loopback TCP is served, and the superuser password is random.
 */
export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log;
  const runAs = postgresRunAs();
  mkdirSync(dirname(dataDir), { recursive: true });
  assertDataDirectoryReachable(dataDir, runAs);
  const bin = reachableBinaries(await platformBinaries(), runAs);
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));

  let password = randomBytes(18).toString('base64url');
  let legacyPassword: string | undefined;
  if (options.persistent && !fresh) {
    if (existsSync(passwordFile(dataDir))) password = readFileSync(passwordFile(dataDir), 'utf8').trim();
    else legacyPassword = 'postgres'; // clusters made before generated passwords
  }
  if (fresh) {
    await initialise(bin, dataDir, password, runAs);
    if (options.persistent) writeFileSync(passwordFile(dataDir), `${password}\n`, { mode: 0o600 });
  } else {
    await stopLeftover(dataDir, log);
  }

  const port = options.port ?? (await freePort());
  const postmaster = new Postmaster(bin, dataDir, port, runAs, log);
  await postmaster.start();
  const stopOnExit = () => postmaster.signalStopSync();
  process.once('exit', stopOnExit);

  try {
    const client = await connect(port, legacyPassword ?? password);
    try {
      if (legacyPassword) {
        await client.query(`alter role ${SUPERUSER} password '${password}'`);
        writeFileSync(passwordFile(dataDir), `${password}\n`, { mode: 0o600 });
        log('embedded PostgreSQL: replaced the fixed superuser password with a generated one');
      }
      const exists = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
      if (exists.rowCount === 0) await client.query(`create database ${DATABASE}`);
    } finally {
      await client.end();
    }
  } catch (error) {
    await postmaster.stop();
    throw new Error(`The embedded PostgreSQL in ${dataDir} started but refused the service's connection: ${(error as Error).message}`, { cause: error });
  }

  return {
    url: `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    pid: () => postmaster.pid(),
    async stop() {
      process.off('exit', stopOnExit);
      await postmaster.stop();
      if (!options.persistent) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
