// `npm run seed:demo`: builds a demo unit of realistic size (see scripts/demo/seed.ts) in
// DATABASE_URL, or in the embedded database under DATA_DIR (stop `npm start` first: the two
// cannot share it). Running it again with the same --code changes nothing and says so.
import cliProgress from 'cli-progress';
import { User } from '../schema/index.ts';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrm, type Em } from '../src/db/orm.ts';
import { embeddedClusterDirectory, postgresRunAs } from '../src/db/postgres-host.ts';
import { ensureAdmin } from '../src/operations/users/ensure-admin.ts';
import { systemClock } from '../src/lib/clock.ts';
import { generatePassword } from '../src/lib/passwords.ts';
import { createServices } from '../src/trpc/context.ts';
import { parseDemoArgs, UsageError, type DemoOptions } from './demo/options.ts';
import { seedDemo, type DemoResult } from './demo/seed.ts';
import { ROLE } from '../src/policy/index.ts';

let options: DemoOptions;
try {
  options = parseDemoArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  const help = process.argv.includes('--help') || process.argv.includes('-h');
  (help ? console.log : console.error)(error.message);
  process.exit(help ? 0 : 2);
}

const password = process.env.DEMO_PASSWORD || generatePassword();
if (password.length < 8) {
  console.error('DEMO_PASSWORD must be at least 8 characters (the service refuses shorter passwords)');
  process.exit(2);
}

const config = loadConfig();
const embedded = config.databaseUrl
  ? undefined
  : await startEmbeddedPostgres(embeddedClusterDirectory(config.dataDir, postgresRunAs()).dir, { persistent: true, log: (message) => console.error(message) });
let failed = false;
try {
  const url = config.databaseUrl ?? embedded!.url;
  const applied = await migrate(url);
  if (applied.length) console.log(`applied migrations: ${applied.join(', ')}`);
  const orm = await createOrm(url);
  try {
    // The same first-start bootstrap as `npm start`, so a fresh database works too.
    const bootstrap = await ensureAdmin(orm, config);
    if (bootstrap.generatedPassword) console.log(`created the Admin "${config.adminUsername}" with the generated password: ${bootstrap.generatedPassword}`);
    const admin = await findAdmin(orm.em.fork(), config.adminUsername);

    const bar = new cliProgress.SingleBar(
      { format: '{bar} {percentage}% | {value}/{total} steps | {stage} | {duration_formatted}', hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    const started = performance.now();
    const result = await seedDemo(createServices(orm, config, systemClock), {
      options,
      adminUsername: admin,
      password,
      progress: {
        start: (total) => bar.start(total, 0, { stage: 'starting' }),
        step: (stage, done) => bar.update(done, { stage }),
      },
    }).finally(() => bar.stop());
    printResult(result, performance.now() - started);
  } finally {
    await orm.close();
  }
} catch (error) {
  failed = true;
  console.error((error as Error).message);
} finally {
  await embedded?.stop();
}
process.exit(failed ? 1 : 0);

/** ADMIN_USERNAME when that user is an Admin, else the first Admin. */
async function findAdmin(em: Em, preferred: string): Promise<string> {
  const named = await em.findOne(User, { username: preferred, systemRole: ROLE.admin });
  if (named) return named.username;
  const first = await em.findOne(User, { systemRole: ROLE.admin }, { orderBy: { id: 'asc' } });
  if (!first) throw new Error('the database has users but no Admin: the demo is set up by an Admin');
  return first.username;
}

function printResult(r: DemoResult, ms: number): void {
  const { unit, period } = r;
  const where = `${unit.code} "${unit.name}" (unit id ${unit.id}) in teaching period ${period.period} ${period.year} (id ${period.id})`;
  if (r.existed) {
    console.log(
      `The demo unit ${where} is already there, with ${r.studentCount} students, ${r.tutorialCount} tutorials and ${r.taskDefinitionCount} task definitions: ` +
        `nothing was changed.`,
    );
    console.log('Its users keep the password they were given when it was built. Use --code to build another demo unit.');
  } else {
    console.log(
      `Built ${where} in ${(ms / 1000).toFixed(1)} s: ${r.tutors.length} tutors, ${r.tutorialCount} tutorials, ${r.taskDefinitionCount} task definitions, ` +
        `${r.studentCount} students, ${r.work.tasks} tasks handed in with ${r.work.comments} comments.`,
    );
    console.log(
      `Timings (ms): ${Object.entries(r.timings)
        .map(([stage, t]) => `${stage} ${t}`)
        .join(', ')}`,
    );
  }
  console.log('\nSign in as:');
  console.log(`  convenor  ${r.convenor}`);
  console.log(`  tutors    ${r.tutors.length > 3 ? `${r.tutors.slice(0, 2).join(', ')} ... ${r.tutors.at(-1)}` : r.tutors.join(', ')}`);
  if (r.signInStudents.length) console.log(`  students  ${r.signInStudents.join(', ')}`);
  if (!r.existed) {
    console.log(`  password  ${password}${process.env.DEMO_PASSWORD ? ' (DEMO_PASSWORD)' : ' (generated; set DEMO_PASSWORD to choose it)'}`);
    if (r.studentCount > r.signInStudents.length) {
      console.log(
        `The other ${r.studentCount - r.signInStudents.length} students were enrolled by CSV upload and have no password (single sign-on users); ` +
          `an Admin can set one.`,
      );
    }
    if (r.reusedUsers.length) console.log(`Already there and keeping their own password: ${r.reusedUsers.join(', ')}`);
  }
}
