// As root, the embedded PostgreSQL runs as the system user `postgres`. A project cloned into a
// directory that user cannot enter (/root, or a `mktemp -d` directory) must still work for both
// `npm test` and `npm start`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  assertDataDirectoryReachable,
  blockingDirectory,
  embeddedClusterDirectory,
  OUTSIDE_CLUSTERS,
  platformBinaries,
  postgresRunAs,
  reachableBinaries,
} from '../../src/db/postgres-host.ts';

const test = suite('operations: the embedded database as root, from a directory its user cannot enter');
const runAs = postgresRunAs();
let closed: string;

test.before.each(() => {
  closed = mkdtempSync(join(tmpdir(), 'course-closed-')); // mode 0700, like mktemp -d and /root
});
test.after.each(() => rmSync(closed, { recursive: true, force: true }));

if (runAs) {
  test('binaries behind a closed directory are replaced by a copy the postgres user can run', async () => {
    const installed = await platformBinaries();
    const pkg = dirname(dirname(dirname(installed.postgres)));
    cpSync(pkg, join(closed, 'pkg'), { recursive: true, verbatimSymlinks: true });
    const hidden = { initdb: join(closed, 'pkg', 'native', 'bin', 'initdb'), postgres: join(closed, 'pkg', 'native', 'bin', 'postgres') };
    assert.is(blockingDirectory(hidden.postgres, runAs), closed);
    const asPostgres = (bin: string) => spawnSync(bin, ['--version'], { uid: runAs.uid, gid: runAs.gid, encoding: 'utf8' });
    assert.is(asPostgres(hidden.postgres).error?.message.includes('EACCES'), true, 'the postgres user cannot run the hidden binary');

    const usable = reachableBinaries(hidden, runAs);
    assert.is(blockingDirectory(usable.postgres, runAs), undefined);
    const run = asPostgres(usable.postgres);
    assert.is(run.status, 0);
    assert.match(run.stdout, 'PostgreSQL');
    assert.equal(reachableBinaries(hidden, runAs), usable, 'the copy is made once and reused');
  });

  test('a DATA_DIR the postgres user cannot reach keeps its cluster outside, recorded in DATA_DIR, and a removed DATA_DIR starts afresh', () => {
    const dataDir = join(closed, 'project', '.data');
    const first = embeddedClusterDirectory(dataDir, runAs);
    assert.ok(first.outside);
    assert.ok(first.dir.startsWith(`${OUTSIDE_CLUSTERS}/`));
    assert.is(blockingDirectory(first.dir, runAs), undefined, 'the postgres user reaches it');
    assert.is(readFileSync(join(dataDir, 'pg.location'), 'utf8').trim(), first.dir);
    assert.equal(embeddedClusterDirectory(dataDir, runAs), first, 'the same cluster on the next start');
    rmSync(dataDir, { recursive: true });
    assert.is.not(embeddedClusterDirectory(dataDir, runAs).dir, first.dir);
    const reachable = mkdtempSync(join(tmpdir(), 'course-open-'));
    try {
      assert.equal(embeddedClusterDirectory(reachable, { uid: 0, gid: 0 }), { dir: join(reachable, 'pg'), outside: false });
      assert.not.ok(existsSync(join(reachable, 'pg.location')));
    } finally {
      rmSync(reachable, { recursive: true, force: true });
    }
  });

  test('an explicit data directory the postgres user cannot reach is refused with one sentence saying why and what to do', () => {
    const dataDir = join(closed, 'project', '.data', 'pg');
    try {
      assertDataDirectoryReachable(dataDir, runAs);
      assert.unreachable('should refuse');
    } catch (error) {
      const message = (error as Error).message;
      assert.match(message, `cannot enter ${closed}`);
      assert.match(message, 'set DATA_DIR');
      assert.match(message, 'DATABASE_URL');
    }
  });
} else {
  test('not root: the server runs as this user and nothing needs copying', async () => {
    const installed = await platformBinaries();
    assert.is(reachableBinaries(installed, undefined), installed);
  });
}

test('a cluster made with the old fixed superuser password gets a generated one on its next start', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'course-legacy-')), 'pg');
  chmodSync(dirname(dir), 0o755); // as root, the server's own user must reach its data
  const first = await startEmbeddedPostgres(dir, { persistent: true, log: () => {} });
  const admin = new pg.Client(first.url);
  await admin.connect();
  await admin.query("alter role postgres password 'postgres'");
  await admin.end();
  await first.stop();
  rmSync(`${dir}.password`); // as an earlier version left it: no password file

  const logged: string[] = [];
  const second = await startEmbeddedPostgres(dir, { persistent: true, log: (m) => logged.push(m) });
  try {
    assert.match(logged.join('\n'), 'replaced the fixed superuser password');
    assert.is(statSync(`${dir}.password`).mode & 0o777, 0o600);
    const guessed = new pg.Client(second.url.replace(/:[^:@]+@/, ':postgres@'));
    assert.ok(
      await guessed.connect().then(
        () => false,
        () => true,
      ),
      'postgres/postgres is refused',
    );
    const current = new pg.Client(second.url);
    await current.connect();
    await current.end();
  } finally {
    await second.stop();
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});

test.run();
