import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import { signedIn, travelTo, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { raceOnTask } from '../support/race-on-task.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedGroup, seedMembership, seedTask, seedTaskDefinition, seedTutorial } from '../support/seed-enrolments.ts';
import { db } from '../../src/db/kysely.ts';

const test = suite('REST PUT /api/projects/{id}/task_def_id/{td}');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world(extra: Parameters<typeof seedTaskDefinition>[3] = {}) {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'P1', extra);
  return { unit, project, td };
}

const put = (who: keyof People, project: number, td: number, json: Record<string, unknown>) =>
  api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: people[who].creds, json });

test('the student hands work in on time, the tutor marks it complete: statuses, dates, comments and stats', async () => {
  const { project, td } = await world();
  await travelTo(env, people, '2026-03-02T09:00:00Z');
  const rff = await put('student', project, td, { trigger: 'rff' });
  assert.is(rff.status, 200);
  assert.is(rff.body.status, 'ready_for_feedback');
  assert.is(rff.body.submission_date, '2026-03-02');
  assert.is(rff.body.due_date, '2026-03-16');
  assert.is(rff.body.times_assessed, 0);
  assert.equal(JSON.parse(rff.body.new_stats).blue_pct, 1);
  await travelTo(env, people, '2026-03-02T10:00:00Z');
  const done = await put('tutor', project, td, { trigger: 'complete', grade: null, quality_pts: -1 });
  assert.is(done.status, 200);
  assert.is(done.body.status, 'complete');
  assert.is(done.body.completion_date, '2026-03-02');
  assert.is(done.body.times_assessed, 1);
  assert.equal(JSON.parse(done.body.new_stats).green_pct, 1);
  const comments = await db(env.orm.em.fork()).selectFrom('task_comments').select(['kind', 'task_status']).orderBy('id').execute();
  assert.equal(comments, [
    { kind: 'status', task_status: 'ready_for_feedback' },
    { kind: 'status', task_status: 'complete' },
  ]);
});

test('late work (after the due day ends anywhere on earth) is time exceeded with a fail grade when graded', async () => {
  const { project, td } = await world({ isGraded: true, targetDate: '2026-03-01' });
  await travelTo(env, people, '2026-03-02T11:59:59Z');
  const onTime = await put('student', project, td, { trigger: 'ready_for_feedback' });
  assert.is(onTime.body.status, 'ready_for_feedback');
  await travelTo(env, people, '2026-03-02T12:00:01Z');
  await put('student', project, td, { trigger: 'working_on_it' });
  const late = await put('student', project, td, { trigger: 'ready_for_feedback' });
  assert.is(late.body.status, 'time_exceeded');
  assert.is(late.body.grade, -1);
});

test('a student cannot assess: the status stays (200, silent, as in the original)', async () => {
  const { project, td } = await world();
  const res = await put('student', project, td, { trigger: 'complete' });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'not_started');
});

// ---- Every status and alias ---------------------------------------------------------------------

// behaviour.md §4.1, spelled out here.
const ALIASES: [string, TaskStatus][] = [
  ['complete', 'complete'],
  ['fix_and_resubmit', 'fix_and_resubmit'],
  ['fix and resubmit', 'fix_and_resubmit'],
  ['fix', 'fix_and_resubmit'],
  ['f', 'fix_and_resubmit'],
  ['do_not_resubmit', 'feedback_exceeded'],
  ['do not resubmit', 'feedback_exceeded'],
  ['feedback_exceeded', 'feedback_exceeded'],
  ['feedback exceeded', 'feedback_exceeded'],
  ['redo', 'redo'],
  ['need_help', 'need_help'],
  ['need help', 'need_help'],
  ['working_on_it', 'working_on_it'],
  ['working on it', 'working_on_it'],
  ['discuss', 'discuss'],
  ['d', 'discuss'],
  ['demonstrate', 'demonstrate'],
  ['demo', 'demonstrate'],
  ['ready for feedback', 'ready_for_feedback'],
  ['ready_for_feedback', 'ready_for_feedback'],
  ['ready to mark', 'ready_for_feedback'],
  ['ready_to_mark', 'ready_for_feedback'],
  ['rtm', 'ready_for_feedback'],
  ['rff', 'ready_for_feedback'],
  ['fail', 'fail'],
  ['not_started', 'not_started'],
  ['not started', 'not_started'],
  ['ns', 'not_started'],
  ['time exceeded', 'time_exceeded'],
  ['time_exceeded', 'time_exceeded'],
];
const ANYONE: TaskStatus[] = ['ready_for_feedback', 'not_started', 'need_help', 'working_on_it'];

