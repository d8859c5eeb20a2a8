import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';
import { seedStream, seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedEnrolmentIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { anotherStudent, outsideTutor, taskWorld } from '../support/task-world.ts';
import { enrol, seedUnit } from '../support/seed.ts';

const test = suite('REST GET /api/tasks and task pins');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const list = (who: keyof People | { creds: { username: string; token: string } }, unit: number) =>
  api(env, 'GET', '/api/tasks', { as: typeof who === 'string' ? people[who].creds : who.creds, query: { unit_id: unit } });

test('item 19: staff get every started task of enrolled students with the tutorial for its stream; a student gets their own', async () => {
  const w = await taskWorld(env, people);
  const stream = await seedStream(env, w.unit, 'lab');
  const lab = await seedTutorialRow(env, w.unit, 'LAB1', { stream });
  await seedEnrolmentIn(env, w.project, lab);
  const streamed = await seedTaskDefinition(env, w.unit, 'P2', { tutorialStream: stream });
  const other = await anotherStudent(env, w, 'bstudent');
  const withdrawn = await anotherStudent(env, w, 'cstudent');
  await env.orm.em.fork().getConnection().execute(`update projects set enrolled = false where id = ${withdrawn.project}`);

  const mine = await seedTask(env, w.project, w.td, { status: 'ready_for_feedback' });
  const mineStreamed = await seedTask(env, w.project, streamed, { status: 'complete' });
  const theirs = await seedTask(env, other.project, streamed, { status: 'working_on_it' });
  await seedTask(env, other.project, w.td, { status: 'not_started' });
  await seedTask(env, withdrawn.project, w.td, { status: 'complete' });

  const staff = await list('tutor', w.unit);
  assert.is(staff.status, 200);
  assert.equal(staff.body, [
    {
      id: mine,
      task_definition_id: w.td,
      status: 'ready_for_feedback',
      tutorial_id: w.tutorial,
      tutorial_stream_id: null,
      locked: false,
      prerequisites_unmet: [],
    },
    {
      id: mineStreamed,
      task_definition_id: streamed,
      status: 'complete',
      tutorial_id: lab,
      tutorial_stream_id: stream,
      locked: false,
      prerequisites_unmet: [],
    },
    // bstudent is in no tutorial of the lab stream, but T1 has no stream and so serves every definition.
    {
      id: theirs,
      task_definition_id: streamed,
      status: 'working_on_it',
      tutorial_id: w.tutorial,
      tutorial_stream_id: null,
      locked: false,
      prerequisites_unmet: [],
    },
  ]);
  assert.equal((await list('convenor', w.unit)).body, staff.body);
  assert.equal((await list('admin', w.unit)).body, staff.body, "an Admin reads the unit's task summary as staff do");

  const own = await list('student', w.unit);
  assert.is(own.status, 200);
  assert.equal(
    own.body.map((t: { id: number }) => t.id),
    [mine, mineStreamed],
  );
  assert.equal(
    (await list(other.actor, w.unit)).body.map((t: { id: number }) => t.id),
    [theirs],
  );
});

test('a student without a tutorial gets null tutorial ids; the list is one statement whatever its size', async () => {
  const w = await taskWorld(env, people);
  const loner = await anotherStudent(env, w, 'bstudent');
  await env.orm.em.fork().getConnection().execute(`delete from tutorial_enrolments where project_id = ${loner.project}`);
  const id = await seedTask(env, loner.project, w.td, { status: 'need_help' });
  const res = await list('tutor', w.unit);
  assert.equal(res.body, [
    { id, task_definition_id: w.td, status: 'need_help', tutorial_id: null, tutorial_stream_id: null, locked: false, prerequisites_unmet: [] },
  ]);

  const small = await countStatements(() => list('tutor', w.unit));
  for (let i = 0; i < 5; i++) {
    const more = await anotherStudent(env, w, `more${i}`);
    await seedTask(env, more.project, w.td, { status: 'fix_and_resubmit' });
  }
  const large = await countStatements(() => list('tutor', w.unit));
  assert.is((await list('tutor', w.unit)).body.length, 6);
  assert.is(large, small);
});

test('refused and unknown: someone outside the unit 403, unknown unit 404, missing unit_id 400', async () => {
  const w = await taskWorld(env, people);
  const outsider = await outsideTutor(env);
  const refused = await list(outsider, w.unit);
  assert.is(refused.status, 403);
  assert.equal(refused.body, { error: 'You do not have permission to read these task details' });
  const stranger = await list('student', await seedUnit(env, { code: 'SIT202' }));
  assert.is(stranger.status, 403);
  assert.is((await list('tutor', 999999)).status, 404);
  const missing = await api(env, 'GET', '/api/tasks', { as: people.tutor.creds });
  assert.is(missing.status, 400);
});

// ---- Pins (item 29) ---------------------------------------------------------------------------

const pin = (who: keyof People | { creds: { username: string; token: string } }, task: number, method: 'POST' | 'DELETE', url = `/api/tasks/${task}/pin`) =>
  api(env, method, url, { as: typeof who === 'string' ? people[who].creds : who.creds, json: {} });

async function pins(): Promise<{ task_id: number; user_id: number }[]> {
  return db(env.orm.em.fork()).selectFrom('task_pins').select(['task_id', 'user_id']).orderBy('task_id').orderBy('user_id').execute();
}

test('item 29: the convenor and the tutor pin (201, twice is once) and unpin (204) their own pins; unpinning what is not pinned is 404', async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td, { status: 'ready_for_feedback' });
  const first = await pin('tutor', task, 'POST');
  assert.is(first.status, 201);
  assert.equal(first.body, { message: 'Task pinned' });
  assert.is((await pin('tutor', task, 'POST')).status, 201);
  assert.is((await pin('convenor', task, 'POST')).status, 201);
  assert.equal(await pins(), [
    { task_id: task, user_id: people.convenor.user.id },
    { task_id: task, user_id: people.tutor.user.id },
  ]);

  const removed = await pin('tutor', task, 'DELETE');
  assert.is(removed.status, 204);
  assert.is(removed.text, '');
  assert.equal(await pins(), [{ task_id: task, user_id: people.convenor.user.id }]);
  const again = await pin('tutor', task, 'DELETE');
  assert.equal([again.status, again.body], [404, { error: 'Unable to find requested Task pin' }], 'not pinned (any more): 404, as the original');
  assert.equal(await pins(), [{ task_id: task, user_id: people.convenor.user.id }]);
});

