// The test-attempt routes (docs/online-tests.md, "Attempts", "Trust", "passing") as the newer web
// client calls them: start, commit, resume, end, review, override and delete, with every role
// rule, bad data models, the limits, the time delay, the pass status and the upload's gate.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type Actor, type People } from '../support/fixtures.ts';
import { api, rawRequest, type TestResponse } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { raceOnTask } from '../support/race-on-task.ts';
import { attemptsUrl, credsOf, scormWorld, setScorm } from '../support/scorm-world.ts';
import { anotherStudent, anotherTutor, outsideTutor, taskWorld, type TaskWorld } from '../support/task-world.ts';
import { Unit } from '../../schema/index.ts';
import { LTI_SCOPES } from '../../src/operations/lti/service-token.ts';

const test = suite('REST test attempts');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const NOW = '2026-03-10T09:00:00Z';
type Who = keyof People | Actor;

async function world(settings: Parameters<typeof scormWorld>[2] = {}): Promise<TaskWorld> {
  await travelTo(env, people, NOW);
  return scormWorld(env, people, settings);
}

const start = (as: Who, w: TaskWorld) => api(env, 'POST', attemptsUrl(w), { as: credsOf(people, as) });
const list = (as: Who, w: TaskWorld) => api(env, 'GET', attemptsUrl(w), { as: credsOf(people, as) });
const latest = (as: Who, w: TaskWorld, completed?: boolean) =>
  api(env, 'GET', `${attemptsUrl(w)}/latest${completed === undefined ? '' : `?completed=${completed}`}`, { as: credsOf(people, as) });
const patch = (as: Who, id: number, json?: unknown, query = '') =>
  api(env, 'PATCH', `/api/test_attempts/${id}${query}`, { as: credsOf(people, as), hyphenHeader: true, ...(json !== undefined && { json }) });
const commit = (as: Who, id: number, elements: Record<string, unknown>, terminated?: boolean) =>
  patch(as, id, { cmi_datamodel: JSON.stringify(elements), ...(terminated !== undefined && { terminated }) });
const review = (as: Who, id: number) => api(env, 'GET', `/api/test_attempts/${id}/review`, { as: credsOf(people, as) });
const remove = (as: Who, id: number) => api(env, 'DELETE', `/api/test_attempts/${id}`, { as: credsOf(people, as) });

const model = (res: TestResponse) => JSON.parse(res.body.cmi_datamodel) as Record<string, string>;

/** A finished attempt as a Numbas package reports it. */
const finished = (success: 'passed' | 'failed', scaled: string, extra: Record<string, string> = {}) => ({
  'cmi.completion_status': 'completed',
  'cmi.success_status': success,
  'cmi.score.scaled': scaled,
  'cmi.score.raw': String(Number(scaled) * 10),
  'cmi.score.min': '0',
  'cmi.score.max': '10',
  'cmi.exit': 'normal',
  'cmi.session_time': 'PT2M13.5S',
  ...extra,
});

/** Starts an attempt and ends it with this result; answers the ended attempt. */
async function takeTest(w: TaskWorld, success: 'passed' | 'failed', scaled = success === 'passed' ? '1' : '0.2'): Promise<TestResponse> {
  const started = await start('student', w);
  assert.is(started.status, 201, JSON.stringify(started.body));
  const ended = await commit('student', started.body.id, finished(success, scaled), true);
  assert.is(ended.status, 200, JSON.stringify(ended.body));
  return ended;
}

