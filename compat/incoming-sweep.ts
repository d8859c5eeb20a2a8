// Temporary upload files (DATA_DIR/incoming) that outlive their request: a stop removes its own
// (compat/multipart.ts discardCutOffUploads); this sweep takes what a killed process left.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../src/config.ts';

/**
 * Deletes files in `dir` not modified for `maxAgeMs`: what a process killed mid-upload (kill -9,
 * a crash) left behind. Several API processes may share the directory, so a file is taken only
 * once it is older than any request may keep one (see docs/operating/connections.md); the count
 * removed is returned.
 */
export async function sweepIncoming(dir: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < maxAgeMs) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}

/**
 * How old a file in DATA_DIR/incoming must be before the sweep takes it: longer than any request
 * can hold one (its body's allowance, its wait for the database, and time to do its work).
 */
const incomingMaxAgeMs = (config: Config) => config.http.uploadBodyTimeoutMs + config.database.queueTimeoutMs + 15 * 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;

/** Sweeps what processes killed mid-upload left in DATA_DIR/incoming: now, then every hour. */
export async function sweepIncomingNowAndHourly(config: Config, log: (message: string) => void): Promise<NodeJS.Timeout> {
  const dir = join(config.dataDir, 'incoming');
  const sweep = async () => {
    const removed = await sweepIncoming(dir, incomingMaxAgeMs(config)).catch((error: Error) => {
      log(`sweeping ${dir} failed: ${error.message}`);
      return 0;
    });
    if (removed) log(`removed ${removed} temporary upload file(s) left in ${dir} by an earlier run`);
  };
  await sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return timer;
}
