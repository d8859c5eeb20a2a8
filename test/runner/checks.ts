// The checks `npm test` runs beside the test files, each in a process of its own. A check that
// fails (exits non-zero, or cannot start) counts as one failure. Adding a check is one line here.
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';

export const checks: { name: string; command: string[] }[] = [
  { name: 'type-check', command: ['tsc', '--noEmit', '-p', '.'] },
  { name: 'lint and format', command: ['biome', 'check', '.'] },
  // The layer rules of docs/architecture.md (.dependency-cruiser.cjs, `npm run deps`).
  { name: 'layer rules', command: ['npm', 'run', '--silent', 'deps'] },
];

/** Checks wired but not yet run by default, named in the run's summary so that nobody forgets them. */
export const pendingChecks: string[] = [];

export interface CheckResult {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
}

/** Runs one check from the project's root, with its locally installed tools first on PATH. */
export function runCheck(root: string, check: (typeof checks)[number], signal: AbortSignal): Promise<CheckResult> {
  const started = performance.now();
  const [command, ...args] = check.command;
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const end = (ok: boolean, note = '') => resolve({ name: check.name, ok, seconds: (performance.now() - started) / 1000, output: output + note });
    child.on('error', (error) => end(false, `\n${check.command.join(' ')}: ${error.message}`));
    child.on('close', (code, killed) => end(code === 0, code === 0 ? '' : `\n${check.command.join(' ')} exited with ${code ?? killed}`));
  });
}
