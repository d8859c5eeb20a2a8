import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { anotherStudent, anotherTutor, outsideTutor, taskWorld, type TaskWorld, type UnitFlags } from '../support/task-world.ts';
import { seedGroup, seedMembership, seedTaskDefinition } from '../support/seed-enrolments.ts';

const test = suite('REST extensions: request_extension and assess_extension');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

// Item 21's dates: the target date a week ago, the deadline a week ahead.
const NOW = '2026-03-10T09:00:00Z';
const LATE_TASK = { targetDate: '2026-03-03', dueDate: '2026-03-17' };

async function world(flags: UnitFlags = {}, definition: Parameters<typeof taskWorld>[2] = LATE_TASK): Promise<TaskWorld> {
  await travelTo(env, people, NOW);
  return taskWorld(env, people, definition, flags);
}

const who = (w: keyof People | Actor) => (typeof w === 'string' ? people[w].creds : w.creds);

const request = (as: keyof People | Actor, w: Pick<TaskWorld, 'project' | 'td'>, weeks: unknown, comment = 'I was unwell') =>
  api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/request_extension`, { as: who(as), json: { comment, weeks_requested: weeks } });

const assessIt = (as: keyof People | Actor, w: Pick<TaskWorld, 'project' | 'td'>, commentId: number, granted: unknown) =>
  api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}/assess_extension/${commentId}`, { as: who(as), json: { granted } });

const trigger = (as: keyof People, w: TaskWorld, word: string) =>
  api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: who(as), json: { trigger: word } });

async function taskRow(w: TaskWorld) {
  return db(env.orm.em.fork())
    .selectFrom('tasks')
    .select(['id', 'status', 'extensions'])
    .where('project_id', '=', w.project)
    .where('task_definition_id', '=', w.td)
    .executeTakeFirstOrThrow();
}

async function commentRow(id: number) {
  return db(env.orm.em.fork()).selectFrom('task_comments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function readers(commentId: number): Promise<number[]> {
  const rows = await db(env.orm.em.fork())
    .selectFrom('comment_read_receipts')
    .select('user_id')
    .where('comment_id', '=', commentId)
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

test('item 21: late work, auto-apply off: the request waits (time exceeded); the tutor grants 2 weeks: ready for feedback, no more to grant', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  assert.is((await trigger('student', w, 'rff')).body.status, 'time_exceeded');

  const asked = await request('student', w, 2);
  assert.is(asked.status, 201);
  assert.is(asked.body.type, 'extension');
  assert.is(asked.body.comment, 'I was unwell');
  assert.is(asked.body.weeks_requested, 2);
  assert.is(asked.body.granted, false);
  assert.is(asked.body.assessed, false);
  assert.is(asked.body.date_assessed, null);
  assert.is(asked.body.extension_response, null);
  assert.is(asked.body.task_status, 'time_exceeded');
  assert.is(asked.body.is_new, false);
  assert.is(asked.body.author.id, people.student.user.id);
  assert.is(asked.body.recipient.id, people.tutor.user.id);
  assert.equal(await taskRow(w).then((t) => [t.status, t.extensions]), ['time_exceeded', 0]);

  const granted = await assessIt('tutor', w, asked.body.id, true);
  assert.is(granted.status, 200);
  assert.is(granted.body.id, asked.body.id);
  assert.is(granted.body.granted, true);
  assert.is(granted.body.assessed, true);
  assert.is(granted.body.date_assessed, '2026-03-10T09:00:00.000Z');
  assert.is(granted.body.extension_response, 'Extension granted to Tue Mar 17');
  assert.is(granted.body.task_status, 'ready_for_feedback');
  assert.is(granted.body.extensions, 2);
  assert.is(granted.body.due_date, '2026-03-17');
  assert.equal(await taskRow(w).then((t) => [t.status, t.extensions]), ['ready_for_feedback', 2]);
  const row = await commentRow(asked.body.id);
  assert.is(row.extension_assessor_id, people.tutor.user.id);
  // The covered submission is ready for feedback again, said by the one who granted it.
  const status = await db(env.orm.em.fork())
    .selectFrom('task_comments')
    .select(['author_id', 'task_status'])
    .where('kind', '=', 'status')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  assert.equal(status, { author_id: people.tutor.user.id, task_status: 'ready_for_feedback' });

  const more = await request('student', w, 1);
  assert.is(more.status, 403);
  assert.equal(more.body, { error: 'Extensions cannot be granted beyond task deadline.' });
});

test('item 22: auto-apply on: granted at once by the main convenor ("Time extended to ..."), same end state', async () => {
  const w = await world();
  await trigger('student', w, 'rff');
  const asked = await request('student', w, 2);
  assert.is(asked.status, 201);
  assert.is(asked.body.granted, true);
  assert.is(asked.body.assessed, true);
  assert.is(asked.body.extension_response, 'Time extended to Tue Mar 17');
  assert.is(asked.body.task_status, 'ready_for_feedback');
  assert.equal(await taskRow(w).then((t) => [t.status, t.extensions]), ['ready_for_feedback', 2]);
  assert.is((await commentRow(asked.body.id)).extension_assessor_id, people.convenor.user.id);
  assert.is((await request('student', w, 1)).status, 403);
});

test('item 24: more weeks than can be granted are clamped and go to the main convenor; 0 weeks and the reached deadline are refused', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const zero = await request('student', w, 0);
  assert.is(zero.status, 403);
  assert.equal(zero.body, { error: 'Extension weeks can not be 0.' });
  const negative = await request('student', w, -2);
  assert.is(negative.status, 403);

  const clamped = await request('student', w, 5);
  assert.is(clamped.status, 201);
  assert.is(clamped.body.weeks_requested, 2);
  assert.is(clamped.body.recipient.id, people.convenor.user.id);
  assert.is(clamped.body.granted, false);

  const exact = await request('student', w, 1);
  assert.is(exact.body.recipient.id, people.tutor.user.id, "within what can be granted: the student's tutor");

  // Staff grant the lot; the deadline is reached.
  const staff = await request('tutor', w, 2);
  assert.is(staff.body.granted, true);
  const reached = await request('student', w, 1);
  assert.is(reached.status, 403);
  assert.equal(reached.body, { error: 'Extensions cannot be granted beyond task deadline.' });
  assert.is(
    await db(env.orm.em.fork())
      .selectFrom('task_comments')
      .select('id')
      .where('kind', '=', 'extension')
      .execute()
      .then((r) => r.length),
    3,
  );
});