test('item 29: a student, an Admin without a unit role and staff of another unit are refused (403); unknown task 404', async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td, { status: 'ready_for_feedback' });
  const outsider = await outsideTutor(env);
  for (const who of ['student', 'admin', outsider] as const) {
    for (const method of ['POST', 'DELETE'] as const) {
      const res = await pin(who, task, method);
      assert.is(res.status, 403, `${typeof who === 'string' ? who : 'outsider'} ${method}`);
      assert.equal(res.body, { error: 'Not authorised to pin task' });
    }
  }
  assert.equal(await pins(), []);
  assert.is((await pin('tutor', 999999, 'POST')).status, 404);
  assert.is((await pin('tutor', 999999, 'DELETE')).status, 404);
});

test('pins as the web client sends them: JSON {} to /api//tasks/{id}/pin/ with the hyphen header', async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td);
  const res = await api(env, 'POST', `/api//tasks/${task}/pin/`, { as: people.tutor.creds, hyphenHeader: true, json: {} });
  assert.is(res.status, 201);
  const gone = await api(env, 'DELETE', `/api//tasks/${task}/pin`, { as: people.tutor.creds, hyphenHeader: true, json: {} });
  assert.is(gone.status, 204);
  assert.equal(await pins(), []);
});

test('a project of another unit does not leak into the list', async () => {
  const w = await taskWorld(env, people);
  const otherUnit = await seedUnit(env, { code: 'SIT303' });
  const otherTd = await seedTaskDefinition(env, otherUnit, 'Q1');
  const elsewhere = await enrol(env, people.student.user, otherUnit);
  await seedTask(env, elsewhere, otherTd, { status: 'complete' });
  assert.equal((await list('tutor', w.unit)).body, []);
  assert.equal((await list('student', w.unit)).body, []);
});

test.run();
