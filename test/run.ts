// Runs the test files in several processes at once against one real, throw-away PostgreSQL server
// (each process with a database of its own, copied from a template migrated once), with the checks
// (type-check, lint) beside them when given --checks, then prints the line CI reads last:
// "N passed, M failed, K skipped" (skipped: tests that could not run here, such as the real Docker
// engine's where none answers; never counted as passed). Whatever goes wrong (a database that
// cannot start, a file that cannot load, a process that dies, an error outside any test, a check
// that fails, a run that hangs) is named and counted as a failure, and the line is still printed.
//
//   tsx test/run.ts [--checks] [--record-durations] [part of a path ...]
//
// TEST_PROCESSES sets the number of test processes; TEST_TIMEOUT_SECONDS the run's deadline.
// docs/testing.md describes the runner.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checks, pendingChecks, runCheck } from './runner/checks.ts';
import { startTestDatabases, type TestDatabases } from './runner/database.ts';
import { plannedFiles, recordDurations } from './runner/files.ts';
import { runFiles, type FileResult, type ProcessPool } from './runner/processes.ts';

// Only catches a run that hangs: a shared, busy machine may take several times as long as an idle one.
const RUN_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_SECONDS || 3600) * 1000;
// Much of a test file's time is spent waiting (on PostgreSQL, on the processes and servers it
// starts, on timers), so one process more than there are cores keeps the cores busy.
const PROCESSES = Number(process.env.TEST_PROCESSES) || availableParallelism() + 1;

const root = resolve(import.meta.dirname);
const args = process.argv.slice(2);
const withChecks = args.includes('--checks');
const record = args.includes('--record-durations');
const filters = args.filter((a) => !a.startsWith('--'));
const started = performance.now();

let passed = 0;
let failed = 0;
let skipped = 0;
const durations: Record<string, number> = {};

function block(title: string, output: string): void {
  const text = output.trimEnd();
  process.stdout.write(`\n── ${title}\n${text ? `${text}\n` : ''}`);
}

function failure(what: string, error: unknown): void {
  failed++;
  console.error(`\nFAILED ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

process.on('uncaughtException', (error) => failure('an error in the runner', error));
process.on('unhandledRejection', (error) => failure('a rejection nobody handled in the runner', error));

const files = plannedFiles(root, filters);
const logDir = mkdtempSync(join(tmpdir(), 'course-test-logs-'));
const stop = new AbortController();
let pool: ProcessPool | undefined;
let databases: TestDatabases | undefined;

const deadline = setTimeout(() => {
  const running = pool?.running() ?? [];
  failure(
    'the run',
    new Error(`still running after ${RUN_TIMEOUT_MS / 1000} s${running.map((r) => `\n  ${r.file} (for ${r.seconds.toFixed(0)} s)`).join('')}`),
  );
  stop.abort();
  pool?.kill();
}, RUN_TIMEOUT_MS);
deadline.unref();

// The checks start first: the type-check is the longest single piece of work in the run.
const checksDone = Promise.all(
  (withChecks ? checks : []).map(async (check) => {
    const result = await runCheck(resolve(root, '..'), check, stop.signal);
    block(`${result.name} (${check.command.join(' ')}): ${result.ok ? 'ok' : 'FAILED'}, ${result.seconds.toFixed(1)} s`, result.ok ? '' : result.output);
    if (!result.ok) failed++;
    return result;
  }),
);

try {
  databases = await startTestDatabases();
  pool = runFiles({
    root,
    files,
    processes: PROCESSES,
    logDir,
    database: (name) => databases!.create(name),
    onFile(result: FileResult) {
      passed += result.passed;
      failed += result.failed;
      skipped += result.skipped;
      durations[result.file] = result.seconds;
      const counts = `${result.passed} passed${result.failed ? `, ${result.failed} FAILED` : ''}${result.skipped ? `, ${result.skipped} skipped` : ''}`;
      block(`${result.file}: ${counts}, ${result.seconds.toFixed(1)} s`, result.output);
    },
    onStray(what, count, output) {
      failed += count;
      block(count ? `FAILED ${what}` : what, output);
    },
  });
  await pool.finished;
} catch (error) {
  failure('starting the test database (no suite can run without it)', error);
}

const checkResults = await checksDone;
await databases?.close().catch((error) => failure('stopping the test database', error));
rmSync(logDir, { recursive: true, force: true });

const slowest = Object.entries(durations)
  .sort(([, a], [, b]) => b - a)
  .slice(0, 10);
if (slowest.length > 1) {
  process.stdout.write(`\nslowest files:\n${slowest.map(([file, s]) => `${s.toFixed(1).padStart(7)} s  ${file}`).join('\n')}\n`);
}
const checkTimes = [...checkResults.map((c) => `${c.name} ${c.seconds.toFixed(0)} s`), ...(withChecks ? pendingChecks.map((c) => `${c} pending`) : [])].join(
  ', ',
);
process.stdout.write(
  `\n${files.length} files in ${PROCESSES} processes${checkTimes ? `, ${checkTimes}` : ''}; ${((performance.now() - started) / 1000).toFixed(0)} s in all\n`,
);
if (record) recordDurations(root, durations);
if (passed + failed === 0) console.error('no test ran');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed || passed === 0 ? 1 : 0);
