// The demo unit's size and names, from the command line of `npm run seed:demo`. Pure: no I/O.

export interface DemoOptions {
  /** The unit's code; the demo users' names start with it (`demo101.tutor01`). */
  code: string;
  students: number;
  tutors: number;
  tutorials: number;
  streams: number;
  taskDefinitions: number;
  /** How many students get the demo password; the others are enrolled by CSV, without one. */
  signInStudents: number;
  /** Students per CSV upload: each upload is one operation, so this sets the progress steps. */
  batch: number;
  /** Tasks each student has handed in (the first N definitions by target date); 0 for none. */
  workDefinitions: number;
  /** Comments on each of those tasks, alternating student and tutor. */
  commentsPerTask: number;
}

export const DEFAULT_OPTIONS: DemoOptions = {
  code: 'DEMO101',
  students: 1000,
  tutors: 10,
  tutorials: 40,
  streams: 2,
  taskDefinitions: 30,
  signInStudents: 5,
  batch: 250,
  workDefinitions: 30,
  commentsPerTask: 3,
};

const NUMBERS = {
  '--students': 'students',
  '--tutors': 'tutors',
  '--tutorials': 'tutorials',
  '--streams': 'streams',
  '--task-definitions': 'taskDefinitions',
  '--sign-in-students': 'signInStudents',
  '--batch': 'batch',
  '--work-definitions': 'workDefinitions',
  '--comments-per-task': 'commentsPerTask',
} as const satisfies Record<string, keyof DemoOptions>;

// At least one of each, so the unit is something a user can open and teach in.
const AT_LEAST_ONE = new Set<keyof DemoOptions>(['tutors', 'tutorials', 'streams', 'batch']);

export const USAGE = `Usage: npm run seed:demo -- [--code DEMO101] [--students 1000] [--tutors 10] [--tutorials 40]
  [--streams 2] [--task-definitions 30] [--sign-in-students 5] [--batch 250]
  [--work-definitions 30] [--comments-per-task 3]
Builds a demo unit through the service's own operations, then the class's work: each student hands
in the first --work-definitions tasks, tutors assess about two thirds, and each task gets
--comments-per-task comments. DEMO_PASSWORD sets the demo users' password
(otherwise one is generated and printed). DATABASE_URL, or the embedded database under DATA_DIR.`;

export class UsageError extends Error {}

/** Reads `--name value` and `--name=value`; throws UsageError naming the first problem. */
export function parseDemoArgs(argv: readonly string[]): DemoOptions {
  const options: DemoOptions = { ...DEFAULT_OPTIONS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') throw new UsageError(USAGE);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value\n${USAGE}`);
    if (name === '--code') {
      if (!/^[A-Za-z0-9]{1,20}$/.test(value)) throw new UsageError(`--code must be 1 to 20 letters and digits, got "${value}"`);
      options.code = value.toUpperCase();
    } else if (name in NUMBERS) {
      const key = NUMBERS[name as keyof typeof NUMBERS];
      const n = Number(value);
      const min = AT_LEAST_ONE.has(key) ? 1 : 0;
      if (!Number.isInteger(n) || n < min || n > 100_000) throw new UsageError(`${name} must be a whole number from ${min} to 100000, got "${value}"`);
      options[key] = n;
    } else {
      throw new UsageError(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (options.tutorials < options.streams)
    throw new UsageError(`--tutorials (${options.tutorials}) must be at least --streams (${options.streams}): each stream needs a tutorial`);
  options.signInStudents = Math.min(options.signInStudents, options.students);
  return options;
}