test("item 25: with auto-apply off the request is new to the student's tutor, even after they list it, until another staff member assesses it", async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const other = await anotherTutor(env, w, 'secondtutor');
  const asked = await request('student', w, 1);
  assert.equal(await readers(asked.body.id), [people.student.user.id]);

  const listed = await api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds });
  assert.is(listed.status, 200);
  const again = await api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds });
  assert.is(again.body.find((c: { id: number }) => c.id === asked.body.id).is_new, true, 'the tutor cannot read it away');
  assert.not.ok((await readers(asked.body.id)).includes(people.tutor.user.id));

  const assessed = await assessIt(other, w, asked.body.id, false);
  assert.is(assessed.status, 200);
  assert.is(assessed.body.extension_response, 'Extension rejected');
  const after = await readers(asked.body.id);
  for (const staff of [people.tutor.user.id, people.convenor.user.id, other.user.id]) assert.ok(after.includes(staff), `read by ${staff}`);
  const listedAfter = await api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds });
  assert.is(listedAfter.body.find((c: { id: number }) => c.id === asked.body.id).is_new, false);
  assert.equal(await taskRow(w).then((t) => t.extensions), 0);
});

test("item 26: student requests switched off: the student is refused, the tutor's own request is granted at once by them", async () => {
  const w = await world({ allowStudentExtensionRequests: false, autoApplyExtensionBeforeDeadline: false });
  const student = await request('student', w, 1);
  assert.is(student.status, 403);
  assert.equal(student.body, { error: 'Not authorised to request an extension for this task' });
  const tutor = await request('tutor', w, 1);
  assert.is(tutor.status, 201);
  assert.is(tutor.body.granted, true);
  assert.is(tutor.body.extension_response, 'Time extended to Tue Mar 10');
  assert.is(tutor.body.author.id, people.tutor.user.id);
  assert.is((await commentRow(tutor.body.id)).extension_assessor_id, people.tutor.user.id);
  assert.equal(await taskRow(w).then((t) => t.extensions), 1);
});

