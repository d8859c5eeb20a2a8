// The pure rules of automated assessment in steps (docs/assessment-steps.md): how a step's stdout is
// compared with its expected output, whether it passed, where the run halts, which status it asks
// for, what the student may see of a result, and the one comment that summarises a run.
import { z } from 'zod';
import { TASK_STATUSES, type TaskStatus } from './vocabulary.ts';

export const OUTPUT_COMPARISONS = ['exact', 'whitespace'] as const;
export type OutputComparison = (typeof OUTPUT_COMPARISONS)[number];

/** What became of a step in one run. */
export const STEP_OUTCOMES = ['passed', 'failed', 'timed_out', 'out_of_memory', 'skipped'] as const;
export type StepOutcomeName = (typeof STEP_OUTCOMES)[number];

/** The only step type: a shell command in the sandbox (the original's column, kept for its values). */
export const STEP_TYPES = ['command'] as const;

/** A step may run for 1 ms to 10 minutes. */
export const STEP_TIMEOUT_MS = { min: 1, max: 600_000, default: 30_000 };
/** stdout, stdin and expected output are kept up to this many bytes per result; their sha256 is of the whole. */
export const STEP_TEXT_CAP = 64 * 1024;
/** The most of stdout and of an expected-output file that is compared (and read into the worker's memory). */
export const STEP_COMPARE_CAP = 1024 * 1024;

/**
 * A file name in the sandbox a step may read: one path part of letters, digits, `.`, `_`, `-`
 * (not `.` or `..`, at most 255 characters), so it cannot leave the sandbox or name a device.
 */
export function isSafeFileName(name: string): boolean {
  return name.length <= 255 && /^[A-Za-z0-9._-]+$/.test(name) && !/^\.+$/.test(name);
}

/**
 * Whitespace-tolerant form of a text: CRLF and CR become LF; on each line, trailing spaces and tabs
 * are removed and every run of spaces and tabs becomes one space (leading runs included, so
 * indentation counts as one space); trailing empty lines are removed. Nothing else changes.
 */
