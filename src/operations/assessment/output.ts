// What the steps of an assessment wrote, merged as the original runner merges it: output.txt holds
// each step's text and `exit code: N`, output.yaml each step's YAML and `exit_code: N`; the YAML's
// build_message, run_message and new_status are the result.
import { parse } from 'yaml';

export interface StepOutcome {
  mode: 'build' | 'run';
  exitCode: number;
  timedOut: boolean;
  oomKilled: boolean;
  /** The script's output/<rand>.txt. */
  text: string;
  /** The script's output/<rand>.yaml. */
  yaml: string;
  /** The step's own stdout and stderr (errors of the shell, of chmod, a missing script). */
  logs: string;
}

export interface AssessmentLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** The line that says why a step was stopped, or null when it ended by itself. */
export function stoppedBecause(step: StepOutcome, limits: AssessmentLimits): string | null {
  if (step.timedOut) return `${step.mode} stopped: time limit of ${limits.timeoutMs / 1000} s exceeded`;
  if (step.oomKilled) return `${step.mode} stopped: memory limit of ${limits.memoryMb} MB exceeded (killed, exit code ${step.exitCode})`;
  return null;
}

/** A step's YAML as an object; a script that wrote no YAML, or broken YAML, yields {}. */
function parsed(text: string): Record<string, unknown> {
  try {
    const value: unknown = parse(text, { uniqueKeys: false });
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface MergedOutput {
  text: string;
  yaml: string;
  buildMessage: string | null;
  runMessage: string | null;
  /** The trigger word the scripts asked for (any alias, e.g. `fix`). */
  newStatus: string | null;
}

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

export function mergeOutput(steps: StepOutcome[], limits: AssessmentLimits): MergedOutput {
  const text: string[] = [];
  const yaml: string[] = [];
  const result: Record<string, unknown> = {};
  for (const step of steps) {
    const stopped = stoppedBecause(step, limits);
    text.push(`${step.text}${step.text && !step.text.endsWith('\n') ? '\n' : ''}${step.logs}${step.logs && !step.logs.endsWith('\n') ? '\n' : ''}`);
    if (stopped) text.push(`${stopped}\n`);
    text.push(`exit code: ${step.exitCode}\n`);
    yaml.push(`${step.yaml}${step.yaml && !step.yaml.endsWith('\n') ? '\n' : ''}exit_code: ${step.exitCode}\n`);
    Object.assign(result, parsed(step.yaml));
  }
  const stops = steps.map((s) => stoppedBecause(s, limits)).filter((s): s is string => s !== null);
  const runMessage = str(result.run_message);
  return {
    text: text.join(''),
    yaml: yaml.join(''),
    buildMessage: str(result.build_message),
    // A step stopped at a limit says so in the comment even when its script had no chance to.
    runMessage: [runMessage, ...stops].filter(Boolean).join('\n') || null,
    newStatus: str(result.new_status),
  };
}
