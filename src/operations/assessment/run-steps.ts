// An assessment in steps (docs/assessment-steps.md), as the job runs it: each enabled step of the
// definition in order, each in its own container with the sandbox's limits and the step's own time
// limit, so a step stopped at its limit ends only itself. Its stdin and expected output are copied
// out of the sandbox before any step runs (a step cannot change what it is judged against); its
// stdout is compared, kept (capped) and hashed. No SQL here: the steps come in, results go out.
import { createHash, randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { feedbackFor, haltsAfter, STEP_COMPARE_CAP, STEP_TEXT_CAP, type StepOutcomeName, stepOutcome } from '../../domain/overseer-steps.ts';
import { assessmentStepCommand, type OverseerRunner, type StepLimits } from '../../adapters/overseer-runner.ts';
import type { Sandbox } from './sandbox.ts';
import { STEP_COLUMNS, type StepRow } from '../units/task_definitions/overseer_steps/step-rows.ts';

/** The definition's enabled steps in run order; none means the assessment runs build.sh and run.sh as before. */
export async function enabledSteps(em: Em, taskDefinitionId: number): Promise<StepRow[]> {
  return db(em)
    .selectFrom('overseer_steps')
    .select(STEP_COLUMNS)
    .where('task_definition_id', '=', taskDefinitionId)
    .where('enabled', '=', true)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** A text kept in a result: its first STEP_TEXT_CAP bytes, the sha256 and size of the whole. */
export interface KeptText {
  text: string;
  sha256: string;
  bytes: number;
}

/** What one step did, ready to store. */
export interface StepResultToStore {
  step: StepRow;
  position: number;
  outcome: StepOutcomeName;
  exitStatus: number | null;
  durationMs: number | null;
  stdout: KeptText | null;
  stdin: KeptText | null;
  expected: KeptText | null;
  feedback: string | null;
  /** The container's own output (stderr, a shell's errors), for staff in output.txt. */
  logs: string;
}

/** PostgreSQL text holds no NUL character. */
const storable = (text: string) => text.replace(/\0/g, '\uFFFD');

/**
 * Reads a regular file without following a symbolic link (a step may leave one in output/ that
 * points anywhere on the worker's disk): its first `keep` bytes as text, and the sha256 and size
 * of all of it, streamed. null when there is no such regular file.
 */
export async function readKept(path: string, keep: number): Promise<(KeptText & { head: string }) | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats: Stats = await handle.stat();
    if (!stats.isFile()) return null;
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let kept = 0;
    let bytes = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      if (kept < keep) {
        const part = chunk.subarray(0, keep - kept);
        head.push(part);
        kept += part.length;
      }
    }
    const all = Buffer.concat(head);
    return {
      head: storable(all.toString('utf8')),
      text: storable(all.subarray(0, STEP_TEXT_CAP).toString('utf8')),
      sha256: hash.digest('hex'),
      bytes,
    };
  } finally {
    await handle.close();
  }
}

/** Copies each named file of the sandbox that is a regular file into `inputsDir`; answers the names found. */
async function copyInputs(sandboxDir: string, inputsDir: string, names: Set<string>): Promise<Set<string>> {
  await mkdir(inputsDir, { mode: 0o755 });
  const found = new Set<string>();
  for (const name of names) {
    const from = join(sandboxDir, name);
    const stats = await lstat(from).catch(() => null);
    if (!stats?.isFile()) continue;
    await copyFile(from, join(inputsDir, name));
    await chmod(join(inputsDir, name), 0o644);
    found.add(name);
  }
  await chmod(inputsDir, 0o755);
  return found;
}

export interface StepsRun {
  runner: OverseerRunner;
  image: string;
  sandbox: Sandbox;
  limits: StepLimits;
  /** Container name of step `position`. */
  containerName: (position: number) => string;
  signal?: AbortSignal;
}

/** Runs the steps in order until a halt rule stops the run; the steps after it are skipped. */
export async function runAssessmentSteps(run: StepsRun, steps: StepRow[]): Promise<StepResultToStore[]> {
  const { sandbox } = run;
  const inputsDir = join(sandbox.root, 'inputs');
  const wanted = new Set(steps.flatMap((s) => [s.stdin_input_file, s.expected_output_file].filter((n): n is string => n !== null)));
  const present = await copyInputs(sandbox.sandboxDir, inputsDir, wanted);
  const results: StepResultToStore[] = [];
  let halted = false;
  for (const [position, step] of steps.entries()) {
    const base = { step, position, exitStatus: null, durationMs: null, stdout: null, stdin: null, expected: null, logs: '' };
    if (halted) {
      results.push({ ...base, outcome: 'skipped', feedback: null });
      continue;
    }
    const missing = [step.stdin_input_file, step.expected_output_file].find((n) => n !== null && !present.has(n));
    if (missing) {
      const note = `The file '${missing}' is not in the assessment resources or the submission`;
      results.push({ ...base, outcome: 'failed', feedback: [step.feedback_message, note].filter(Boolean).join('\n') });
      halted = haltsAfter(flowOf(step), false);
      continue;
    }
    const outputName = randomBytes(8).toString('hex');
    const started = Date.now();
    const ran = await run.runner.runStep({
      name: run.containerName(position),
      image: run.image,
      mode: 'run',
      outputName,
      command: assessmentStepCommand(step.run_command, step.stdin_input_file, outputName),
      sandboxDir: sandbox.sandboxDir,
      outputDir: sandbox.outputDir,
      inputsDir,
      limits: { ...run.limits, timeoutMs: step.timeout_ms },
      signal: run.signal,
    });
    const durationMs = Date.now() - started;
    const kept = (t: (KeptText & { head: string }) | null): KeptText | null => (t ? { text: t.text, sha256: t.sha256, bytes: t.bytes } : null);
    const [stdout, stdin, expected] = await Promise.all([
      readKept(join(sandbox.outputDir, `${outputName}.stdout`), STEP_COMPARE_CAP),
      step.stdin_input_file ? readKept(join(inputsDir, step.stdin_input_file), STEP_TEXT_CAP) : null,
      step.expected_output_file ? readKept(join(inputsDir, step.expected_output_file), STEP_COMPARE_CAP) : null,
    ]);
    const outcome = stepOutcome(
      { exitCode: ran.exitCode, timedOut: ran.timedOut, oomKilled: ran.oomKilled, stdout: stdout?.head ?? '', expected: expected ? expected.head : null },
      { outputComparison: step.output_comparison, partialOutputDiff: step.partial_output_diff },
    );
    results.push({
      ...base,
      outcome,
      exitStatus: ran.exitCode,
      durationMs,
      stdout: kept(stdout) ?? { text: '', sha256: createHash('sha256').digest('hex'), bytes: 0 },
      stdin: kept(stdin),
      expected: kept(expected),
      feedback: feedbackFor(outcome, step.feedback_message),
      logs: ran.logs,
    });
    halted = haltsAfter(flowOf(step), outcome === 'passed');
  }
  return results;
}

export const flowOf = (step: StepRow) => ({
  statusOnSuccess: step.status_on_success,
  statusOnFailure: step.status_on_failure,
  haltOnSuccess: step.halt_on_success,
  haltOnFailure: step.halt_on_failure,
});