const k = () => db(env.orm.em.fork());
const attemptRows = (w: TaskWorld) =>
  k()
    .selectFrom('test_attempts as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .selectAll('a')
    .where('t.project_id', '=', w.project)
    .where('t.task_definition_id', '=', w.td)
    .orderBy('a.id')
    .execute();
const scormComments = () => k().selectFrom('task_comments').selectAll().where('kind', '=', 'scorm').orderBy('id').execute();
const taskStatus = async (w: TaskWorld) =>
  (await k().selectFrom('tasks').select('status').where('project_id', '=', w.project).where('task_definition_id', '=', w.td).executeTakeFirst())?.status;

// ---- starting ---------------------------------------------------------------------------------

test('POST: the student starts an attempt (201) whose data model starts as SCORM 2004 requires, in the original entity shape', async () => {
  const w = await world();
  await k().updateTable('users').set({ student_id: 's1234567', first_name: 'Ann', last_name: 'Lee' }).where('id', '=', people.student.user.id).execute();
  const res = await start('student', w);
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), [
    'attempted_time',
    'cmi_datamodel',
    'completion_status',
    'id',
    'score_scaled',
    'success_status',
    'task_id',
    'terminated',
  ]);
  assert.type(res.body.cmi_datamodel, 'string');
  assert.equal(
    { ...res.body, cmi_datamodel: undefined },
    {
      id: res.body.id,
      task_id: res.body.task_id,
      attempted_time: '2026-03-10T09:00:00.000Z',
      terminated: false,
      success_status: false,
      score_scaled: null,
      completion_status: false,
      cmi_datamodel: undefined,
    },
  );
  assert.equal(model(res), {
    'cmi.completion_status': 'not attempted',
    'cmi.entry': 'ab-initio',
    'cmi.mode': 'normal',
    'cmi.learner_id': 's1234567',
    'cmi.learner_name': 'Ann Lee',
    'cmi.comments_from_learner._count': '0',
    'cmi.comments_from_lms._count': '0',
    'cmi.interactions._count': '0',
    'cmi.objectives._count': '0',
  });
  const [row] = await attemptRows(w);
  assert.is(row.id, res.body.id);
});

test('POST: the learner id is the username when the student has no student id', async () => {
  const w = await world();
  await k().updateTable('users').set({ student_id: null }).where('id', '=', people.student.user.id).execute();
  assert.is(model(await start('student', w))['cmi.learner_id'], people.student.user.username);
});

test("POST: only the task's student, and only while the test is enabled (403); unknown project or definition 404", async () => {
  const w = await world();
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['tutor', 'convenor', 'admin', other.actor, await outsideTutor(env)] as Who[]) {
    const res = await start(who, w);
    assert.is(res.status, 403, String(typeof who === 'string' ? who : who.user.username));
    assert.equal(res.body, { error: 'Not authorised to make a scorm attempt for this task' });
  }
  // Another student's own project does not reach this one.
  assert.is((await api(env, 'POST', attemptsUrl({ project: w.project, td: w.td }), { as: other.actor.creds })).status, 403);
  await setScorm(env, w.td, { scorm_enabled: false });
  const off = await start('student', w);
  assert.is(off.status, 403);
  assert.match(off.body.error, 'no online test');
  assert.is((await api(env, 'POST', attemptsUrl({ project: 999999, td: w.td }), { as: people.student.creds })).status, 404);
  assert.is((await api(env, 'POST', attemptsUrl({ project: w.project, td: 999999 }), { as: people.student.creds })).status, 404);
  assert.equal(await attemptRows(w), []);
});

test('POST: refused (400) while the last attempt is open, and once the last attempt passed', async () => {
  const w = await world();
  const first = await start('student', w);
  const again = await start('student', w);
  assert.is(again.status, 400);
  assert.equal(again.body, { error: 'An attempt is still ongoing. Cannot initiate new attempt.' });
  await commit('student', first.body.id, finished('passed', '0.9'), true);
  const passed = await start('student', w);
  assert.is(passed.status, 400);
  assert.equal(passed.body, { error: 'User has passed the SCORM test. Cannot initiate more attempts.' });
  assert.is((await attemptRows(w)).length, 1);
});

test('POST: the attempt limit counts every attempt (400 once used); 0 is unlimited', async () => {
  const w = await world({ scorm_attempt_limit: 2 });
  await takeTest(w, 'failed');
  await takeTest(w, 'failed');
  const third = await start('student', w);
  assert.is(third.status, 400);
  assert.equal(third.body, { error: 'Attempt limit has been reached' });
  await setScorm(env, w.td, { scorm_attempt_limit: 0 });
  assert.is((await start('student', w)).status, 201);
});

test('POST: two starts at once make one attempt; the others are refused as ongoing', async () => {
  const w = await world();
  await takeTest(w, 'failed');
  const task = await k().selectFrom('tasks').select('id').where('project_id', '=', w.project).executeTakeFirstOrThrow();
  // Each request waits on the task's row, then all go together.
  const results = await raceOnTask(env, task.id, [() => start('student', w), () => start('student', w), () => start('student', w)]);
  assert.equal(results.map((r) => r.status).sort(), [201, 400, 400]);
  assert.is((await attemptRows(w)).length, 2);
});

test('POST: two first starts at once, before the task exists, also make one attempt', async () => {
  const w = await world();
  const results = await Promise.all([start('student', w), start('student', w)]);
  assert.equal(results.map((r) => r.status).sort(), [201, 400]);
  assert.is((await attemptRows(w)).length, 1);
});

