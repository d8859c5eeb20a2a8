// GET /api/campuses through the real service (Fastify + REST compat layer + tRPC + MikroORM +
// zod output) against a bare Fastify route that runs the same single query on a `pg` Pool.
// Both servers run in this process against one database; the load generator runs on a worker
// thread. Also measures an authenticated list (GET /api/unit_roles, or GET /api/webcal) when
// that route exists, against the same bare baseline.
import Fastify from 'fastify';
import pg from 'pg';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Campus, User } from '../../schema/index.ts';
import { CAMPUS_MODES } from '../../schema/enums.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createOrm } from '../../src/db/orm.ts';
import { createServices } from '../../src/trpc/context.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { issueToken } from '../../src/lib/sessions.ts';
import { benchSettings, fmt, interleave, measureRps, ratioLine, startDatabase, stopDatabase } from './support.ts';

const BASELINE_SQL = 'select id, name, abbreviation, active, mode from campuses order by id';

const db = await startDatabase();
const orm = await createOrm(db.url);
const pool = new pg.Pool({ connectionString: db.url, max: 10 });
// Stopping the server at the end kills connections the pool is still closing; that is expected.
pool.on('error', () => {});
const bare = Fastify({ logger: false });
try {
  // Seed: 20 campuses and one signed-in Admin.
  const em = orm.em.fork();
  for (let i = 1; i <= 20; i++) {
    em.create(Campus, {
      name: `Campus ${i}`,
      abbreviation: `C${i}`,
      mode: CAMPUS_MODES[i % CAMPUS_MODES.length]!,
      active: i % 5 !== 0,
    });
  }
  const admin = em.create(User, {
    username: 'benchadmin',
    email: 'benchadmin@example.edu',
    firstName: 'Bench',
    lastName: 'Admin',
    systemRole: 'Admin',
    passwordHash: null,
    hasRunFirstTimeSetup: true,
  });
  await em.flush();
  const token = await issueToken(orm.em.fork(), admin, systemClock.now(), false);
  const headers = { Username: 'benchadmin', 'Auth-Token': token, Accept: 'application/json' };

  // The service exactly as main.ts builds it; LOG_REQUESTS unset, so it logs nothing but errors.
  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'course-bench-data-')) });
  const app = await buildApp(createServices(orm, config, systemClock));
  const appAddress = await app.listen({ host: '127.0.0.1', port: 0 });

  bare.get('/campuses', async () => (await pool.query(BASELINE_SQL)).rows);
  const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });

  // The two must answer alike, or the comparison means nothing.
  const subjectBody = await (await fetch(`${appAddress}/api/campuses`, { headers })).json();
  const baselineBody = await (await fetch(`${bareAddress}/campuses`)).json();
  if (JSON.stringify(subjectBody) !== JSON.stringify(baselineBody)) {
    throw new Error(`service and baseline disagree:\n${JSON.stringify(subjectBody)}\n${JSON.stringify(baselineBody)}`);
  }

  const authed = app.hasRoute({ method: 'GET', url: '/api/unit_roles' })
    ? { name: 'unit_roles_list', path: '/api/unit_roles' }
    : app.hasRoute({ method: 'GET', url: '/api/webcal' })
      ? { name: 'webcal_get', path: '/api/webcal' }
      : undefined;
  if (authed) {
    const res = await fetch(`${appAddress}${authed.path}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${authed.path} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }

  const runs: Record<string, () => Promise<number>> = {
    baseline: () => measureRps({ url: `${bareAddress}/campuses` }),
    campuses: () => measureRps({ url: `${appAddress}/api/campuses`, headers }),
  };
  if (authed) runs.authed = () => measureRps({ url: `${appAddress}${authed.path}`, headers });

  const { concurrency, warmupMs, durationMs, rounds } = benchSettings;
  console.log(`concurrency ${concurrency}, warm-up ${warmupMs} ms, ${durationMs} ms x ${rounds} rounds (medians)`);
  const result = await interleave(runs);
  const baseline = result.baseline!;
  const lines: [name: string, key: string][] = [['campuses_list', 'campuses']];
  if (authed) lines.push([authed.name, 'authed']);
  for (const [name, key] of lines) {
    const subject = result[key]!;
    const perRound = subject.samples.map((s, i) => (s / baseline.samples[i]!).toFixed(2)).join('/');
    console.log(
      `${name} rps service ${fmt(subject.median)} baseline ${fmt(baseline.median)}` +
        ` (rounds: service ${subject.samples.map(fmt).join('/')}, baseline ${baseline.samples.map(fmt).join('/')}, ratios ${perRound})`,
    );
  }
  for (const [name, key] of lines) console.log(ratioLine(name, result[key]!.median, baseline.median));

  await app.close();
} finally {
  await bare.close();
  await pool.end();
  await orm.close();
  await stopDatabase(db);
}
