// Which test files run, and in what order: the longest first, so that a slow file does not start
// last and keep one process busy while the others sit idle. Durations come from durations.json
// (seconds per file, measured by a full run; `npm run test:run -- --record-durations` rewrites it).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const DURATIONS = join(import.meta.dirname, 'durations.json');
/** A file the list does not know yet (a new one) is assumed to be slower than most. */
const UNKNOWN_SECONDS = 10;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'support' || name === 'runner' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

export function recordedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * The test files under `root` whose path from the project (`test/...`) contains one of `filters`
 * (all without any), longest first. Not the absolute path: a checkout under a directory named like
 * a filter (`/work/wt/rubric/`) would otherwise match every file.
 */
export function plannedFiles(root: string, filters: string[]): string[] {
  const seconds = recordedDurations();
  const estimate = (file: string) => seconds[relative(root, file)] ?? UNKNOWN_SECONDS;
  const project = join(root, '..');
  return testFiles(root)
    .filter((file) => filters.length === 0 || filters.some((part) => relative(project, file).includes(part)))
    .sort((a, b) => estimate(b) - estimate(a) || a.localeCompare(b));
}

/**
 * Keeps this run's durations, merged into the recorded ones (a partial run updates its files only);
 * files that no longer exist are forgotten.
 */
export function recordDurations(root: string, measured: Record<string, number>): void {
  const all = { ...recordedDurations(), ...Object.fromEntries(Object.entries(measured).map(([file, s]) => [file, Math.round(s * 10) / 10])) };
  const sorted = Object.fromEntries(
    Object.entries(all)
      .filter(([file]) => existsSync(join(root, file)))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
}
