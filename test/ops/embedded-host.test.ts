// As root, the embedded PostgreSQL runs as the system user `postgres`. A project cloned into a
// directory that user cannot enter (/root, or a `mktemp -d` directory) must still work for
// `npm test`, and `npm start` must say in one sentence why it cannot use its data directory.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assertDataDirectoryReachable, blockingDirectory, platformBinaries, postgresRunAs, reachableBinaries } from '../../src/db/postgres-host.ts';

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

  test('a data directory the postgres user cannot reach is refused with one sentence saying why and what to do', () => {
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

test.run();