test('assessing: rejection changes nothing; a request is assessed once; granting once the deadline is reached grants nothing (200)', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const first = await request('student', w, 1);
  const rejected = await assessIt('tutor', w, first.body.id, false);
  assert.is(rejected.status, 200);
  assert.is(rejected.body.granted, false);
  assert.is(rejected.body.assessed, true);
  assert.is(rejected.body.extension_response, 'Extension rejected');
  const twice = await assessIt('convenor', w, first.body.id, true);
  assert.is(twice.status, 403);
  assert.equal(twice.body, { error: 'Extension has already been assessed' });
  assert.equal(await taskRow(w).then((t) => t.extensions), 0);

  const pending = await request('student', w, 2);
  await request('tutor', w, 2);
  const late = await assessIt('tutor', w, pending.body.id, true);
  assert.is(late.status, 200);
  assert.is(late.body.granted, false);
  assert.is(late.body.assessed, true);
  assert.is(late.body.extension_response, 'Extension cannot be granted as deadline has been reached');
  assert.equal(await taskRow(w).then((t) => t.extensions), 2);
});

test('a grant adds what the request asked, clamped to the deadline, and a short week is shown as the deadline day', async () => {
  // Target 03-16, deadline 04-02: 3 weeks can be asked (ceil(17/7)); granted they end at the deadline.
  const w = await world({ autoApplyExtensionBeforeDeadline: false }, { targetDate: '2026-03-16', dueDate: '2026-04-02' });
  const asked = await request('student', w, 9);
  assert.is(asked.body.weeks_requested, 3);
  const granted = await assessIt('tutor', w, asked.body.id, true);
  assert.is(granted.body.extension_response, 'Extension granted to Thu Apr  2');
  assert.is(granted.body.due_date, '2026-04-02');
  assert.equal(await taskRow(w).then((t) => [t.status, t.extensions]), ['not_started', 3]);
});

test('the request must be an extension request of this task: others, status comments and unknown ids are 404', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const other = await anotherStudent(env, w, 'bstudent');
  const theirs = await request(other.actor, { project: other.project, td: w.td }, 1);
  assert.is(theirs.status, 201);
  // This student's task does not exist yet.
  const noTask = await assessIt('tutor', w, theirs.body.id, true);
  assert.is(noTask.status, 404);
  assert.ok(noTask.body.error);
  await trigger('student', w, 'working_on_it');
  const notThisTask = await assessIt('tutor', w, theirs.body.id, true);
  assert.is(notThisTask.status, 404);
  const statusComment = await db(env.orm.em.fork()).selectFrom('task_comments').select('id').where('kind', '=', 'status').executeTakeFirstOrThrow();
  assert.is((await assessIt('tutor', w, statusComment.id, true)).status, 404);
  assert.is((await assessIt('tutor', w, 999999, true)).status, 404);
  // Beyond PostgreSQL's integer: unknown, not a failed statement.
  assert.is((await assessIt('tutor', w, 99999999999, true)).status, 404);
  assert.is((await commentRow(theirs.body.id)).extension_assessed_at, null);
});

test('refused callers: another student, a tutor of another unit, a student assessing; unknown project or definition 404', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const other = await anotherStudent(env, w, 'bstudent');
  const outsider = await outsideTutor(env);
  const asked = await request('student', w, 1);

  for (const caller of [other.actor, outsider]) {
    const req = await request(caller, w, 1);
    assert.is(req.status, 403);
    assert.equal(req.body, { error: 'Not authorised to request an extension for this task' });
    const ass = await assessIt(caller, w, asked.body.id, true);
    assert.is(ass.status, 403);
  }
  const studentAssess = await assessIt('student', w, asked.body.id, true);
  assert.is(studentAssess.status, 403);
  assert.equal(studentAssess.body, { error: 'Not authorised to assess an extension for this task' });
  const admin = await request('admin', w, 1);
  assert.is(admin.status, 403);

  assert.is((await request('student', { project: 999999, td: w.td }, 1)).status, 404);
  assert.is((await request('student', { project: w.project, td: 999999 }, 1)).status, 404);
  const elsewhere = await taskWorld(env, people, {}, {}, 'SIT202');
  const foreign = await seedTaskDefinition(env, elsewhere.unit, 'X1');
  assert.is((await request('student', { project: w.project, td: foreign }, 1)).status, 404);
  assert.is((await assessIt('tutor', { project: w.project, td: foreign }, asked.body.id, true)).status, 404);
  assert.equal(await readers(asked.body.id), [people.student.user.id]);
});

