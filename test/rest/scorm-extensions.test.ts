// Requests for more test attempts (docs/online-tests.md, "Extra attempts"): request_scorm_extension
// and assess_scorm_extension in the original's shapes, the read rules they share with extension
// requests, and the attempts a grant adds.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { attemptsUrl, credsOf, scormWorld, setScorm } from '../support/scorm-world.ts';
import { anotherStudent, anotherTutor, outsideTutor, type TaskWorld } from '../support/task-world.ts';

const test = suite('REST requests for more test attempts');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

type Who = keyof People | Actor;

async function world(settings: Parameters<typeof scormWorld>[2] = { scorm_attempt_limit: 2 }): Promise<TaskWorld> {
  await travelTo(env, people, '2026-03-10T09:00:00Z');
  return scormWorld(env, people, settings);
}

const ask = (as: Who, w: TaskWorld, comment: unknown = 'I need more attempts please') =>
  api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/request_scorm_extension`, { as: credsOf(people, as), json: { comment } });
const assess = (as: Who, w: TaskWorld, id: number, body: unknown) =>
  api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}/assess_scorm_extension/${id}`, { as: credsOf(people, as), json: body });
const comments = (as: Who, w: TaskWorld) => api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: credsOf(people, as) });

const k = () => db(env.orm.em.fork());
const extraAttempts = async (w: TaskWorld) =>
  (
    await k()
      .selectFrom('tasks')
      .select('scorm_extensions')
      .where('project_id', '=', w.project)
      .where('task_definition_id', '=', w.td)
      .executeTakeFirstOrThrow()
  ).scorm_extensions;
const readers = async (id: number) =>
  (await k().selectFrom('comment_read_receipts').select('user_id').where('comment_id', '=', id).orderBy('user_id').execute()).map((r) => r.user_id);

/** Starts an attempt and fails it. */
async function fail(w: TaskWorld): Promise<number> {
  const started = await api(env, 'POST', attemptsUrl(w), { as: people.student.creds });
  if (started.status !== 201) return started.status;
  const model = { 'cmi.completion_status': 'completed', 'cmi.success_status': 'failed', 'cmi.score.scaled': '0.1' };
  await api(env, 'PATCH', `/api/test_attempts/${started.body.id}`, {
    as: people.student.creds,
    json: { cmi_datamodel: JSON.stringify(model), terminated: true },
  });
  return 201;
}

test("the student asks (201): a scorm_extension comment to the unit's main convenor, not yet assessed", async () => {
  const w = await world();
  const res = await ask('student', w);
  assert.is(res.status, 201);
  assert.is(res.body.type, 'scorm_extension');
  assert.is(res.body.comment, 'I need more attempts please');
  assert.is(res.body.author.id, people.student.user.id);
  assert.is(res.body.recipient.id, people.convenor.user.id);
  assert.is(res.body.granted, false);
  assert.is(res.body.assessed, false);
  assert.is(res.body.date_assessed, null);
  assert.is(res.body.scorm_extensions, 0);
  assert.is(await extraAttempts(w), 0);
});

