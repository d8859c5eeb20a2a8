// The command line of `npm run cli`: which command, its arguments and options. Pure: no I/O.

export class UsageError extends Error {}

export interface CommandSpec {
  name: string;
  args: string[];
  summary: string;
  example: string;
}

export const COMMANDS: CommandSpec[] = [
  {
    name: 'import-users',
    args: ['<users.csv>'],
    summary: 'Create or update users from the users CSV (email, first_name, last_name, username, nickname, role, student_id)',
    example: 'npm run cli -- import-users staff-and-students.csv',
  },
  {
    name: 'enrol',
    args: ['<unit id>', '<students.csv>'],
    summary: 'Enrol and update students in a unit from the unit CSV (tutorials per stream)',
    example: 'npm run cli -- enrol 12 enrolments.csv',
  },
  {
    name: 'withdraw',
    args: ['<unit id>', '<students.csv>'],
    summary: 'Withdraw the listed students from a unit',
    example: 'npm run cli -- withdraw 12 withdrawals.csv',
  },
  {
    name: 'import-task-definitions',
    args: ['<unit id>', '<task-definitions.csv>'],
    summary: 'Create or update task definitions from the task-definition CSV',
    example: 'npm run cli -- import-task-definitions 12 tasks.csv',
  },
  {
    name: 'rollover',
    args: ['<unit id>'],
    summary: 'Roll a unit over to a teaching period (--teaching-period <id>) or to dates (--start YYYY-MM-DD --end YYYY-MM-DD)',
    example: 'npm run cli -- rollover 12 --teaching-period 7',
  },
  {
    name: 'export-grades',
    args: ['<unit id>'],
    summary: "Write the unit's grades CSV to --out <file> (default: standard output)",
    example: 'npm run cli -- export-grades 12 --out grades.csv',
  },
];

export const HELP = `Usage: npm run cli -- <command> [arguments] [--as <username>] [--batch <rows>]

Bulk work through the same operations as the API, against DATABASE_URL (or the embedded database
under DATA_DIR; stop \`npm start\` first). Each command runs as --as (default ADMIN_USERNAME), with
that user's permissions. CSV imports run in batches of --batch rows (default 500) with a progress
bar, print the {success, ignored, errors} summary as a table, and exit 1 when any row failed.

Commands:
${COMMANDS.map((c) => `  ${[c.name, ...c.args].join(' ')}\n      ${c.summary}\n      e.g. ${c.example}`).join('\n')}`;

export interface Invocation {
  command: CommandSpec['name'];
  args: string[];
  as?: string;
  batch: number;
  options: Record<string, string>;
}

const OPTIONS = new Set(['as', 'batch', 'teaching-period', 'start', 'end', 'out']);

/** Reads `command args... --name value`/`--name=value`; throws UsageError naming the first problem (HELP for --help). */
export function parseCli(argv: readonly string[]): Invocation {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) throw new UsageError(HELP);
  const [name, ...rest] = argv;
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) throw new UsageError(`unknown command "${name}"\n\n${HELP}`);
  const args: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('--')) {
      args.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const key = arg.slice(2, eq > 0 ? eq : undefined);
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (!OPTIONS.has(key)) throw new UsageError(`unknown option --${key} for ${name}`);
    if (value === undefined) throw new UsageError(`--${key} needs a value`);
    options[key] = value;
  }
  if (args.length !== spec.args.length) throw new UsageError(`${name} takes ${spec.args.join(' ')}\n  e.g. ${spec.example}`);
  if (spec.args[0] === '<unit id>' && !/^[1-9]\d*$/.test(args[0]!)) throw new UsageError(`the unit id must be a positive whole number, got "${args[0]}"`);
  const batch = options.batch === undefined ? 500 : Number(options.batch);
  if (!Number.isInteger(batch) || batch < 1) throw new UsageError(`--batch must be a positive whole number, got "${options.batch}"`);
  if (name === 'rollover' && !options['teaching-period'] && !(options.start && options.end)) {
    throw new UsageError('rollover needs --teaching-period <id>, or --start and --end');
  }
  const { as, batch: _batch, ...others } = options;
  return { command: spec.name, args, as, batch, options: others };
}