// ---- reading ----------------------------------------------------------------------------------

test('GET list and latest: newest first, for the student and staff; 403 for anyone else; none yet: [] and 404', async () => {
  const w = await world();
  assert.equal((await list('student', w)).body, []);
  const none = await latest('student', w);
  assert.is(none.status, 404);
  assert.equal(none.body, { error: 'No tests found for this task' });

  const first = await takeTest(w, 'failed');
  const second = await start('student', w);
  for (const who of ['student', 'tutor', 'convenor'] as const) {
    const all = await list(who, w);
    assert.is(all.status, 200, who);
    assert.equal(
      all.body.map((a: { id: number }) => a.id),
      [second.body.id, first.body.id],
    );
    assert.is((await latest(who, w)).body.id, second.body.id);
    const done = await latest(who, w, true);
    assert.is(done.body.id, first.body.id);
    assert.is(done.body.completion_status, true);
    assert.is((await latest(who, w, false)).body.id, second.body.id);
  }
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['admin', other.actor, await outsideTutor(env)] as Who[]) {
    assert.is((await list(who, w)).status, 403);
    assert.equal((await latest(who, w)).body, { error: 'Not authorized to get latest scorm attempt for task' });
  }
});

// ---- committing and resuming ----------------------------------------------------------------

test('PATCH: the student commits the data model; it is merged, the columns follow it, and an incomplete attempt resumes', async () => {
  const w = await world();
  const { body } = await start('student', w);
  const res = await commit('student', body.id, {
    ...JSON.parse(body.cmi_datamodel),
    'cmi.completion_status': 'incomplete',
    'cmi.location': 'q2',
    'cmi.suspend_data': '{"answers":[1,2]}',
    'cmi.score.scaled': '0.5',
    'cmi.interactions.0.id': 'q1',
    'cmi.interactions.0.type': 'choice',
    'cmi.interactions.0.learner_response': 'a',
    'cmi.interactions.0.result': 'correct',
    // The newer web client counts interactions itself, as numbers: the service's count wins.
    'cmi.interactions._count': 7,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.completion_status, false);
  assert.is(res.body.score_scaled, 0.5);
  assert.is(res.body.terminated, false);
  const dm = model(res);
  assert.is(dm['cmi.entry'], 'resume');
  assert.is(dm['cmi.interactions._count'], '1');
  assert.is(dm['cmi.interactions.0.objectives._count'], '0');
  assert.is(dm['cmi.location'], 'q2');
  // A partial commit keeps what it leaves out.
  const more = await commit('student', body.id, { 'cmi.location': 'q3' });
  assert.is(model(more)['cmi.suspend_data'], '{"answers":[1,2]}');
  assert.is(model(more)['cmi.location'], 'q3');
  const [row] = await attemptRows(w);
  assert.is((row.cmi_datamodel as Record<string, string>)['cmi.location'], 'q3');
});

test("PATCH with no fields (the player's resume) answers the attempt unchanged, with or without a JSON body", async () => {
  const w = await world();
  const { body } = await start('student', w);
  await commit('student', body.id, { 'cmi.completion_status': 'incomplete', 'cmi.suspend_data': 'page=3' });
  const before = await attemptRows(w);
  const bare = await rawRequest(env, 'PATCH', `/api/test_attempts/${body.id}`, undefined, '', people.student.creds);
  assert.is(bare.status, 200);
  assert.is(JSON.parse(bare.body.cmi_datamodel)['cmi.suspend_data'], 'page=3');
  assert.is(JSON.parse(bare.body.cmi_datamodel)['cmi.entry'], 'resume');
  const empty = await patch('student', body.id, {});
  assert.is(empty.status, 200);
  assert.equal(empty.body, bare.body);
  assert.equal(await attemptRows(w), before);
});

test('PATCH: only the student commits (staff and others 403); unknown attempt 404', async () => {
  const w = await world();
  const { body } = await start('student', w);
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['tutor', 'convenor', 'admin', other.actor, await outsideTutor(env)] as Who[]) {
    const res = await commit(who, body.id, { 'cmi.location': 'x' });
    assert.is(res.status, 403);
    assert.equal(res.body, { error: 'Not authorised to update this scorm attempt' });
  }
  assert.is((await commit('student', 999999, { 'cmi.location': 'x' })).status, 404);
  assert.is(model(await patch('student', body.id))['cmi.location'], undefined);
});