test('staff reach every status by every alias (any case), each answered with the task after the change', async () => {
  const { project, td } = await world();
  for (const [word, status] of [...ALIASES, ['RFF', 'ready_for_feedback'], [' Do Not Resubmit ', 'feedback_exceeded']] as [string, TaskStatus][]) {
    const res = await put('tutor', project, td, { trigger: word });
    assert.is(res.status, 200, word);
    assert.is(res.body.status, status, word);
  }
  const row = await db(env.orm.em.fork()).selectFrom('tasks').select(['status']).executeTakeFirstOrThrow();
  assert.is(row.status, 'feedback_exceeded');
});

test('students reach the statuses anyone may set by every alias; the staff-only ones change nothing (200)', async () => {
  const { project, td } = await world();
  for (const [word, status] of ALIASES) {
    await put('student', project, td, { trigger: 'working_on_it' });
    const res = await put('student', project, td, { trigger: word });
    assert.is(res.status, 200, word);
    assert.is(res.body.status, ANYONE.includes(status) ? status : 'working_on_it', word);
  }
  const assessed = await db(env.orm.em.fork()).selectFrom('tasks').select('times_assessed').executeTakeFirstOrThrow();
  assert.is(assessed.times_assessed, 0);
});

test("an unknown trigger word is 400 and changes nothing (the spec's completed included)", async () => {
  const { project, td } = await world();
  await put('student', project, td, { trigger: 'working_on_it' });
  for (const word of ['completed', 'in_progress', 'finish']) {
    const res = await put('tutor', project, td, { trigger: word });
    assert.is(res.status, 400, word);
    assert.equal(res.body, { error: `Unknown trigger '${word}'.` });
  }
  const row = await db(env.orm.em.fork()).selectFrom('tasks').select('status').executeTakeFirstOrThrow();
  assert.is(row.status, 'working_on_it');
});

// ---- The refusals of §4.2 -------------------------------------------------------------------------

test('ready for feedback on a definition with upload requirements: 403 for everyone, files must be uploaded', async () => {
  const { project, td } = await world({ uploadRequirements: [{ key: 'file0', name: 'Report', type: 'document' }] as never });
  for (const who of ['student', 'tutor'] as const) {
    for (const word of ['rff', 'ready to mark', 'ready_for_feedback']) {
      const res = await put(who, project, td, { trigger: word });
      assert.is(res.status, 403, `${who} ${word}`);
      assert.equal(res.body, { error: 'Cannot set this task status to ready to mark without uploading documents.' });
    }
  }
  assert.is((await put('student', project, td, { trigger: 'need_help' })).body.status, 'need_help');
  assert.is((await put('tutor', project, td, { trigger: 'complete' })).body.status, 'complete');
});

test('restricted definition: students are refused (403) once staff assigned a status; before, they move freely', async () => {
  const { project, td } = await world({ restrictStatusUpdates: true });
  assert.is((await put('student', project, td, { trigger: 'working_on_it' })).body.status, 'working_on_it');
  assert.is((await put('student', project, td, { trigger: 'rff' })).body.status, 'ready_for_feedback');
  // Ready for feedback is itself staff-assigned (id 9): the student can no longer take it back.
  const back = await put('student', project, td, { trigger: 'working_on_it' });
  assert.is(back.status, 403);
  assert.equal(back.body, { error: 'This task can only be updated by your tutor.' });
  await put('tutor', project, td, { trigger: 'fix' });
  for (const word of ['rff', 'working_on_it', 'need_help', 'complete']) {
    const res = await put('student', project, td, { trigger: word });
    assert.is(res.status, 403, word);
  }
  // The refusal rolls back the whole request: a portfolio flag sent with it is not kept either.
  await put('student', project, td, { trigger: 'rff', include_in_portfolio: false });
  const row = await db(env.orm.em.fork()).selectFrom('tasks').select(['status', 'include_in_portfolio']).executeTakeFirstOrThrow();
  assert.equal(row, { status: 'fix_and_resubmit', include_in_portfolio: true });
  assert.is((await put('tutor', project, td, { trigger: 'working_on_it' })).body.status, 'working_on_it');
});

