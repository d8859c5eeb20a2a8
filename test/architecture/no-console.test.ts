// The service's code path writes through its logger (src/lib/logger.ts), never console.* or straight
// to stdout/stderr: a line written past the logger is not JSON, has no level or request id, and
// breaks every log shipper that reads one object per line (docs/operating/logs.md). scripts/ (the
// CLI, benchmarks, migrations run by hand) talk to a person at a terminal and may print.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('architecture: no console output in the service, only the logger');

const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['src', 'compat', 'workers'];
/** console.log/error/warn/info/debug/…, and writes to the process's own streams (checking isTTY is fine). */
const PAST_THE_LOGGER = /\bconsole\s*\.\s*\w|\bprocess\.std(out|err)\.write\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

test('no console.* and no direct stdout/stderr writes in src/, compat/ or workers/', () => {
  const files = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir))).map((path) => relative(ROOT, path).split(sep).join('/'));
  // The scan must see the code it guards, or it would pass by finding nothing.
  assert.ok(files.length > 200, `only ${files.length} files scanned`);
  const found = files.flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, i) => (PAST_THE_LOGGER.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.equal(found, [], `output past the logger (use the service's logger: services.logger, helpers.logger in a job):\n${found.join('\n')}`);
});

test.run();