test('PATCH: a data model that is not valid SCORM 2004 gets 400 naming the element, and nothing is written', async () => {
  const w = await world();
  const { body } = await start('student', w);
  const before = await attemptRows(w);
  const cases: [unknown, string | RegExp][] = [
    ['{"cmi.location": ', /not valid JSON/],
    ['[1,2]', /JSON object/],
    [JSON.stringify({ 'cmi.core.lesson_status': 'passed' }), 'cmi.core.lesson_status is not an element of the SCORM 2004 data model.'],
    [JSON.stringify({ 'cmi.score.scaled': '1.5' }), 'cmi.score.scaled must be a real number in [-1, 1].'],
    [JSON.stringify({ 'cmi.score.scaled': 'high' }), /^cmi\.score\.scaled must be a real number/],
    [JSON.stringify({ 'cmi.progress_measure': '-0.1' }), /^cmi\.progress_measure /],
    [JSON.stringify({ 'cmi.completion_status': 'done' }), /^cmi\.completion_status must be one of completed, incomplete/],
    [JSON.stringify({ 'cmi.success_status': 'passed!' }), /^cmi\.success_status must be one of passed, failed, unknown/],
    [JSON.stringify({ 'cmi.learner_id': 'someone-else' }), 'cmi.learner_id is read-only: the package may not set it.'],
    [JSON.stringify({ 'cmi.mode': 'review' }), 'cmi.mode is read-only: the package may not set it.'],
    [JSON.stringify({ 'cmi.credit': 'no-credit' }), /^cmi\.credit is read-only/],
    [JSON.stringify({ 'cmi.interactions.0.type': 'choice' }), "cmi.interactions.0.id must be set before the record's other elements."],
    [JSON.stringify({ 'cmi.interactions.1.id': 'q2' }), /^cmi\.interactions\.0 is missing/],
    [JSON.stringify({ 'cmi.interactions.0.id': 'q1', 'cmi.interactions.0.type': 'essay' }), /^cmi\.interactions\.0\.type must be one of true-false/],
    [JSON.stringify({ 'cmi.session_time': '2 minutes' }), /^cmi\.session_time must be a duration/],
    [JSON.stringify({ 'cmi.location': null }), /^cmi\.location: a SCORM value is a string/],
    [JSON.stringify({ 'cmi.suspend_data': 'x'.repeat(64001) }), 'cmi.suspend_data is longer than 64000 characters.'],
  ];
  for (const [text, error] of cases) {
    const res = await patch('student', body.id, { cmi_datamodel: text, terminated: true });
    assert.is(res.status, 400, String(text).slice(0, 60));
    if (typeof error === 'string') assert.is(res.body.error, error);
    else assert.match(res.body.error, error);
  }
  const notString = await patch('student', body.id, { cmi_datamodel: { 'cmi.location': 'x' } });
  assert.is(notString.status, 400);
  assert.match(notString.body.error, 'cmi_datamodel');
  assert.equal(await attemptRows(w), before);
  assert.equal(await scormComments(), []);
});

test('PATCH: a data model above the cap gets 413; the attempt is unchanged', async () => {
  const w = await world();
  const { body } = await start('student', w);
  const many: Record<string, string> = { 'cmi.suspend_data': 'z'.repeat(64000) };
  for (let i = 0; i < 60; i++) {
    many[`cmi.interactions.${i}.id`] = `q${i}`;
    many[`cmi.interactions.${i}.learner_response`] = 'r'.repeat(3500);
  }
  const res = await commit('student', body.id, many);
  assert.is(res.status, 413);
  assert.match(res.body.error, 'larger than');
  assert.is(model(await patch('student', body.id))['cmi.suspend_data'], undefined);
});

// ---- ending -----------------------------------------------------------------------------------

test('PATCH terminated: the attempt ends and a scorm comment states the result, carrying test_attempt {id, success_status}', async () => {
  const w = await world();
  const cases: [Record<string, string>, string, boolean][] = [
    [finished('passed', '1'), 'Passed without mistakes', true],
    [finished('passed', '0.8'), 'Passed', true],
    [finished('failed', '0.3'), 'Unsuccessful', false],
  ];
  for (const [elements, text, passed] of cases) {
    await k().deleteFrom('test_attempts').execute();
    const { body } = await start('student', w);
    const res = await commit('student', body.id, elements, true);
    assert.is(res.status, 200);
    assert.is(res.body.terminated, true);
    assert.is(res.body.success_status, passed);
    assert.is(res.body.completion_status, true);
    const [comment] = await scormComments();
    assert.is(comment.comment, text);
    assert.is(comment.test_attempt_id, body.id);
    assert.is(comment.author_id, people.tutor.user.id);
    assert.is(comment.recipient_id, people.student.user.id);
    const listed = await api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds });
    const shown = listed.body.find((c: { type: string }) => c.type === 'scorm');
    assert.equal(shown.test_attempt, { id: body.id, success_status: passed });
    assert.is(shown.comment, text);
  }
});