test('asking is refused without a limit or a test (400), for anyone outside the task (403), and without a comment (400)', async () => {
  const w = await world({ scorm_attempt_limit: 0 });
  const unlimited = await ask('student', w);
  assert.is(unlimited.status, 400);
  assert.equal(unlimited.body, { error: 'This task allows unlimited attempts to complete the test' });
  await setScorm(env, w.td, { scorm_attempt_limit: 1, scorm_enabled: false });
  assert.is((await ask('student', w)).status, 400);
  await setScorm(env, w.td, { scorm_enabled: true });
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['admin', other.actor, await outsideTutor(env)] as Who[]) {
    const res = await ask(who, w);
    assert.is(res.status, 403);
    assert.equal(res.body, { error: 'Not authorised to request a scorm extension for this task' });
  }
  const missing = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/request_scorm_extension`, { as: people.student.creds, json: {} });
  assert.is(missing.status, 400);
  assert.is((await ask('student', w, 'x'.repeat(5000))).status, 400);
  assert.equal(await k().selectFrom('task_comments').select('id').execute(), []);
});

test('a request stays new for the convenor it was sent to until it is assessed; then every staff member has read it', async () => {
  const w = await world();
  const asked = await ask('student', w);
  assert.equal(await readers(asked.body.id), [people.student.user.id]);
  const listed = await comments('convenor', w);
  assert.is(listed.body.find((c: { id: number }) => c.id === asked.body.id).is_new, true);
  assert.is((await comments('convenor', w)).body.find((c: { id: number }) => c.id === asked.body.id).is_new, true, 'reading does not clear it');
  await assess('tutor', w, asked.body.id, { granted: true });
  const after = await readers(asked.body.id);
  for (const id of [people.convenor.user.id, people.tutor.user.id, people.student.user.id]) assert.ok(after.includes(id));
});

test("staff's own request is granted at once: one more block of the limit", async () => {
  const w = await world({ scorm_attempt_limit: 3 });
  for (const who of ['tutor', 'convenor'] as const) {
    const res = await ask(who, w);
    assert.is(res.status, 201);
    assert.is(res.body.granted, true);
    assert.is(res.body.assessed, true);
  }
  assert.is(await extraAttempts(w), 6);
  const row = await k().selectFrom('task_comments').select(['extension_assessor_id']).orderBy('id').executeTakeFirstOrThrow();
  assert.is(row.extension_assessor_id, people.tutor.user.id);
});

test('staff assess a request once (200, then 403); the student and outsiders may not; a grant adds a block', async () => {
  const w = await world();
  const asked = await ask('student', w);
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['student', 'admin', other.actor, await outsideTutor(env)] as Who[]) {
    const res = await assess(who, w, asked.body.id, { granted: true });
    assert.is(res.status, 403);
    assert.equal(res.body, { error: 'Not authorised to assess a scorm extension for this task' });
  }
  assert.is(await extraAttempts(w), 0);
  // The newer web client sends the comment as it holds it, granted among its fields.
  const granted = await assess('tutor', w, asked.body.id, { ...asked.body, granted: true });
  assert.is(granted.status, 200, JSON.stringify(granted.body));
  assert.is(granted.body.id, asked.body.id);
  assert.is(granted.body.granted, true);
  assert.is(granted.body.assessed, true);
  assert.is(granted.body.date_assessed, '2026-03-10T09:00:00.000Z');
  assert.is(granted.body.scorm_extensions, 2);
  assert.is(await extraAttempts(w), 2);
  const again = await assess('convenor', w, asked.body.id, { granted: true });
  assert.is(again.status, 403);
  assert.equal(again.body, { error: 'Scorm extension has already been assessed' });
  assert.is(await extraAttempts(w), 2);
  const row = await k()
    .selectFrom('task_comments')
    .select(['extension_assessor_id', 'extension_granted'])
    .where('id', '=', asked.body.id)
    .executeTakeFirstOrThrow();
  assert.equal(row, { extension_assessor_id: people.tutor.user.id, extension_granted: true });
});

test('a refusal adds nothing; another tutor of the unit may assess; unknown and other kinds of comment are 404', async () => {
  const w = await world();
  const asked = await ask('student', w);
  const second = await anotherTutor(env, w, 'btutor');
  const refused = await assess(second, w, asked.body.id, { granted: 'false' });
  assert.is(refused.status, 200);
  assert.is(refused.body.granted, false);
  assert.is(refused.body.assessed, true);
  assert.is(await extraAttempts(w), 0);
  const text = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.student.creds, json: { comment: 'hello' } });
  assert.is((await assess('tutor', w, text.body.id, { granted: true })).status, 404);
  assert.is((await assess('tutor', w, 999999, { granted: true })).status, 404);
  assert.is((await assess('tutor', w, 99999999999, { granted: true })).status, 404);
  assert.is((await assess('tutor', w, asked.body.id, {})).status, 400);
});

test('the limit with extension blocks: limit + granted attempts, each grant one more block', async () => {
  const w = await world({ scorm_attempt_limit: 1 });
  assert.is(await fail(w), 201);
  assert.is(await fail(w), 400);
  const first = await ask('student', w);
  await assess('convenor', w, first.body.id, { granted: true });
  assert.is(await fail(w), 201);
  assert.is(await fail(w), 400);
  const second = await ask('student', w);
  await assess('convenor', w, second.body.id, { granted: true });
  assert.is(await extraAttempts(w), 2);
  assert.is(await fail(w), 201);
  assert.is(await fail(w), 400);
  // The comments list shows both kinds with their own fields.
  const listed = (await comments('student', w)).body as { type: string; test_attempt?: unknown; scorm_extensions?: number }[];
  assert.is(listed.filter((c) => c.type === 'scorm').length, 3);
  assert.ok(listed.filter((c) => c.type === 'scorm').every((c) => c.test_attempt));
  assert.equal(
    listed.filter((c) => c.type === 'scorm_extension').map((c) => c.scorm_extensions),
    [2, 2],
  );
});

test.run();
