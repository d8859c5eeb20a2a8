// The client package as a consumer uses it: `npm run pack:client` builds dist/client-package (a
// package.json of its own) and packs it; a scratch project `npm install`s the tarball and only the
// packages a consumer adds (@trpc/client and its peers @trpc/server and typescript, eventsource for
// subscriptions in Node, @types/node), at the versions this project pins, from npm's cache where it has them
// (--prefer-offline). A program (test/client/consumer/program.ts) is compiled there with strict
// tsc (the consumer's own), its @ts-expect-error lines proving the types are tight, then run against a live service.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import { PASSWORD, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('client package: packed, installed and compiled by a consumer, run against the service');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
let env: TestEnv;
let people: People;
let baseUrl: string;
let work: string;
let scratch: string;
let tarball: { file: string; size: number; files: string[] };

/** The packages a consumer installs beside the tarball, at the versions this project has. */
const ALONGSIDE = ['@trpc/client', '@trpc/server', 'eventsource', '@types/node', 'typescript'];
const installed = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    types: ['node'],
    outDir: 'out',
    rootDir: '.',
  },
  files: ['program.ts'],
};

function compile(dir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test.before(async () => {
  env = await testEnv();
  baseUrl = await listeningBaseUrl(env);
  work = mkdtempSync(join(tmpdir(), 'client-package-'));
  // pack:client builds the package, then packs it; --json names the tarball and its files.
  const answer = execFileSync('npm', ['run', 'pack:client', '--', '--json', '--pack-destination', work], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const packed = JSON.parse(answer.slice(answer.search(/^\[/m))) as {
    filename: string;
    size: number;
    files: { path: string }[];
  }[];
  const file = join(work, packed[0]!.filename);
  tarball = { file, size: statSync(file).size, files: packed[0]!.files.map((f) => f.path).sort() };

  scratch = join(work, 'consumer');
  mkdirSync(scratch);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  cpSync(join(ROOT, 'test/client/consumer/program.ts'), join(scratch, 'program.ts'));
  execFileSync('npm', ['install', file, ...ALONGSIDE.map((name) => `${name}@${installed(name)}`), '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 300_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
});

test.after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

freshEachTest(test, (world) => ({ env, people } = world));

test('the tarball holds the built client, its bundled declarations and docs, and nothing of the server', () => {
  assert.equal(tarball.files, ['README.md', 'client/index.d.ts', 'client/index.js', 'package.json']);
  assert.ok(tarball.size < 400_000, `tarball of ${tarball.size} bytes`);
  const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules/course-service/package.json'), 'utf8'));
  assert.equal(manifest.exports['./client'], { types: './client/index.d.ts', import: './client/index.js' });
  // What installing it brought: the client's one dependency and what the consumer asked for.
  assert.equal(Object.keys(manifest.dependencies), ['openapi-fetch']);
  const lock = JSON.parse(readFileSync(join(scratch, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  const brought = Object.keys(lock.packages).filter(Boolean);
  assert.ok(brought.length < 20, `installing the client brought ${brought.length} packages: ${brought.join(', ')}`);
  for (const server of ['fastify', '@mikro-orm/core', 'zod', 'node', 'pg'])
    assert.not.ok(brought.includes(`node_modules/${server}`), `${server} came with the client`);
  const declarations = readFileSync(join(scratch, 'node_modules/course-service/client/index.d.ts'), 'utf8');
  const imports = [...declarations.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]).sort();
  assert.equal([...new Set(imports)], ['@trpc/client', '@trpc/server', 'openapi-fetch'], 'the declarations import only what a consumer has');
});

test('the program compiles under strict tsc, and fails once the types go loose', () => {
  const strict = compile(scratch);
  assert.is(strict.status, 0, strict.output);
  // The same program against declarations that type nothing: every @ts-expect-error is unused.
  const loose = join(work, 'loose');
  cpSync(scratch, loose, { recursive: true, verbatimSymlinks: true, filter: (path) => !path.includes('/out') });
  const names = ['CourseServiceError', 'createRestClient', 'multipart', 'signIn'];
  writeFileSync(
    join(loose, 'node_modules/course-service/client/index.d.ts'),
    // biome-ignore lint/style/useTemplate: one line per name reads better
    names.map((name) => `export declare const ${name}: any;`).join('\n') + '\nexport type RouterOutputs = any;\n',
  );
  const failed = compile(loose);
  assert.is.not(failed.status, 0, 'loose types must fail to compile');
  const unused = failed.output.match(/error TS2578/g) ?? [];
  assert.is(unused.length, 4, failed.output);
});

test('the compiled program signs in, lists units, subscribes to the inbox, uploads and calls REST against a live service', async () => {
  const w = await taskWorld(env, people, { uploadRequirements: [{ key: 'file0', name: 'Program', type: 'code' }] });
  if (!statSync(join(scratch, 'out/program.js'), { throwIfNoEntry: false })) assert.is(compile(scratch).status, 0);
  // Not spawnSync: the service answering the program runs in this process.
  const args = [people.convenor.user.username, people.student.user.username, PASSWORD, String(w.project), String(w.td)];
  const run = await promisify(execFile)(process.execPath, [join(scratch, 'out/program.js'), baseUrl, ...args], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 90_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`the program failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
  });
  const steps: Record<string, unknown[] | unknown> = Object.fromEntries(
    run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { step: string; value: unknown })
      .map(({ step, value }) => [step, value]),
  );
  const task = await env.orm.em.fork().execute<{ id: number; status: string }[]>('select id, status from tasks where project_id = ?', [w.project]);
  assert.equal(steps, {
    'signed in': people.convenor.user.username,
    'wrong password': [401, second(steps['wrong password'])],
    units: ['SIT101'],
    // The lines under @ts-expect-error run too: a field that does not exist is undefined.
    'no such field': undefined,
    'no such REST field': undefined,
    'student lists units': 403,
    uploaded: [201, 'ready_for_feedback'],
    inbox: [`status of task ${task[0]!.id}`],
    projects: [[w.project, 'SIT101']],
    'missing unit': [404, second(steps['missing unit'])],
  });
  assert.type(second(steps['wrong password']), 'string');
  assert.type(second(steps['missing unit']), 'string');
});

const second = (value: unknown) => (Array.isArray(value) ? value[1] : undefined);

test.run();
