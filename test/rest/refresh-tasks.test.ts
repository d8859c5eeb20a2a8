import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedUnit } from '../support/seed.ts';
import { anotherStudent, outsideTutor, taskWorld } from '../support/task-world.ts';

const test = suite('REST GET /api/projects/{project_id}/refresh_tasks/{task_definition_id}');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const refresh = (who: keyof People | { creds: { username: string; token: string } }, project: number, td: number, prefix = '/api') =>
  api(env, 'GET', `${prefix}/projects/${project}/refresh_tasks/${td}`, { as: typeof who === 'string' ? people[who].creds : who.creds });

test("the task's status, extensions and due date (a timestamp, extended, capped at the deadline) for its student and staff", async () => {
  const w = await taskWorld(env, people, { targetDate: '2026-03-16', dueDate: '2026-04-02' });
  await seedTask(env, w.project, w.td, { status: 'fix_and_resubmit', extensions: 1 });
  for (const who of ['student', 'tutor', 'convenor'] as const) {
    const res = await refresh(who, w.project, w.td);
    assert.is(res.status, 200, who);
    assert.equal(res.body, { task_definition_id: w.td, status: 'fix_and_resubmit', due_date: '2026-03-23T00:00:00.000Z', extensions: 1 });
  }
  await env.orm.em.fork().getConnection().execute(`update tasks set extensions = 3`);
  assert.is((await refresh('student', w.project, w.td)).body.due_date, '2026-04-02T00:00:00.000Z');
});

test("no task yet: null (and none is created); the web client's double slash works", async () => {
  const w = await taskWorld(env, people);
  const res = await refresh('student', w.project, w.td, '/api/');
  assert.is(res.status, 200);
  assert.is(res.body, null);
  const rows = await env.orm.em.fork().getConnection().execute('select count(*)::int as n from tasks');
  assert.is(rows[0].n, 0);
});

test('refused: another student, a tutor of another unit, an Admin off the staff (403); unknown project, unknown or foreign definition (404)', async () => {
  const w = await taskWorld(env, people);
  await seedTask(env, w.project, w.td, { status: 'working_on_it' });
  const other = await anotherStudent(env, w, 'bstudent');
  const outsider = await outsideTutor(env);
  for (const who of [other.actor, outsider, 'admin'] as const) {
    const res = await refresh(who, w.project, w.td);
    assert.is(res.status, 403);
    assert.equal(res.body, { error: 'You do not have permission to access this project' });
  }
  assert.is((await refresh('student', 999999, w.td)).status, 404);
  assert.is((await refresh('student', w.project, 999999)).status, 404);
  const foreign = await seedTaskDefinition(env, await seedUnit(env, { code: 'SIT202' }), 'X1');
  assert.is((await refresh('student', w.project, foreign)).status, 404);
});

test.run();