export function normaliseWhitespace(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/**
 * Whether stdout matches the expected output. `exact`: byte for byte (as UTF-8 text). `whitespace`:
 * equal after normaliseWhitespace. With `partial`, the (normalised, for `whitespace`) expected text
 * must occur somewhere in the (normalised) stdout instead of being all of it; an empty expected
 * text is contained in anything.
 */
export function outputMatches(stdout: string, expected: string, comparison: OutputComparison, partial: boolean): boolean {
  const [out, want] = comparison === 'whitespace' ? [normaliseWhitespace(stdout), normaliseWhitespace(expected)] : [stdout, expected];
  return partial ? out.includes(want) : out === want;
}

export interface StepRun {
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  /** The step's stdout (as compared: its first STEP_COMPARE_CAP bytes). */
  stdout: string;
  /** The expected output, when the step has an expected-output file. */
  expected: string | null;
}

export interface StepRules {
  outputComparison: OutputComparison;
  partialOutputDiff: boolean;
}

/** A step passes when it exited 0 by itself and, if it has an expected output, its stdout matches it. */
export function stepOutcome(run: StepRun, rules: StepRules): Exclude<StepOutcomeName, 'skipped'> {
  if (run.timedOut) return 'timed_out';
  if (run.oomKilled) return 'out_of_memory';
  if (run.exitCode !== 0) return 'failed';
  if (run.expected !== null && !outputMatches(run.stdout, run.expected, rules.outputComparison, rules.partialOutputDiff)) return 'failed';
  return 'passed';
}

export interface StepFlow {
  statusOnSuccess: TaskStatus | null;
  statusOnFailure: TaskStatus | null;
  haltOnSuccess: boolean;
  haltOnFailure: boolean;
}

/** Whether the run stops after a step with this outcome (its later steps are skipped). */
export function haltsAfter(step: StepFlow, passed: boolean): boolean {
  return passed ? step.haltOnSuccess : step.haltOnFailure;
}

/** The status the run asks for: that of the last step that ran and names one for its outcome; null when none does. */
export function statusOfRun(steps: { flow: StepFlow; passed: boolean | null }[]): TaskStatus | null {
  let status: TaskStatus | null = null;
  for (const { flow, passed } of steps) {
    if (passed === null) continue;
    const wanted = passed ? flow.statusOnSuccess : flow.statusOnFailure;
    if (wanted) status = wanted;
  }
  return status;
}

/** What the student may see of a step's result. */
export interface StepVisibility {
  showStdout: boolean;
  showStdin: boolean;
  showExpectedOutput: boolean;
}

export interface ResultTexts {
  stdout: string | null;
  stdin: string | null;
  expectedOutput: string | null;
  stdoutSha256: string | null;
  stdinSha256: string | null;
  expectedOutputSha256: string | null;
}

/** A result's texts as the viewer may see them: all of them for staff, only the flagged ones for the student. */
export function visibleTexts(texts: ResultTexts, flags: StepVisibility, staff: boolean): ResultTexts {
  if (staff) return texts;
  return {
    stdout: flags.showStdout ? texts.stdout : null,
    stdoutSha256: flags.showStdout ? texts.stdoutSha256 : null,
    stdin: flags.showStdin ? texts.stdin : null,
    stdinSha256: flags.showStdin ? texts.stdinSha256 : null,
    expectedOutput: flags.showExpectedOutput ? texts.expectedOutput : null,
    expectedOutputSha256: flags.showExpectedOutput ? texts.expectedOutputSha256 : null,
  };
}

const OUTCOME_WORDS: Record<StepOutcomeName, string> = {
  passed: 'passed',
  failed: 'failed',
  timed_out: 'failed (time limit)',
  out_of_memory: 'failed (memory limit)',
  skipped: 'skipped',
};

/** How much of a shown text goes into the comment; the results route has the rest. */
const COMMENT_TEXT_CAP = 2000;

function quoted(label: string, text: string | null): string[] {
  if (text === null || text === '') return [];
  const cut = text.length > COMMENT_TEXT_CAP ? `${text.slice(0, COMMENT_TEXT_CAP)}\n[cut]` : text;
  return [
    `${label}:`,
    ...cut
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `    ${l}`),
  ];
}

export interface SummaryStep extends StepVisibility {
  title: string;
  outcome: StepOutcomeName;
  feedback: string | null;
  stdout: string | null;
  stdin: string | null;
  expectedOutput: string | null;
}

/**
 * The one comment a run posts (the student reads it, so it holds only what the flags allow):
 * a line per step, `name: passed|failed|skipped`, its feedback indented below it, and the shown texts.
 */
export function summaryComment(steps: SummaryStep[]): string {
  const passed = steps.filter((s) => s.outcome === 'passed').length;
  const lines = [`Automated assessment: ${passed} of ${steps.length} steps passed`];
  for (const s of steps) {
    lines.push(`- ${s.title}: ${OUTCOME_WORDS[s.outcome]}`);
    if (s.outcome === 'skipped') continue;
    if (s.feedback) lines.push(...s.feedback.split('\n').map((l) => `  ${l}`));
    if (s.showStdin) lines.push(...quoted('  input', s.stdin));
    if (s.showStdout) lines.push(...quoted('  output', s.stdout));
    if (s.showExpectedOutput) lines.push(...quoted('  expected', s.expectedOutput));
  }
  return lines.join('\n');
}

/** A step's feedback message is given when it did not pass (a passing step needs none); null otherwise. */
export function feedbackFor(outcome: StepOutcomeName, message: string | null): string | null {
  return outcome === 'passed' || outcome === 'skipped' || !message ? null : message;
}

/** The settings of a step that the rules below check (names as the API spells them). */
export interface StepSettingsToCheck {
  name: string;
  display_name: string | null;
  run_command: string;
  timeout_ms: number;
  stdin_input_file: string | null;
  expected_output_file: string | null;
}