test('a closed task is closed to its student (silently, 200) on an unrestricted definition; other fields still apply', async () => {
  const { project, td } = await world();
  await put('tutor', project, td, { trigger: 'complete' });
  const res = await put('student', project, td, { trigger: 'working_on_it', include_in_portfolio: false });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'complete');
  assert.is(res.body.include_in_portfolio, false);
});

test('grades: required when a graded task is assessed as passed (null counts as missing); letters and numbers; invalid ones 403', async () => {
  const { project, td } = await world({ isGraded: true });
  const taskId = await seedTask(env, project, td, { status: 'ready_for_feedback' });
  for (const word of ['complete', 'discuss', 'demonstrate']) {
    for (const body of [{ trigger: word }, { trigger: word, grade: null }, { trigger: word, grade: '' }]) {
      const res = await put('tutor', project, td, body);
      assert.is(res.status, 403, JSON.stringify(body));
      assert.equal(res.body, { error: `No grade was supplied for a graded task (task id ${taskId})` });
    }
  }
  assert.is((await put('tutor', project, td, { trigger: 'fix' })).body.status, 'fix_and_resubmit', 'no grade needed to send work back');
  const bad = await put('tutor', project, td, { trigger: 'complete', grade: 5 });
  assert.is(bad.status, 403);
  assert.match(bad.body.error, /-1 \(F\), 0 \(P\), 1 \(C\), 2 \(D\) or 3 \(HD\)/);
  assert.is((await put('tutor', project, td, { trigger: 'complete', grade: 'x' })).status, 403);
  const hd = await put('tutor', project, td, { trigger: 'complete', grade: 'HD' });
  assert.is(hd.status, 200);
  assert.is(hd.body.grade, 3);
  const regraded = await put('tutor', project, td, { grade: -1 });
  assert.equal([regraded.body.status, regraded.body.grade], ['complete', -1]);
  const form = await api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: people.tutor.creds, form: { grade: '2' } });
  assert.is(form.body.grade, 2);
});

test('grades: refused on an ungraded definition, and from a student (403)', async () => {
  const ungraded = await world();
  const taskId = await seedTask(env, ungraded.project, ungraded.td, { status: 'ready_for_feedback' });
  const res = await put('tutor', ungraded.project, ungraded.td, { trigger: 'complete', grade: 2 });
  assert.is(res.status, 403);
  assert.equal(res.body, { error: `Grade was supplied for a non-graded task (task id ${taskId})` });
  const graded = await seedTaskDefinition(env, ungraded.unit, 'G1', { isGraded: true });
  const mine = await put('student', ungraded.project, graded, { grade: 3 });
  assert.is(mine.status, 403);
  assert.equal(mine.body, { error: 'Only staff can grade a task.' });
  const row = await db(env.orm.em.fork()).selectFrom('tasks').select(['status', 'grade']).where('id', '=', taskId).executeTakeFirstOrThrow();
  assert.equal(row, { status: 'ready_for_feedback', grade: null });
});

test("quality points: -1 up to the definition's maximum on passing assessments of starred definitions; out of range 400", async () => {
  const { project, td, unit } = await world({ maxQualityPts: 3 });
  for (const pts of [4, -2]) {
    const res = await put('tutor', project, td, { trigger: 'complete', quality_pts: pts });
    assert.is(res.status, 400, String(pts));
    assert.equal(res.body, { error: 'Quality points must be between -1 and 3.' });
  }
  assert.is((await put('tutor', project, td, { trigger: 'complete', quality_pts: 3 })).body.quality_pts, 3);
  assert.is((await put('tutor', project, td, { trigger: 'discuss', quality_pts: -1 })).body.quality_pts, -1);
  assert.is((await put('tutor', project, td, { trigger: 'fix', quality_pts: 2 })).body.quality_pts, -1, 'not a passing assessment: unchanged');
  const plain = await seedTaskDefinition(env, unit, 'P9');
  const ignored = await put('tutor', project, plain, { trigger: 'complete', quality_pts: 7 });
  assert.is(ignored.status, 200);
  assert.is(ignored.body.quality_pts, -1, 'a definition without stars records none: still unrated');
});

// ---- Who may call -------------------------------------------------------------------------------

