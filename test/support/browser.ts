// A real browser for the tests that need one (test/browser/): Debian's chromium, which
// scripts/chromium.sh installs, driven by playwright-core. Where none is installed or it does not
// start, `launchBrowser` answers why, and the suite prints one SKIPPED line and counts its tests as
// skipped (never as passed), as the real-engine assessment test does without an engine.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** CHROMIUM_PATH, else Debian's chromium. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export type Launched = { browser: Browser } | { skipped: string };

/** The browser, or why there is none (the suite skips with that reason). */
export async function launchBrowser(): Promise<Launched> {
  if (!existsSync(CHROMIUM)) return { skipped: `no browser at ${CHROMIUM} (run scripts/chromium.sh as root, or set CHROMIUM_PATH)` };
  try {
    // --no-sandbox: the tests run as root in a container, where chromium's own sandbox cannot start.
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'], timeout: 60_000 });
    return { browser };
  } catch (error) {
    return { skipped: `${CHROMIUM} did not start: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The loud line a suite prints when it cannot run, and its tests registered as skipped. */
export function skipSuite(test: { skip: (name: string, fn: () => void) => void }, name: string, reason: string, tests: string[]): void {
  console.log(`SKIPPED ${name}: ${reason}`);
  for (const t of tests) test.skip(t, () => {});
}
