// Runs every test file in one process against one real, throw-away PostgreSQL server, then
// prints the line CI reads: "N passed, M failed, K skipped" (skipped: tests that could not run
// here, such as the real Docker engine's where none answers; never counted as passed). Whatever goes wrong (a database that cannot
// start, a file that cannot load, an error outside any test, a run that hangs) is named and
// counted as a failure, and the line is still printed.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';

type Outcome = [errs: string, ran: number, skip: number, max: number];
type Runner = () => Promise<Outcome>;
const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: [string | null, ...Runner[]][]; UVU_INDEX: number };

// Only catches a run that hangs: a shared, busy machine may take several times as long as an idle one.
const RUN_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_SECONDS || 3600) * 1000;

let passed = 0;
let failed = 0;
let skipped = 0;
let current = 'start-up';
let db: EmbeddedDatabase | undefined;

function failure(what: string, error: unknown): void {
  failed++;
  console.error(`\nFAILED ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

async function finish(): Promise<never> {
  try {
    const { closeTestEnv } = await import('./support/env.ts');
    await closeTestEnv();
  } catch (error) {
    failure('closing the test environment', error);
  }
  await db?.stop().catch((error) => failure('stopping the test database', error));
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  if (passed + failed === 0) console.error('no test ran');
  process.exit(failed || passed === 0 ? 1 : 0);
}

process.on('uncaughtException', (error) => failure(`an error outside any test (during ${current})`, error));
process.on('unhandledRejection', (error) => failure(`a rejection nobody handled (during ${current})`, error));
setTimeout(() => {
  failure('the run', new Error(`still running after ${RUN_TIMEOUT_MS / 1000} s, in ${current}`));
  void finish();
}, RUN_TIMEOUT_MS).unref();

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

try {
  if (!process.env.TEST_DATABASE_URL) {
    db = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'course-test-')), { persistent: false });
    process.env.TEST_DATABASE_URL = db.url;
  }
  await migrate(process.env.TEST_DATABASE_URL);
} catch (error) {
  failure('starting the test database (no suite can run without it)', error);
  await finish();
}

g.UVU_DEFER = 1;
g.UVU_QUEUE = [];
for (const [index, file] of files.entries()) {
  const name = relative(root, file);
  g.UVU_QUEUE.push([name]);
  g.UVU_INDEX = index;
  try {
    await import(pathToFileURL(file).href);
  } catch (error) {
    failure(`loading ${name}`, error);
  }
}

for (const group of g.UVU_QUEUE) {
  for (let i = 1; i < group.length; i++) {
    const run = group[i] as Runner;
    group[i] = async () => {
      current = String(group[0]);
      const outcome = await run();
      passed += outcome[1];
      // uvu's total counts the tests it ran (skips are not among them), so what did not pass failed.
      failed += outcome[3] - outcome[1];
      skipped += outcome[2];
      return outcome;
    };
  }
}

try {
  const { exec } = await import('uvu');
  await exec();
} catch (error) {
  failure(`running ${current}`, error);
}
await finish();
