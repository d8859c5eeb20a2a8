// The portfolio zip of a 1,000-student unit, downloaded over a real socket from a server in its own
// process: the zip is written while it is sent, so the server's memory must not grow with it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Project, TutorialEnrolment, User } from '../../schema/index.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { resetDatabase, testEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import { startFloodServer, type FloodServer } from '../support/flood-server.ts';
import { seedTutorialRow } from '../support/seed-tutorials.ts';
import { employ, seedUnit } from '../support/seed.ts';

const test = suite('unit zips: memory stays flat while a 1,000-student zip is sent');

const MiB = 1024 * 1024;
const STUDENTS = 1_000;
const PDF_BYTES = 100 * 1024; // 100 MB of portfolios in all: a buffered zip would show (10 MB grows RSS +16 MiB, 300 MB +32 MiB)
const mib = (n: number) => (n / MiB).toFixed(1);

let server: FloodServer;
let dataDir: string;
let auth: Record<string, string>;
let unit: number;

test.before(async () => {
  const env = await testEnv();
  await resetDatabase(env);
  dataDir = mkdtempSync(join(tmpdir(), 'course-unit-zips-'));
  const storageRoot = join(dataDir, 'files');
  unit = await seedUnit(env, { code: 'BIG101' });
  const tutor = await createUser(env, 'bigtutor', 'Tutor');
  const tutorial = await seedTutorialRow(env, unit, 'LA1', { tutor: await employ(env, tutor, unit, 'Tutor') });
  const em = env.orm.em.fork();
  const when = new Date('2026-05-01T00:00:00Z');
  const projects = [];
  for (let i = 0; i < STUDENTS; i++) {
    const username = `s${String(i).padStart(4, '0')}`;
    const user = em.create(User, {
      username,
      email: `${username}@example.edu`,
      firstName: 'S',
      lastName: username,
      nickname: username,
      systemRole: 'Student',
      passwordHash: 'x',
      hasRunFirstTimeSetup: true,
    });
    projects.push(em.create(Project, { user, unit, enrolled: true, targetGrade: i % 4, portfolioProductionDate: when }));
  }
  await em.flush();
  for (const project of projects) em.create(TutorialEnrolment, { project, tutorial });
  await em.flush();
  const pdf = Buffer.alloc(PDF_BYTES, 'x');
  for (const project of projects) {
    const path = join(storageRoot, storageKeys.portfolio(project.id));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, pdf);
  }
  const token = await issueToken(env.orm.em.fork(), tutor, new Date(), false);
  auth = { Username: 'bigtutor', 'Auth-Token': token };
  server = await startFloodServer({ DATABASE_URL: env.databaseUrl, DATA_DIR: dataDir, STORAGE_ROOT: storageRoot, FLOOD_UPLOAD_CAP: '1000' });
});

test.after(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Reads the whole answer, slowly enough that a server which buffered would be seen doing so, and counts its bytes. */
function download(path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path, headers: auth }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

test('the portfolio zip of 1,000 students (100 MB) is sent while the server grows by far less than its size', async () => {
  // One small download first, so that what the first request loads (code, pools) is not counted.
  await download(`/api/submission/unit/${unit}/task_definitions/999999/student_pdfs`);
  const before = await server.memory('reset-peak');
  const started = Date.now();
  const { status, bytes } = await download(`/api/submission/unit/${unit}/portfolio`);
  const after = await server.memory('measure');
  assert.is(status, 200);
  assert.ok(bytes > STUDENTS * PDF_BYTES, `only ${bytes} bytes`);
  console.log(
    `\n  unit zip: ${STUDENTS} portfolios, ${mib(bytes)} MiB in ${Date.now() - started} ms; server RSS before ${mib(before.rss)} MiB, ` +
      `peak ${mib(after.peak)} MiB (+${mib(after.peak - before.rss)} MiB), after ${mib(after.rss)} MiB`,
  );
  assert.ok(after.peak - before.rss < 40 * MiB, `RSS peaked ${mib(after.peak - before.rss)} MiB above the start`);
});

test.run();
