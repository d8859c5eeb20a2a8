// Applies pending migrations to DATABASE_URL (or the embedded database under DATA_DIR).
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { embeddedClusterDirectory, postgresRunAs } from '../src/db/postgres-host.ts';

const config = loadConfig();
const embedded = config.databaseUrl
  ? undefined
  : await startEmbeddedPostgres(embeddedClusterDirectory(config.dataDir, postgresRunAs()).dir, { persistent: true, log: (message) => console.error(message) });
try {
  const applied = await migrate(config.databaseUrl ?? embedded!.url);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await embedded?.stop();
}