test('bad input: weeks missing or not a number, granted missing: 400 and nothing recorded', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const missing = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/request_extension`, {
    as: people.student.creds,
    json: { comment: 'x' },
  });
  assert.is(missing.status, 400);
  assert.ok(missing.body.error);
  assert.is((await request('student', w, 'two')).status, 400);
  const asked = await request('student', w, 1);
  const noGranted = await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}/assess_extension/${asked.body.id}`, {
    as: people.tutor.creds,
    json: {},
  });
  assert.is(noGranted.status, 400);
  assert.is(
    await db(env.orm.em.fork())
      .selectFrom('task_comments')
      .select('id')
      .where('kind', '=', 'extension')
      .execute()
      .then((r) => r.length),
    1,
  );
});

test('what the web client sends: JSON to /api//projects/... for both calls, and forms work too', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const asked = await api(env, 'POST', `/api//projects/${w.project}/task_def_id/${w.td}/request_extension`, {
    as: people.student.creds,
    hyphenHeader: true,
    json: { comment: 'Please', weeks_requested: 1 },
  });
  assert.is(asked.status, 201);
  const answered = await api(env, 'PUT', `/api//projects/${w.project}/task_def_id/${w.td}/assess_extension/${asked.body.id}`, {
    as: people.tutor.creds,
    hyphenHeader: true,
    json: { granted: true },
  });
  assert.is(answered.status, 200);
  assert.is(answered.body.extension_response, 'Extension granted to Tue Mar 10');
  const form = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/request_extension`, {
    as: people.student.creds,
    form: { comment: 'More', weeks_requested: '1' },
  });
  assert.is(form.status, 201);
  assert.is(form.body.weeks_requested, 1);
});

test('two staff answering the same request at once: one assesses it, the other is refused, the weeks are granted once', async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const asked = await request('student', w, 1);
  const [a, b] = await Promise.all([assessIt('tutor', w, asked.body.id, true), assessIt('convenor', w, asked.body.id, true)]);
  assert.equal([a.status, b.status].sort(), [200, 403]);
  assert.equal(await taskRow(w).then((t) => t.extensions), 1);
});

test("item 28: a pending request shows as has_extensions in the tutor's inbox and the definition's task list, until it is assessed", async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false });
  const asked = await request('student', w, 1);
  const pending = (rows: { project_id: number; has_extensions: unknown }[]) => rows.find((r) => r.project_id === w.project)?.has_extensions;
  const inbox = await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.tutor.creds });
  assert.is(inbox.status, 200);
  assert.ok(pending(inbox.body), 'listed in the inbox with has_extensions');
  const list = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/tasks`, { as: people.tutor.creds });
  assert.is(list.status, 200);
  assert.ok(pending(list.body));
  await assessIt('tutor', w, asked.body.id, true);
  const after = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/tasks`, { as: people.tutor.creds });
  assert.not.ok(pending(after.body));
});

test("group tasks: a member's request is found through any member's task of the group submission, and extends the task it was made on", async () => {
  const w = await world({ autoApplyExtensionBeforeDeadline: false }, {});
  const group = await seedGroup(env, w.unit, w.tutorial);
  const { group_set_id: groupSet } = await db(env.orm.em.fork()).selectFrom('groups').select('group_set_id').where('id', '=', group).executeTakeFirstOrThrow();
  const td = await seedTaskDefinition(env, w.unit, 'G1', { groupSet });
  const other = await anotherStudent(env, w, 'bstudent');
  await seedMembership(env, group, w.project);
  await seedMembership(env, group, other.project);
  const mine = { project: w.project, td };
  const theirs = { project: other.project, td };
  assert.is((await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${td}`, { as: people.student.creds, json: { trigger: 'rff' } })).status, 200);

  const asked = await request('student', mine, 1);
  assert.is(asked.status, 201);
  const granted = await assessIt('tutor', theirs, asked.body.id, true);
  assert.is(granted.status, 200);
  assert.is(granted.body.granted, true);
  const rows = await db(env.orm.em.fork())
    .selectFrom('tasks')
    .select(['project_id', 'extensions'])
    .where('task_definition_id', '=', td)
    .orderBy('project_id')
    .execute();
  assert.equal(rows, [
    { project_id: w.project, extensions: 1 },
    { project_id: other.project, extensions: 0 },
  ]);
});

test.run();
