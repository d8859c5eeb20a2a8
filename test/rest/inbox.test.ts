import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedSimilarity, seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedEnrolmentIn } from '../support/seed-tutorials.ts';
import { taskWorld } from '../support/task-world.ts';
import { db } from '../../src/db/kysely.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import { insertComments } from '../../src/operations/tasks/comments.ts';

const test = suite('REST GET /api/units/{id}/tasks/inbox and /feedback');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A task of the inbox or feedback list, by the fields these tests read. */
type Listed = {
  id: number;
  project_id: number;
  tutorial_id: number | null;
  tutorial_stream_id: number | null;
  status: string;
  submission_date: string | null;
  quality_pts: number;
  num_new_comments: number;
  similarity_flag: boolean;
  pinned: number;
  has_extensions: number;
};

const inbox = (who: Actor, unit: number) => api(env, 'GET', `/api//units/${unit}/tasks/inbox`, { as: who.creds });
const feedback = (who: Actor, unit: number) => api(env, 'GET', `/api/units/${unit}/feedback`, { as: who.creds });
const k = () => db(env.orm.em.fork());
const pin = (task: number, user: number) =>
  k()
    .insertInto('task_pins')
    .values({ task_id: task, user_id: user, created_at: env.clock.now().toISOString() } as never)
    .execute();
const comment = (task: number, author: number, kind: 'text' | 'extension' = 'text') =>
  insertComments(
    env.orm.em.fork(),
    [{ taskId: task, authorId: author, recipientId: null, kind, comment: 'c', extensionWeeksRequested: kind === 'extension' ? 1 : null }],
    env.clock.now(),
  );

async function student(w: { unit: number; tutorial: number }, name: string): Promise<{ actor: Actor; project: number }> {
  const actor = await signedIn(env, name, 'Student');
  const project = await enrol(env, actor.user, w.unit);
  await seedEnrolmentIn(env, project, w.tutorial);
  return { actor, project };
}

const ROW_KEYS = [
  'completion_date',
  'due_date',
  'extensions',
  'grade',
  'has_extensions',
  'id',
  'include_in_portfolio',
  'num_new_comments',
  'pinned',
  'project_id',
  'quality_pts',
  'similarity_flag',
  'status',
  'submission_date',
  'task_definition_id',
  'times_assessed',
  'tutorial_id',
  // Issue 18: a staff note mentions the viewer; an open escalation the viewer (a convenor) resolves.
  'mentioned',
  'escalated',
  // Issue 27: the student may not hand the task in (docs/prerequisites.md).
  'locked',
  'prerequisites_unmet',
].sort();

