// PUT /api/projects/{id} compile_portfolio: who may ask, and that the compile job is queued with
// the change (a refused request queues nothing).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('REST PUT /api/projects/{id} compile_portfolio');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function keys(): Promise<string[]> {
  const rows = await env.orm.em.fork().execute<{ key: string }[]>('select key from graphile_worker._private_jobs order by id');
  return rows.map((r) => r.key);
}

test('the student or staff may ask; the compile is queued with the request and clears auto-generation', async () => {
  const world = await taskWorld(env, people);
  await db(env.orm.em.fork()).updateTable('projects').set({ portfolio_auto_generated: true }).where('id', '=', world.project).execute();
  const tutor = await api(env, 'PUT', `/api/projects/${world.project}`, { as: people.tutor.creds, json: { compile_portfolio: true } });
  assert.is(tutor.status, 200, tutor.text);
  assert.equal([tutor.body.compile_portfolio, tutor.body.portfolio_available], [true, false]);
  assert.equal(await keys(), [`compile_portfolio:${world.project}`]);
  const row = await db(env.orm.em.fork())
    .selectFrom('projects')
    .select(['compile_portfolio', 'portfolio_auto_generated'])
    .where('id', '=', world.project)
    .executeTakeFirstOrThrow();
  assert.equal(row, { compile_portfolio: true, portfolio_auto_generated: false });
});

test('someone else is refused and nothing is queued', async () => {
  const world = await taskWorld(env, people);
  const other = await signedIn(env, 'bstudent', 'Student');
  const res = await api(env, 'PUT', `/api/projects/${world.project}`, { as: other.creds, form: { compile_portfolio: 'true' } });
  assert.is(res.status, 403);
  assert.ok(typeof res.body.error === 'string');
  assert.equal(await keys(), []);
  const row = await db(env.orm.em.fork()).selectFrom('projects').select('compile_portfolio').where('id', '=', world.project).executeTakeFirstOrThrow();
  assert.is(row.compile_portfolio, false);
});

test('a field applied before compile_portfolio (target_grade) wins, and no compile is queued', async () => {
  const world = await taskWorld(env, people);
  const res = await api(env, 'PUT', `/api/projects/${world.project}`, { as: people.student.creds, form: { target_grade: 2, compile_portfolio: 'true' } });
  assert.equal([res.status, res.body.target_grade, res.body.compile_portfolio], [200, 2, false]);
  assert.equal(await keys(), []);
});

test.run();