test('refused callers: another student, a tutor of another unit, an Admin off the staff (403); unknown ids 404', async () => {
  const { project, td, unit } = await world();
  const other = await signedIn(env, 'bstudent', 'Student');
  await enrol(env, other.user, unit);
  const outsider = await signedIn(env, 'othertutor', 'Tutor');
  await employ(env, outsider.user, await seedUnit(env, { code: 'OTH101' }), 'Tutor');
  for (const creds of [other.creds, outsider.creds, people.admin.creds]) {
    const res = await api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: creds, json: { trigger: 'working_on_it' } });
    assert.is(res.status, 403, creds.username);
    assert.equal(res.body, { error: `Couldn't find Task with id=${project}` });
  }
  assert.is((await put('student', 999999, td, { trigger: 'working_on_it' })).status, 404);
  assert.is((await put('student', project, 999999, { trigger: 'working_on_it' })).status, 404);
  const foreign = await seedTaskDefinition(env, await seedUnit(env, { code: 'SIT202' }), 'X1');
  const res = await put('tutor', project, foreign, { trigger: 'complete' });
  assert.is(res.status, 404);
  assert.equal(res.body, { error: 'Unable to find requested Task definition' });
  assert.is((await db(env.orm.em.fork()).selectFrom('tasks').select('id').execute()).length, 0, 'nothing was created');
});

// ---- Group tasks --------------------------------------------------------------------------------

async function groupWorld() {
  const { unit, project } = await world();
  const tutorial = await seedTutorial(env, unit, 'T1');
  const group = await seedGroup(env, unit, tutorial);
  const { group_set_id: groupSet } = await db(env.orm.em.fork()).selectFrom('groups').select('group_set_id').where('id', '=', group).executeTakeFirstOrThrow();
  const td = await seedTaskDefinition(env, unit, 'G1', { groupSet });
  const members: number[] = [project];
  for (const name of ['bstudent', 'cstudent']) {
    const actor = await signedIn(env, name, 'Student');
    members.push(await enrol(env, actor.user, unit));
  }
  for (const member of members) await seedMembership(env, group, member);
  return { unit, td, members };
}

async function statusesOf(td: number, projects: number[]) {
  const rows = await db(env.orm.em.fork()).selectFrom('tasks').select(['project_id', 'status', 'grade']).where('task_definition_id', '=', td).execute();
  return projects.map((p) => rows.find((r) => r.project_id === p)?.status ?? 'none');
}

test("group tasks: a change moves every member's task except those already complete; working on it stays with its member", async () => {
  const { td, members } = await groupWorld();
  const [mine, second, third] = members;
  await seedTask(env, third, td, { status: 'complete' });

  const handed = await put('student', mine, td, { trigger: 'rff' });
  assert.is(handed.status, 200);
  assert.is(handed.body.status, 'ready_for_feedback');
  assert.equal(handed.body.other_projects.map((p: { id: number }) => p.id).sort(), [second]);
  assert.ok(JSON.parse(handed.body.other_projects[0].new_stats).blue_pct > 0);
  assert.equal(await statusesOf(td, members), ['ready_for_feedback', 'ready_for_feedback', 'complete']);

  const fixed = await put('tutor', mine, td, { trigger: 'fix' });
  assert.is(fixed.body.status, 'fix_and_resubmit');
  assert.equal(await statusesOf(td, members), ['fix_and_resubmit', 'fix_and_resubmit', 'complete']);

  await put('student', mine, td, { trigger: 'working_on_it' });
  assert.equal(await statusesOf(td, members), ['working_on_it', 'fix_and_resubmit', 'complete']);

  await put('tutor', mine, td, { trigger: 'complete' });
  assert.equal(await statusesOf(td, members), ['complete', 'complete', 'complete']);
  const comments = await db(env.orm.em.fork())
    .selectFrom('task_comments as c')
    .innerJoin('tasks as t', 't.id', 'c.task_id')
    .select('t.project_id')
    .where('c.kind', '=', 'status')
    .execute();
  assert.ok(
    comments.every((c) => c.project_id === mine),
    'status comments only on the task acted on',
  );
});

test('group tasks: a student outside any group of the set is refused (403)', async () => {
  const { unit, td } = await groupWorld();
  const loner = await signedIn(env, 'dstudent', 'Student');
  const project = await enrol(env, loner.user, unit);
  const res = await api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: loner.creds, json: { trigger: 'rff' } });
  assert.is(res.status, 403);
  assert.equal(res.body, { error: "This task requires a group. Ensure you are in a group for the unit's Set G" });
});