test('"Passed without mistakes" also without a score when every interaction is correct', async () => {
  const w = await world();
  const { body } = await start('student', w);
  await commit(
    'student',
    body.id,
    {
      'cmi.completion_status': 'completed',
      'cmi.success_status': 'passed',
      'cmi.interactions.0.id': 'q1',
      'cmi.interactions.0.result': 'correct',
      'cmi.interactions.1.id': 'q2',
      'cmi.interactions.1.result': 'correct',
    },
    true,
  );
  assert.is((await scormComments())[0].comment, 'Passed without mistakes');
});

test('an ended attempt never changes again: commits and ends are refused (400), its comment stays one', async () => {
  const w = await world();
  const ended = await takeTest(w, 'failed');
  const before = await attemptRows(w);
  for (const json of [{ cmi_datamodel: JSON.stringify({ 'cmi.success_status': 'passed' }) }, { terminated: true }, { cmi_datamodel: '{}', terminated: true }]) {
    const res = await patch('student', ended.body.id, json);
    assert.is(res.status, 400);
    assert.equal(res.body, { error: 'This attempt has ended: its data can no longer change.' });
  }
  assert.equal(await attemptRows(w), before);
  assert.is((await scormComments()).length, 1);
  // The resume call still answers it.
  assert.is((await patch('student', ended.body.id)).body.success_status, false);
});

test('an end of an incomplete attempt with cmi.exit "suspend" ends the session only: the attempt stays open to resume, with no comment', async () => {
  const w = await world();
  const { body } = await start('student', w);
  const res = await commit('student', body.id, { 'cmi.completion_status': 'incomplete', 'cmi.exit': 'suspend', 'cmi.suspend_data': 'q=4' }, true);
  assert.is(res.status, 200);
  assert.is(res.body.terminated, false);
  assert.is(model(res)['cmi.entry'], 'resume');
  assert.equal(await scormComments(), []);
  const resumed = await latest('student', w);
  assert.is(resumed.body.id, body.id);
  assert.is(model(await patch('student', body.id))['cmi.suspend_data'], 'q=4');
  // Numbas keeps cmi.exit "suspend" to the end: a completed attempt ends whatever its exit says.
  const done = await commit('student', body.id, { ...finished('passed', '0.9'), 'cmi.exit': 'suspend' }, true);
  assert.is(done.body.terminated, true);
  assert.is((await scormComments())[0].comment, 'Passed');
});

// ---- overriding -------------------------------------------------------------------------------

test('override: staff send success_status in the query string with an empty JSON body; the comment is rewritten and the override recorded', async () => {
  const w = await world();
  const ended = await takeTest(w, 'failed', '0.4');
  const res = await patch('tutor', ended.body.id, {}, '?success_status=true');
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.success_status, true);
  assert.is(model(res)['cmi.success_status'], 'passed');
  const [comment] = await scormComments();
  assert.is(comment.comment, 'Passed');
  const [row] = await attemptRows(w);
  assert.is(row.success_overridden_by_id, people.tutor.user.id);
  assert.ok(row.success_overridden_at);
  // The convenor changes it back, in the body this time.
  const back = await patch('convenor', ended.body.id, { success_status: false });
  assert.is(back.body.success_status, false);
  assert.is((await scormComments())[0].comment, 'Unsuccessful');
  assert.is((await attemptRows(w))[0].success_overridden_by_id, people.convenor.user.id);
  assert.is((await scormComments()).length, 1);
});