test("a student comment and the tutor's pin: exactly that task is listed, pinned (behaviour §12 item 30)", async () => {
  const w = await taskWorld(env, people);
  const other = await student(w, 'bstudent');
  await seedTask(env, other.project, w.td, { status: 'working_on_it' });
  const res = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.student.creds, multipart: { comment: 'Help?' } });
  assert.is(res.status, 201);
  const task = (await k().selectFrom('tasks').select('id').where('project_id', '=', w.project).executeTakeFirstOrThrow()).id;
  const before = await inbox(people.tutor, w.unit);
  assert.equal(
    before.body.map((t: Listed) => [t.id, t.num_new_comments, t.pinned]),
    [[task, 1, 0]],
  );
  // Reading the comments takes the task out; the pin brings it back.
  await api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/comments`, { as: people.tutor.creds });
  assert.equal((await inbox(people.tutor, w.unit)).body, []);
  await pin(task, people.tutor.user.id);
  const after = await inbox(people.tutor, w.unit);
  assert.is(after.status, 200);
  assert.is(after.body.length, 1);
  assert.equal(Object.keys(after.body[0]).sort(), ROW_KEYS);
  assert.equal(
    { ...after.body[0] },
    {
      id: task,
      project_id: w.project,
      task_definition_id: w.td,
      tutorial_id: w.tutorial,
      status: 'not_started',
      completion_date: null,
      submission_date: null,
      times_assessed: 0,
      grade: null,
      quality_pts: -1,
      num_new_comments: 0,
      similarity_flag: false,
      pinned: 1,
      has_extensions: 0,
      due_date: '2026-03-16',
      extensions: 0,
      include_in_portfolio: true,
      mentioned: 0,
      escalated: 0,
      locked: false,
      prerequisites_unmet: [],
    },
  );
  // Pins are the caller's own: the convenor sees the task through its unread comment only.
  assert.equal(
    (await inbox(people.convenor, w.unit)).body.map((t: Listed) => [t.id, t.pinned]),
    [],
  );
});

test('the inbox: waiting on staff, pinned or unread; pinned first, then oldest submission, then oldest comment; enrolled students only', async () => {
  const w = await taskWorld(env, people);
  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  const s = [];
  for (const name of ['s1', 's2', 's3', 's4', 's5', 's6']) s.push(await student(w, name));
  const at = (iso: string) => new Date(iso);
  const late = await seedTask(env, s[0].project, w.td, { status: 'ready_for_feedback', submissionDate: at('2026-03-05T10:00:00Z') });
  const early = await seedTask(env, s[1].project, w.td, { status: 'ready_for_feedback', submissionDate: at('2026-03-04T10:00:00Z') });
  const help = await seedTask(env, s[2].project, td2, { status: 'need_help' });
  const chatty = await seedTask(env, s[3].project, w.td, { status: 'working_on_it' });
  await comment(chatty, s[3].actor.user.id);
  const done = await seedTask(env, s[4].project, w.td, { status: 'complete', submissionDate: at('2026-03-03T10:00:00Z') });
  const pinnedDone = await seedTask(env, s[5].project, w.td, { status: 'complete', submissionDate: at('2026-03-06T10:00:00Z') });
  await pin(pinnedDone, people.tutor.user.id);
  await comment(done, people.tutor.user.id); // the tutor's own comment is not new for them
  const gone = await student(w, 'gone');
  await seedTask(env, gone.project, w.td, { status: 'ready_for_feedback', submissionDate: at('2026-03-01T10:00:00Z') });
  await k().updateTable('projects').set({ enrolled: false }).where('id', '=', gone.project).execute();

  const res = await inbox(people.tutor, w.unit);
  assert.is(res.status, 200);
  // help has neither submission nor comment: after the others; chatty has a comment but no submission.
  assert.equal(
    res.body.map((t: Listed) => t.id),
    [pinnedDone, early, late, chatty, help],
  );
  assert.equal(
    res.body.map((t: Listed) => t.num_new_comments),
    [0, 0, 0, 1, 0],
  );
  assert.is(res.body[1].submission_date, '2026-03-04T10:00:00.000Z');
});

test("pending extension requests and flagged similarities show the same in the inbox and the definition's task list (item 28)", async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td, { status: 'ready_for_feedback', submissionDate: new Date('2026-03-04T10:00:00Z'), extensions: 1 });
  await comment(task, people.student.user.id, 'extension');
  await comment(task, people.student.user.id, 'extension');
  await seedSimilarity(env, task, true);
  const row = (await inbox(people.tutor, w.unit)).body[0];
  assert.equal([row.has_extensions, row.similarity_flag, row.extensions, row.due_date], [2, true, 1, '2026-03-23']);
  const list = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/tasks`, { as: people.tutor.creds });
  assert.equal([list.body[0].has_extensions, list.body[0].similarity_flag, list.body[0].tutorial_id], [2, true, w.tutorial]);
  assert.equal([list.body[0].extensions, list.body[0].due_date, list.body[0].include_in_portfolio], [1, '2026-03-23', true]);
  await k().updateTable('task_comments').set({ extension_assessed_at: new Date().toISOString() }).where('kind', '=', 'extension').execute();
  await k().updateTable('task_similarities').set({ flagged: false }).execute();
  const cleared = (await inbox(people.tutor, w.unit)).body[0];
  const clearedList = (await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/tasks`, { as: people.tutor.creds })).body[0];
  assert.equal([cleared.has_extensions, cleared.similarity_flag], [0, false]);
  assert.equal([clearedList.has_extensions, clearedList.similarity_flag], [0, false]);
});

test('status comments are not new: a submission lists the task with no new comments (item 23)', async () => {
  const w = await taskWorld(env, people);
  const put = await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: people.student.creds, json: { trigger: 'rff' } });
  assert.is(put.status, 200);
  const rows = (await inbox(people.tutor, w.unit)).body;
  assert.equal(
    rows.map((t: Listed) => [t.status, t.num_new_comments]),
    [['ready_for_feedback', 0]],
  );
  // The other staff too: the status comment is not news to anyone.
  assert.equal(
    (await inbox(people.convenor, w.unit)).body.map((t: Listed) => t.num_new_comments),
    [0],
  );
});

test('the feedback list: discuss, demonstrate, redo and fix and resubmit, by definition', async () => {
  const w = await taskWorld(env, people);
  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  const statuses: [TaskStatus, number][] = [
    ['redo', td2],
    ['discuss', w.td],
    ['ready_for_feedback', w.td],
    ['demonstrate', td2],
    ['fix_and_resubmit', w.td],
    ['complete', w.td],
  ];
  const ids: number[] = [];
  let i = 0;
  for (const [status, td] of statuses) ids.push(await seedTask(env, (await student(w, `f${i++}`)).project, td, { status }));
  const res = await feedback(people.tutor, w.unit);
  assert.is(res.status, 200);
  assert.equal(
    res.body.map((t: Listed) => t.id),
    [ids[1], ids[4], ids[0], ids[3]],
  );
  assert.equal(Object.keys(res.body[0]).sort(), ROW_KEYS);
  // The spec types quality points as an integer: -1 for unrated work, never null.
  assert.equal(
    res.body.map((t: Listed) => t.quality_pts),
    [-1, -1, -1, -1],
  );
});

test('staff of the unit only: a student, an admin off the staff and a tutor of another unit get 403; an unknown unit 404', async () => {
  const w = await taskWorld(env, people);
  const outsider = await signedIn(env, 'btutor', 'Tutor');
  await employ(env, outsider.user, await seedUnit(env, { code: 'SIT999' }), 'Tutor');
  for (const who of [people.student, people.admin, outsider]) {
    for (const read of [inbox, feedback]) {
      const res = await read(who, w.unit);
      assert.equal([res.status, res.body], [403, { error: 'Not authorised to provide feedback for this unit' }], who.creds.username);
    }
  }
  assert.is((await inbox(people.tutor, 9999)).status, 404);
  assert.is((await feedback(people.convenor, w.unit)).status, 200);
});

test("the definition's task list has real rows once students hand work in through the service", async () => {
  const w = await taskWorld(env, people);
  const other = await student(w, 'bstudent');
  env.clock.set(new Date('2026-03-02T01:00:00Z')); // within the tokens' two hours
  for (const who of [{ actor: people.student, project: w.project }, other]) {
    const res = await api(env, 'PUT', `/api/projects/${who.project}/task_def_id/${w.td}`, { as: who.actor.creds, json: { trigger: 'ready_for_feedback' } });
    assert.is(res.status, 200);
  }
  const list = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/tasks`, { as: people.tutor.creds });
  assert.equal(
    list.body.map((t: Listed) => [t.project_id, t.status, t.submission_date, t.tutorial_id, t.has_extensions, t.similarity_flag]),
    [
      [w.project, 'ready_for_feedback', '2026-03-02T01:00:00.000Z', w.tutorial, 0, false],
      [other.project, 'ready_for_feedback', '2026-03-02T01:00:00.000Z', w.tutorial, 0, false],
    ],
  );
  assert.equal(
    (await inbox(people.tutor, w.unit)).body.map((t: Listed) => t.project_id),
    [w.project, other.project],
  );
});

test("a task's tutorial is the student's tutorial in the definition's stream, else one without a stream, in every list", async () => {
  const w = await taskWorld(env, people);
  const stream = await k()
    .insertInto('activity_types')
    .values({ name: 'Lab', abbreviation: 'lab' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const labs = await k()
    .insertInto('tutorial_streams')
    .values({ unit_id: w.unit, activity_type_id: stream.id, name: 'Labs', abbreviation: 'lab' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const td = await seedTaskDefinition(env, w.unit, 'L1', { tutorialStream: labs.id });
  const task = await seedTask(env, w.project, td, { status: 'ready_for_feedback', submissionDate: new Date('2026-03-04T10:00:00Z') });
  // The student's only tutorial (T1) has no stream: it counts for the lab definition too, as in the original.
  assert.equal(
    (await inbox(people.tutor, w.unit)).body.map((t: Listed) => [t.id, t.tutorial_id]),
    [[task, w.tutorial]],
  );
  const list = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${td}/tasks`, { as: people.tutor.creds });
  assert.equal(
    list.body.map((t: Listed) => [t.id, t.tutorial_id, t.tutorial_stream_id]),
    [[task, w.tutorial, null]],
  );
});

test.run();
