// Runs every test file in one process against one real, throw-away PostgreSQL server,
// then prints the line CI reads: "N passed, M failed".
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';

type Outcome = [errs: string, ran: number, skip: number, max: number];
type Runner = () => Promise<Outcome>;
const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: [string | null, ...Runner[]][]; UVU_INDEX: number };

function testFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'support' ? [] : testFiles(path);
      return name.endsWith('.test.ts') ? [path] : [];
    })
    .sort();
}

const root = resolve(import.meta.dirname);
const filter = process.argv[2];
const files = testFiles(root).filter((f) => !filter || f.includes(filter));

const db = process.env.TEST_DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'course-test-')), { persistent: false });
process.env.TEST_DATABASE_URL ??= db!.url;
await migrate(process.env.TEST_DATABASE_URL);

g.UVU_DEFER = 1;
g.UVU_QUEUE = [];
for (const [index, file] of files.entries()) {
  g.UVU_QUEUE.push([relative(root, file)]);
  g.UVU_INDEX = index;
  await import(pathToFileURL(file).href);
}

let passed = 0;
let failed = 0;
for (const group of g.UVU_QUEUE) {
  for (let i = 1; i < group.length; i++) {
    const run = group[i] as Runner;
    group[i] = async () => {
      const outcome = await run();
      passed += outcome[1];
      failed += outcome[3] - outcome[1] - outcome[2];
      return outcome;
    };
  }
}

const { exec } = await import('uvu');
await exec();
const { closeTestEnv } = await import('./support/env.ts');
await closeTestEnv();
await db?.stop();
console.log(`${passed} passed, ${failed} failed`);
if (passed + failed === 0) {
  console.error('no test ran');
  process.exitCode = 1;
}
process.exit(process.exitCode ?? (failed ? 1 : 0));
