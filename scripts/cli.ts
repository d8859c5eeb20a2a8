// `npm run cli -- <command>`: bulk work for staff who script their term set-up (scripts/cli/args.ts
// lists the commands). DATABASE_URL, or the embedded database under DATA_DIR (stop `npm start`
// first: the two cannot share it).
import cliProgress from 'cli-progress';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrm } from '../src/db/orm.ts';
import { embeddedClusterDirectory, postgresRunAs } from '../src/db/postgres-host.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createServices } from '../src/trpc/context.ts';
import { parseCli, UsageError, type Invocation } from './cli/args.ts';
import { runCommand } from './cli/commands.ts';

let inv: Invocation;
try {
  inv = parseCli(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  const help = process.argv.length <= 2 || process.argv.includes('--help') || process.argv.includes('-h');
  (help ? console.log : console.error)(error.message);
  process.exit(help ? 0 : 2);
}

const config = loadConfig();
const embedded = config.databaseUrl
  ? undefined
  : await startEmbeddedPostgres(embeddedClusterDirectory(config.dataDir, postgresRunAs()).dir, { persistent: true, log: (message) => console.error(message) });
let code = 1;
try {
  const url = config.databaseUrl ?? embedded!.url;
  await migrate(url);
  const orm = await createOrm(url);
  try {
    const bar = new cliProgress.SingleBar(
      { format: '{bar} {percentage}% | {value}/{total} rows | {duration_formatted}', hideCursor: true, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    code = await runCommand(createServices(orm, config, systemClock), inv, {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
      progress: { start: (total) => bar.start(total, 0), update: (done) => bar.update(done), stop: () => bar.stop() },
    });
  } finally {
    await orm.close();
  }
} catch (error) {
  console.error((error as Error).message);
} finally {
  await embedded?.stop();
}
process.exit(code);