test('override: the student and anyone outside the staff are refused (403); it goes alone (400); an open attempt is ended by it', async () => {
  const w = await world();
  const ended = await takeTest(w, 'failed');
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['student', 'admin', other.actor, await outsideTutor(env)] as Who[]) {
    const res = await patch(who, ended.body.id, {}, '?success_status=true');
    assert.is(res.status, 403);
    assert.equal(res.body, { error: 'Not authorised to override the success status of this scorm attempt' });
  }
  assert.is((await attemptRows(w))[0].success_status, false);
  const mixed = await patch('tutor', ended.body.id, { success_status: true, cmi_datamodel: '{}' });
  assert.is(mixed.status, 400);
  assert.is((await patch('tutor', 999999, {}, '?success_status=true')).status, 404);

  await setScorm(env, w.td, { scorm_attempt_limit: 0 });
  const open = await start('student', w);
  const closed = await patch('tutor', open.body.id, { success_status: 'true' });
  assert.is(closed.body.terminated, true);
  assert.is(closed.body.success_status, true);
  assert.is((await scormComments()).length, 2);
});

// ---- reviewing --------------------------------------------------------------------------------

test('review: the student only where review is allowed and the attempt ended completed; staff any; others 403; cmi.mode "review" is not stored', async () => {
  const w = await world();
  const { body } = await start('student', w);
  const refused = await review('student', body.id);
  assert.is(refused.status, 403);
  assert.match(refused.body.error, 'does not allow');
  await setScorm(env, w.td, { scorm_allow_review: true });
  const open = await review('student', body.id);
  assert.is(open.status, 403);
  assert.equal(open.body, { error: 'Cannot review incomplete attempts!' });
  // Staff may look at an attempt in progress.
  const tutorView = await review('tutor', body.id);
  assert.is(tutorView.status, 200);
  assert.is(model(tutorView)['cmi.mode'], 'review');

  await commit('student', body.id, finished('failed', '0.1'), true);
  for (const who of ['student', 'tutor', 'convenor'] as const) {
    const res = await review(who, body.id);
    assert.is(res.status, 200, who);
    assert.is(model(res)['cmi.mode'], 'review');
    assert.is(model(res)['cmi.score.scaled'], '0.1');
  }
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['admin', other.actor, await outsideTutor(env)] as Who[]) {
    assert.equal((await review(who, body.id)).body, { error: 'Not authorised to review this scorm attempt' });
  }
  assert.is((await review('tutor', 999999)).status, 404);
  assert.is(((await attemptRows(w))[0].cmi_datamodel as Record<string, string>)['cmi.mode'], 'normal');
});

// ---- deleting ---------------------------------------------------------------------------------

test('delete: staff only; the attempt and its comment go, and it no longer counts towards the limit', async () => {
  const w = await world({ scorm_attempt_limit: 1 });
  const ended = await takeTest(w, 'failed');
  assert.is((await start('student', w)).status, 400);
  const other = await anotherStudent(env, w, 'bstudent');
  for (const who of ['student', 'admin', other.actor, await outsideTutor(env)] as Who[]) {
    const res = await remove(who, ended.body.id);
    assert.is(res.status, 403);
    assert.equal(res.body, { error: 'Not authorised to delete this scorm attempt' });
  }
  const gone = await remove('tutor', ended.body.id);
  assert.is(gone.status, 200);
  assert.is(gone.body.id, ended.body.id);
  assert.equal(await attemptRows(w), []);
  assert.equal(await scormComments(), []);
  assert.is((await remove('tutor', ended.body.id)).status, 404);
  // An id no row can have (beyond PostgreSQL's integer) is unknown too, not a failure.
  for (const url of ['/api/test_attempts/99999999999', '/api/test_attempts/99999999999/review']) {
    assert.is((await api(env, url.endsWith('review') ? 'GET' : 'DELETE', url, { as: people.tutor.creds })).status, 404, url);
  }
  assert.is((await patch('student', 99999999999)).status, 404);
  assert.is((await start('student', w)).status, 201);
  const convenorOne = await remove('convenor', (await latest('student', w)).body.id);
  assert.is(convenorOne.status, 200);
});

// ---- trust ------------------------------------------------------------------------------------