export const STEP_NAME_MAX = 255;
export const RUN_COMMAND_MAX = 10_000;

/** What is wrong with a step's settings, as a 400's message; null when nothing is. */
export function stepProblem(step: StepSettingsToCheck): string | null {
  if (step.name.trim() === '') return 'Name is empty';
  if (step.name.length > STEP_NAME_MAX) return `Name is too long (maximum is ${STEP_NAME_MAX} characters)`;
  if (step.display_name !== null && step.display_name.length > STEP_NAME_MAX) return `Display name is too long (maximum is ${STEP_NAME_MAX} characters)`;
  if (step.run_command.trim() === '') return 'Run command is empty';
  if (step.run_command.length > RUN_COMMAND_MAX) return `Run command is too long (maximum is ${RUN_COMMAND_MAX} characters)`;
  if (!Number.isInteger(step.timeout_ms) || step.timeout_ms < STEP_TIMEOUT_MS.min || step.timeout_ms > STEP_TIMEOUT_MS.max) {
    return `Timeout ms must be an integer from ${STEP_TIMEOUT_MS.min} to ${STEP_TIMEOUT_MS.max}`;
  }
  for (const [label, file] of [
    ['Stdin input file', step.stdin_input_file],
    ['Expected output file', step.expected_output_file],
  ] as const) {
    if (file !== null && !isSafeFileName(file)) return `${label} must be a plain file name in the sandbox (letters, digits, '.', '_', '-'), not '${file}'`;
  }
  return null;
}

const nullableText = z.string().nullable();
/** A step's settings as JSON holds them (the task-definition CSV's `overseer_steps` column): every field typed, none coerced. */
export const stepSettingsSchema = z.object({
  name: z.string(),
  display_name: nullableText.default(null),
  description: nullableText.default(null),
  display_description: nullableText.default(null),
  sort_order: z.number().int().min(0).max(100_000).default(0),
  enabled: z.boolean().default(true),
  step_type: z.enum(STEP_TYPES).default('command'),
  run_command: z.string(),
  timeout_ms: z.number().int().default(STEP_TIMEOUT_MS.default),
  stdin_input_file: nullableText.default(null),
  expected_output_file: nullableText.default(null),
  partial_output_diff: z.boolean().default(false),
  output_comparison: z.enum(OUTPUT_COMPARISONS).default('exact'),
  feedback_message: nullableText.default(null),
  status_on_success: z.enum(TASK_STATUSES).nullable().default(null),
  status_on_failure: z.enum(TASK_STATUSES).nullable().default(null),
  halt_on_success: z.boolean().default(false),
  halt_on_failure: z.boolean().default(false),
  show_expected_output: z.boolean().default(false),
  show_stdin: z.boolean().default(false),
  show_stdout: z.boolean().default(false),
});
export type StepSettings = z.output<typeof stepSettingsSchema>;

/** The most steps one definition may have (a CSV cell or the routes). */
export const MAX_STEPS = 50;

/**
 * The `overseer_steps` CSV cell: a JSON array of step settings, in run order. Throws an Error whose
 * message says what is wrong (the row's error).
 */
export function parseStepsJson(text: string): StepSettings[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('overseer_steps is not JSON');
  }
  const parsed = z.array(stepSettingsSchema).max(MAX_STEPS).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`overseer_steps ${issue.path.join('.') || '(list)'}: ${issue.message}`);
  }
  const names = new Set<string>();
  for (const step of parsed.data) {
    const problem = stepProblem(step);
    if (problem) throw new Error(`overseer_steps '${step.name}': ${problem}`);
    if (names.has(step.name.trim())) throw new Error(`overseer_steps: name '${step.name}' is used twice`);
    names.add(step.name.trim());
  }
  return parsed.data.map((step) => ({ ...step, name: step.name.trim() }));
}
