// The run's PostgreSQL: one server, one database migrated once as the template, and a database of
// its own for each test process, copied from the template with CREATE DATABASE … TEMPLATE (a
// file-level copy, milliseconds, instead of running the migrations again).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

export interface TestDatabases {
  /** A fresh database copied from the migrated template; its URL. */
  create(name: string): Promise<string>;
  /** Drops the databases made here and stops the server if this run started it. */
  close(): Promise<void>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * With TEST_DATABASE_URL, that database is migrated and used as the template on its own server
 * (the role needs CREATEDB, and nothing else may be connected to it during the run); without it,
 * a throw-away embedded server is started.
 */
export async function startTestDatabases(): Promise<TestDatabases> {
  let server: EmbeddedDatabase | undefined;
  let templateUrl = process.env.TEST_DATABASE_URL;
  if (!templateUrl) {
    server = await startEmbeddedPostgres(mkdtempSync(join(tmpdir(), 'course-test-')), { persistent: false, log: (message) => console.error(message) });
    templateUrl = server.url;
  }
  const admin = new pg.Client({ connectionString: templateUrl });
  try {
    await migrate(templateUrl);
    await admin.connect();
    if (server) await throwAwayDurability(admin);
  } catch (error) {
    await admin.end().catch(() => {});
    await server?.stop();
    throw error;
  }
  // The template is copied while no one is connected to it, so the admin connection moves to the
  // server's maintenance database.
  const template = decodeURIComponent(new URL(templateUrl).pathname.slice(1));
  await admin.end();
  const maintenance = new URL(templateUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  client.on('error', () => {}); // a dropped connection surfaces on the next query
  await client.connect();
  const made: string[] = [];

  return {
    async create(name) {
      const database = `${template}_${name}`;
      await client.query(`drop database if exists ${quote(database)}`);
      await client.query(`create database ${quote(database)} template ${quote(template)}`);
      made.push(database);
      const url = new URL(templateUrl);
      url.pathname = `/${encodeURIComponent(database)}`;
      return url.toString();
    },
    async close() {
      try {
        // Only a server this run did not start outlives it; its test databases go.
        if (!server) for (const database of made) await client.query(`drop database if exists ${quote(database)} with (force)`);
      } finally {
        await client.end().catch(() => {});
        await server?.stop();
      }
    },
  };
}

/**
 * The run's own server is deleted afterwards, so nothing it writes needs to survive a crash: without
 * a flush to disk at every commit, the ~1,000 truncations between tests cost CPU only.
 */
async function throwAwayDurability(client: pg.Client): Promise<void> {
  for (const setting of ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']) await client.query(`alter system set ${setting}`);
  await client.query('select pg_reload_conf()');
}