// ---- Portfolio and the web client ----------------------------------------------------------------

test('include_in_portfolio alone is kept, by the student or staff, and leaves the status alone', async () => {
  const { project, td } = await world();
  const off = await put('student', project, td, { include_in_portfolio: false });
  assert.is(off.status, 200);
  assert.equal([off.body.status, off.body.include_in_portfolio], ['not_started', false]);
  const on = await put('tutor', project, td, { include_in_portfolio: 'true' });
  assert.is(on.body.include_in_portfolio, true);
  const both = await put('student', project, td, { trigger: 'working_on_it', include_in_portfolio: false });
  assert.equal([both.body.status, both.body.include_in_portfolio], ['working_on_it', false]);
});

test('what the web client sends: JSON {"trigger":"complete","grade":null,"quality_pts":-1} to /api//projects/... with Auth-Token', async () => {
  const { project, td } = await world({ maxQualityPts: 5 });
  await put('student', project, td, { trigger: 'rff' });
  const res = await api(env, 'PUT', `/api//projects/${project}/task_def_id/${td}`, {
    as: people.tutor.creds,
    hyphenHeader: true,
    json: { trigger: 'complete', grade: null, quality_pts: -1 },
  });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'complete');
  assert.is(res.body.quality_pts, -1);
  assert.is(res.body.grade, undefined);
  for (const key of [
    'id',
    'status',
    'due_date',
    'extensions',
    'submission_date',
    'completion_date',
    'times_assessed',
    'include_in_portfolio',
    'similarity_flag',
    'num_new_comments',
    'new_stats',
  ]) {
    assert.ok(key in res.body, key);
  }
  const stars = await api(env, 'PUT', `/api//projects/${project}/task_def_id/${td}`, {
    as: people.tutor.creds,
    hyphenHeader: true,
    json: { quality_pts: 4, trigger: 'complete' },
  });
  assert.is(stars.body.quality_pts, 4);
});

// ---- Two tutors at once ---------------------------------------------------------------------------

test('two tutors at once: one completes with a grade, the other takes the task out of the portfolio; both changes persist', async () => {
  const { project, td, unit } = await world({ isGraded: true });
  const second = await signedIn(env, 'btutor', 'Tutor');
  await employ(env, second.user, unit, 'Tutor');
  await put('student', project, td, { trigger: 'rff' });
  const { id } = await db(env.orm.em.fork()).selectFrom('tasks').select('id').executeTakeFirstOrThrow();

  const [marked, excluded] = await raceOnTask(env, id, [
    () => put('tutor', project, td, { trigger: 'complete', grade: 2 }),
    () => api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: second.creds, json: { include_in_portfolio: false } }),
  ]);
  assert.is(marked.status, 200);
  assert.is(excluded.status, 200);
  const row = await db(env.orm.em.fork()).selectFrom('tasks').select(['status', 'grade', 'include_in_portfolio', 'times_assessed']).executeTakeFirstOrThrow();
  assert.equal(row, { status: 'complete', grade: 2, include_in_portfolio: false, times_assessed: 1 });
});

test("two tutors marking the same work at once: the second keeps the first's quality points, and it is assessed once", async () => {
  const { project, td, unit } = await world({ isGraded: true, maxQualityPts: 5 });
  const second = await signedIn(env, 'btutor', 'Tutor');
  await employ(env, second.user, unit, 'Tutor');
  await put('student', project, td, { trigger: 'rff' });
  const { id } = await db(env.orm.em.fork()).selectFrom('tasks').select('id').executeTakeFirstOrThrow();

  const results = await raceOnTask(env, id, [
    () => api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: second.creds, json: { trigger: 'complete', grade: 2, quality_pts: 4 } }),
    () => put('tutor', project, td, { trigger: 'complete', grade: 2 }),
  ]);
  assert.equal(
    results.map((r) => r.status),
    [200, 200],
  );
  const row = await db(env.orm.em.fork()).selectFrom('tasks').select(['status', 'grade', 'quality_pts', 'times_assessed']).executeTakeFirstOrThrow();
  assert.equal(row, { status: 'complete', grade: 2, quality_pts: 4, times_assessed: 1 });
  const history = await db(env.orm.em.fork()).selectFrom('task_submissions').select(['assessor_id', 'outcome']).orderBy('id').execute();
  assert.is(history.length, 2, 'the submission, then a second assessment of it');
});

test.run();
