// Generates a migration from the difference between the entities in schema/ and the database.
// Usage: npm run migration:create [-- --initial]

import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { createOrm } from '../src/db/orm.ts';
import { migrate } from '../src/db/migrate.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const initial = process.argv.includes('--initial');
// A scratch database holding only the migrations that already exist.
const db = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'migration-')), { persistent: false, log: (message) => console.error(message) });
try {
  if (!initial) await migrate(db.url);
  const orm = await createOrm(db.url);
  const result = initial ? await orm.migrator.createInitial('schema/migrations') : await orm.migrator.create('schema/migrations');
  console.log(result.fileName ? `created ${result.fileName}; add it to schema/migrations/index.ts` : 'no changes');
  await orm.close();
} finally {
  await db.stop();
}
