// One test process of the run (test/run.ts starts several). It is handed one test file at a time
// over IPC, runs its uvu suites against its own database (TEST_DATABASE_URL, made for it from the
// migrated template), and answers with the file's counts. What it prints goes to a log file the
// runner reads back as that file's block. A file that cannot load, or an error outside any test,
// counts as a failure of the file that was running.
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FileDone, FromChild, FromRunner } from './protocol.ts';

type Outcome = [errs: string | true, ran: number, skip: number, max: number];
type Suite = () => Promise<Outcome>;
const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: [string | null, ...Suite[]][]; UVU_INDEX: number };

// Set before uvu loads: suites queue themselves instead of running when their file calls test.run().
g.UVU_DEFER = 1;
g.UVU_INDEX = 0;

const root = resolve(import.meta.dirname, '..');
let current = 'start-up';
/** Failures outside any test (a load error, a stray rejection), charged to the file that was running. */
let stray = 0;

function failure(what: string, error: unknown): void {
  stray++;
  console.error(`\nFAILED ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

process.on('uncaughtException', (error) => failure(`an error outside any test (during ${current})`, error));
process.on('unhandledRejection', (error) => failure(`a rejection nobody handled (during ${current})`, error));
// The runner stops a process that overran the run's deadline with SIGTERM; exiting (rather than
// dying of the signal) runs the exit handlers that stop the servers a test started.
process.on('SIGTERM', () => process.exit(1));
// A runner that is gone (killed, Ctrl-C) leaves no test process behind.
process.on('disconnect', () => process.exit(1));

function send(message: FromChild): Promise<void> {
  return new Promise((done) => process.send!(message, () => done()));
}

async function runFile(file: string): Promise<FileDone> {
  current = relative(root, file);
  const counts = { passed: 0, failed: 0, skipped: 0 };
  g.UVU_QUEUE = [[current]];
  try {
    await import(pathToFileURL(file).href);
  } catch (error) {
    failure(`loading ${current}`, error);
  }
  for (const suite of g.UVU_QUEUE[0].slice(1) as Suite[]) {
    try {
      const [errs, ran, skip, max] = await suite();
      counts.passed += ran;
      // uvu's total counts the tests it ran (skips are not among them), so what did not pass failed.
      counts.failed += max - ran;
      counts.skipped += skip;
      if (errs !== true) process.stdout.write(`\n${errs}\n`);
      // uvu swallows an error thrown by a before hook: the suite's tests then neither pass nor fail.
      else if (ran < max) console.error(`\nFAILED ${max - ran} test(s) of a suite in ${current} did not run: a before hook threw`);
    } catch (error) {
      // An after hook that throws escapes uvu.
      failure(`running a suite of ${current}`, error);
    }
  }
  counts.failed += stray;
  stray = 0;
  return { done: file, ...counts };
}

process.on('message', async (message: FromRunner) => {
  if ('file' in message) {
    await send(await runFile(message.file));
    return;
  }
  current = 'closing the test environment';
  try {
    const { closeTestEnv } = await import('../support/env.ts');
    await closeTestEnv();
  } catch (error) {
    failure(current, error);
  }
  await send({ closed: true, failed: stray });
  process.exit(0);
});