test("staff trust: the package's pass is recorded but does not count until staff confirm it; meanwhile no new attempt", async () => {
  const w = await world({ scorm_trust: 'staff', scorm_bypass_test: false });
  const ended = await takeTest(w, 'passed', '1');
  assert.is(ended.body.success_status, false);
  assert.is(model(ended)['cmi.success_status'], 'passed');
  assert.is((await scormComments())[0].comment, 'Passed, as reported by the test: awaiting staff confirmation');
  assert.is((await start('student', w)).status, 400);
  const upload = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/submission`, { as: people.student.creds, multipart: {} });
  assert.is(upload.status, 403);

  const confirmed = await patch('tutor', ended.body.id, {}, '?success_status=true');
  assert.is(confirmed.body.success_status, true);
  assert.is((await scormComments())[0].comment, 'Passed without mistakes');

  // A reported pass staff refuse lets the student try again.
  await setScorm(env, w.td, { scorm_attempt_limit: 0 });
  await patch('tutor', ended.body.id, { success_status: false });
  assert.is((await start('student', w)).status, 201);
});

test('staff trust: a reported failure needs no confirmation', async () => {
  const w = await world({ scorm_trust: 'staff' });
  await takeTest(w, 'failed');
  assert.is((await scormComments())[0].comment, 'Unsuccessful');
  assert.is((await start('student', w)).status, 201);
});

// ---- passing moves the task -------------------------------------------------------------------

const statusComments = () => k().selectFrom('task_comments').select(['task_status', 'author_id']).where('kind', '=', 'status').orderBy('id').execute();

test("pass status: a pass on the package's word moves the task as the student's own change; off, nothing moves", async () => {
  const w = await world({ scorm_pass_status: 'ready_for_feedback' });
  await takeTest(w, 'failed');
  assert.is(await taskStatus(w), 'not_started');
  await takeTest(w, 'passed');
  assert.is(await taskStatus(w), 'ready_for_feedback');
  assert.equal(await statusComments(), [{ task_status: 'ready_for_feedback', author_id: people.student.user.id }]);

  const off = await scormWorldAgain({});
  await takeTest(off, 'passed');
  assert.is(await taskStatus(off), 'not_started');
});

/** A second unit's world for the same people (another code). */
async function scormWorldAgain(settings: Parameters<typeof scormWorld>[2]): Promise<TaskWorld> {
  const w = await taskWorld(env, people, {}, {}, 'SIT202');
  await setScorm(env, w.td, { scorm_enabled: true, scorm_bypass_test: true, ...settings });
  return w;
}

test("pass status: a staff status waits for staff: under package trust the student's pass does not reach it; an override does", async () => {
  const w = await world({ scorm_pass_status: 'complete', scorm_trust: 'staff' });
  const ended = await takeTest(w, 'passed');
  assert.is(await taskStatus(w), 'not_started');
  await patch('tutor', ended.body.id, {}, '?success_status=true');
  assert.is(await taskStatus(w), 'complete');
  assert.equal(await statusComments(), [{ task_status: 'complete', author_id: people.tutor.user.id }]);

  const pkg = await scormWorldAgain({ scorm_pass_status: 'complete' });
  await takeTest(pkg, 'passed');
  assert.is(await taskStatus(pkg), 'not_started');
});

test("pass status: the unit's enforced feedback holds for an override's move (400 and nothing written without a comment)", async () => {
  const w = await world({ scorm_pass_status: 'discuss', scorm_trust: 'staff' });
  await env.orm.em.fork().nativeUpdate(Unit, { id: w.unit }, { requireFeedbackComment: true });
  const ended = await takeTest(w, 'passed');
  const refused = await patch('tutor', ended.body.id, {}, '?success_status=true');
  assert.is(refused.status, 400);
  assert.match(refused.body.error, 'requires a feedback comment');
  assert.is((await attemptRows(w))[0].success_status, false);
  assert.is((await scormComments())[0].comment, 'Passed, as reported by the test: awaiting staff confirmation');
  assert.is(await taskStatus(w), 'not_started');

  const res = await patch('tutor', ended.body.id, { success_status: true, comment: 'Well done: come and talk it through.' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(await taskStatus(w), 'discuss');
  const feedback = await k().selectFrom('task_comments').select('comment').where('kind', '=', 'text').execute();
  assert.equal(feedback, [{ comment: 'Well done: come and talk it through.' }]);
  // The student may not send one (it is the feedback of an override).
  assert.is((await patch('student', ended.body.id, { comment: 'hi' })).status, 400);
});

test('pass status: the move queues the LMS grade passback, as any status change does', async () => {
  const w = await world({ scorm_pass_status: 'complete', scorm_trust: 'staff' });
  const platform = await api(env, 'POST', '/api/lti/platforms', {
    as: people.admin.creds,
    json: {
      name: 'LMS',
      issuer: 'https://lms.example.edu',
      client_id: 'tool-1',
      auth_login_url: 'https://lms.example.edu/auth',
      auth_token_url: 'https://lms.example.edu/token',
      jwks_url: 'https://lms.example.edu/jwks',
      deployment_ids: ['d1'],
    },
  });
  assert.is(platform.status, 201, platform.text);
  const at = env.clock.now().toISOString();
  const context = await k()
    .insertInto('lti_contexts')
    .values({
      platform_id: platform.body.id,
      context_id: 'course-1',
      deployment_id: 'd1',
      title: 'Course',
      unit_id: w.unit,
      lineitems_url: 'https://lms.example.edu/lineitems',
      ags_scopes: [LTI_SCOPES.score],
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k()
    .insertInto('lti_resource_links')
    .values({
      context_id: context.id,
      resource_link_id: 'link-1',
      task_definition_id: w.td,
      lineitem_url: 'https://lms.example.edu/lineitems/1',
      created_at: at,
      updated_at: at,
    })
    .execute();
  const ended = await takeTest(w, 'passed');
  assert.equal(await k().selectFrom('lti_score_passbacks').select('state').execute(), []);
  await patch('tutor', ended.body.id, {}, '?success_status=true');
  assert.is(await taskStatus(w), 'complete');
  assert.equal(await k().selectFrom('lti_score_passbacks').select(['state', 'lineitem_url']).execute(), [
    { state: 'pending', lineitem_url: 'https://lms.example.edu/lineitems/1' },
  ]);
});

test('pass status: ready for feedback on a definition that wants uploads is left to the upload', async () => {
  const w = await world({ scorm_pass_status: 'ready_for_feedback' });
  await k()
    .updateTable('task_definitions')
    .set({ upload_requirements: JSON.stringify([{ key: 'file0', name: 'Report', type: 'document' }]) } as never)
    .where('id', '=', w.td)
    .execute();
  await takeTest(w, 'passed');
  assert.is(await taskStatus(w), 'not_started');
});

// ---- the time delay ---------------------------------------------------------------------------

test('time delay: the first two attempts start at once, then 5 minutes before the third, 10 before the fourth (429 with Retry-After)', async () => {
  const w = await world({ scorm_time_delay_enabled: true });
  await takeTest(w, 'failed');
  await takeTest(w, 'failed');
  const early = await start('student', w);
  assert.is(early.status, 429);
  assert.is(early.headers['retry-after'], '300');
  assert.is(early.body.error, 'The next attempt may start at 2026-03-10T09:05:00.000Z: each further attempt waits longer after the last one ended.');
  await travelTo(env, people, '2026-03-10T09:04:59Z');
  assert.is((await start('student', w)).status, 429);
  await travelTo(env, people, '2026-03-10T09:05:00Z');
  const third = await start('student', w);
  assert.is(third.status, 201);
  await commit('student', third.body.id, finished('failed', '0'), true);
  const fourth = await start('student', w);
  assert.is(fourth.status, 429);
  assert.is(fourth.headers['retry-after'], '600');
  await setScorm(env, w.td, { scorm_time_delay_enabled: false });
  assert.is((await start('student', w)).status, 201);
});

// ---- the upload's gate ------------------------------------------------------------------------

const upload = (as: Who, w: TaskWorld) =>
  api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/submission`, { as: credsOf(people, as), multipart: { trigger: 'ready_for_feedback' } });

test('bypass off: the student cannot upload until an attempt passed (403 saying so); staff can; bypass on lets the student', async () => {
  const w = await world({ scorm_bypass_test: false });
  const refused = await upload('student', w);
  assert.is(refused.status, 403);
  assert.equal(refused.body, { error: "Pass this task's online test before uploading your work." });
  await takeTest(w, 'failed');
  assert.is((await upload('student', w)).status, 403);
  assert.is((await upload('tutor', w)).status, 201);
  await setScorm(env, w.td, { scorm_attempt_limit: 0 });
  await takeTest(w, 'passed');
  assert.is((await upload('student', w)).status, 201);

  const open = await scormWorldAgain({ scorm_bypass_test: true });
  assert.is((await upload('student', open)).status, 201);
  const noTest = await scormWorldAgain({ scorm_enabled: false, scorm_bypass_test: false });
  assert.is((await upload('student', noTest)).status, 201);
});

test("a tutor of the unit who is not the student's tutor is staff too", async () => {
  const w = await world();
  const second = await anotherTutor(env, w, 'btutor');
  const ended = await takeTest(w, 'failed');
  assert.is((await list(second, w)).status, 200);
  assert.is((await review(second, ended.body.id)).status, 200);
  assert.is((await patch(second, ended.body.id, {}, '?success_status=true')).status, 200);
});

test.run();
