import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { taskWorld } from '../support/task-world.ts';
import { db } from '../../src/db/kysely.ts';
import { insertComments } from '../../src/operations/tasks/comments.ts';

const test = suite('REST comments: list, create text, reply, unread, delete, read receipts');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const base = (project: number, td: number) => `/api/projects/${project}/task_def_id/${td}/comments`;
const list = (who: Actor, project: number, td: number) => api(env, 'GET', base(project, td), { as: who.creds });
const post = (who: Actor, project: number, td: number, fields: Record<string, string>) =>
  api(env, 'POST', base(project, td), { as: who.creds, multipart: fields });
const k = () => db(env.orm.em.fork());
const receipts = async (comment: number) =>
  (await k().selectFrom('comment_read_receipts').select('user_id').where('comment_id', '=', comment).orderBy('user_id').execute()).map((r) => r.user_id);

/** A listed comment, by the fields these tests read. */
type Listed = { comment: string; is_new: boolean; type: string; status: string; recipient_read_time: string | null };

const KEYS = ['author', 'comment', 'created_at', 'has_attachment', 'id', 'is_new', 'recipient', 'recipient_read_time', 'reply_to_id', 'type'];

test('three staff comments are new for the student on the first listing and not on the second, with exactly the comment keys', async () => {
  const w = await taskWorld(env, people);
  for (const text of ['One', 'Two', 'Three']) assert.is((await post(people.tutor, w.project, w.td, { comment: text })).status, 201);
  const first = await list(people.student, w.project, w.td);
  assert.is(first.status, 200);
  assert.equal(
    first.body.map((c: Listed) => c.comment),
    ['One', 'Two', 'Three'],
  );
  for (const c of first.body) {
    assert.equal(Object.keys(c).sort(), KEYS);
    assert.is(c.is_new, true);
    assert.is(c.recipient.id, people.student.user.id);
    assert.is(c.recipient_read_time, null);
  }
  const second = await list(people.student, w.project, w.td);
  assert.equal(
    second.body.map((c: Listed) => c.is_new),
    [false, false, false],
  );
  // The tutor now sees when the student read them.
  const tutorView = await list(people.tutor, w.project, w.td);
  assert.ok(tutorView.body.every((c: Listed) => typeof c.recipient_read_time === 'string'));
});

test('a student comments "Hello World" (multipart, as the web client sends it): 201 to their tutor, not new for them; the task is created', async () => {
  const w = await taskWorld(env, people);
  const res = await api(env, 'POST', `/api//projects/${w.project}/task_def_id/${w.td}/comments/`, {
    as: people.student.creds,
    hyphenHeader: true,
    multipart: { comment: '  Hello World  ' },
  });
  assert.is(res.status, 201);
  assert.equal(
    { comment: res.body.comment, has_attachment: res.body.has_attachment, type: res.body.type, is_new: res.body.is_new, reply_to_id: res.body.reply_to_id },
    { comment: 'Hello World', has_attachment: false, type: 'text', is_new: false, reply_to_id: null },
  );
  assert.is(res.body.author.id, people.student.user.id);
  assert.is(res.body.recipient.id, people.tutor.user.id);
  assert.equal(Object.keys(res.body.author).sort(), ['email', 'first_name', 'id', 'last_name']);
  const tasks = await k().selectFrom('tasks').select(['project_id', 'task_definition_id']).execute();
  assert.equal(tasks, [{ project_id: w.project, task_definition_id: w.td }]);
  assert.equal(await receipts(res.body.id), [people.student.user.id]);
  // JSON bodies work too, and staff comments go to the student.
  const json = await api(env, 'POST', base(w.project, w.td), { as: people.convenor.creds, json: { comment: 'Well done' } });
  assert.is(json.status, 201);
  assert.is(json.body.recipient.id, people.student.user.id);
});

test('listing a task that does not exist yet answers [] and creates nothing', async () => {
  const w = await taskWorld(env, people);
  const res = await api(env, 'GET', `/api//projects/${w.project}/task_def_id/${w.td}/comments/`, { as: people.student.creds });
  assert.is(res.status, 200);
  assert.equal(res.body, []);
  assert.equal(await k().selectFrom('tasks').select('id').execute(), []);
});

test('blank, duplicate and over-long text is refused and nothing is stored', async () => {
  const w = await taskWorld(env, people);
  const blank = await post(people.student, w.project, w.td, { comment: '   ' });
  assert.equal([blank.status, blank.body], [403, { error: 'Comment text is empty, unable to add new comment' }]);
  const none = await post(people.student, w.project, w.td, {});
  assert.is(none.status, 403);
  assert.is((await post(people.student, w.project, w.td, { comment: 'Same' })).status, 201);
  const dup = await post(people.student, w.project, w.td, { comment: ' Same ' });
  assert.equal([dup.status, dup.body], [403, { error: 'No comment added. Comment duplicates last comment, so ignored.' }]);
  const long = await post(people.student, w.project, w.td, { comment: 'x'.repeat(4096) });
  assert.is(long.status, 400);
  assert.match(long.body.error, /4095/);
  assert.is((await post(people.student, w.project, w.td, { comment: 'x'.repeat(4095) })).status, 201);
  // The same text after someone else's comment is not a duplicate.
  assert.is((await post(people.tutor, w.project, w.td, { comment: 'Reply' })).status, 201);
  assert.is((await post(people.student, w.project, w.td, { comment: 'x'.repeat(4095) })).status, 201);
  const count = await k()
    .selectFrom('task_comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.is(Number(count.n), 4);
});

test("reply_to_id: a comment of the same task is answered; unknown 404; another student's comment 403; my comment on another task 404", async () => {
  const w = await taskWorld(env, people);
  const first = await post(people.tutor, w.project, w.td, { comment: 'Question?' });
  const reply = await post(people.student, w.project, w.td, { comment: 'Answer', reply_to_id: String(first.body.id) });
  assert.is(reply.status, 201);
  assert.is(reply.body.reply_to_id, first.body.id);
  const unknown = await post(people.student, w.project, w.td, { comment: 'Lost', reply_to_id: '-1' });
  assert.is(unknown.status, 404);
  // The web client sends "null" when there is nothing to reply to.
  assert.is((await post(people.student, w.project, w.td, { comment: 'Plain', reply_to_id: 'null' })).status, 201);

  const other = await signedIn(env, 'bstudent', 'Student');
  const otherProject = await enrol(env, other.user, w.unit);
  const theirs = await post(other, otherProject, w.td, { comment: 'Mine' });
  const foreign = await post(people.student, w.project, w.td, { comment: 'Peek', reply_to_id: String(theirs.body.id) });
  assert.equal([foreign.status, foreign.body], [403, { error: 'You do not have permission to read the replied comment' }]);

  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  const elsewhere = await post(people.student, w.project, td2, { comment: 'On P2' });
  const cross = await post(people.student, w.project, w.td, { comment: 'Cross', reply_to_id: String(elsewhere.body.id) });
  assert.equal([cross.status, cross.body], [404, { error: 'Original comment is not in this task.' }]);
  const stored = await k().selectFrom('task_comments').select('comment').where('comment', 'in', ['Lost', 'Peek', 'Cross']).execute();
  assert.equal(stored, []);
});

test('refused callers: another student, a tutor of another unit (403); unknown project or definition (404); no credentials (419)', async () => {
  const w = await taskWorld(env, people);
  const other = await signedIn(env, 'bstudent', 'Student');
  await enrol(env, other.user, w.unit);
  const outsider = await signedIn(env, 'btutor', 'Tutor');
  const otherUnit = await seedUnit(env, { code: 'SIT999' });
  await employ(env, outsider.user, otherUnit, 'Tutor');
  assert.equal(await post(other, w.project, w.td, { comment: 'Hi' }).then((r) => [r.status, r.body]), [
    403,
    { error: 'Not authorised to create a comment for this task' },
  ]);
  assert.equal(await list(other, w.project, w.td).then((r) => [r.status, r.body]), [403, { error: 'You cannot read the comments for this task' }]);
  assert.is((await list(outsider, w.project, w.td)).status, 403);
  assert.is((await post(outsider, w.project, w.td, { comment: 'Hi' })).status, 403);
  assert.is((await list(people.admin, w.project, w.td)).status, 403);
  assert.is((await list(people.student, 9999, w.td)).status, 404);
  assert.is((await list(people.student, w.project, 9999)).status, 404);
  assert.is((await api(env, 'GET', base(w.project, w.td))).status, 419);
});

test('mark unread: 201 with the comment new again for the caller only; the next listing shows it new', async () => {
  const w = await taskWorld(env, people);
  const c = await post(people.tutor, w.project, w.td, { comment: 'Read me' });
  await list(people.student, w.project, w.td);
  const res = await api(env, 'POST', `${base(w.project, w.td)}/${c.body.id}`, { as: people.student.creds, json: {} });
  assert.is(res.status, 201);
  assert.is(res.body.id, c.body.id);
  assert.is(res.body.is_new, true);
  assert.equal(await receipts(c.body.id), [people.tutor.user.id]);
  assert.equal(
    (await list(people.student, w.project, w.td)).body.map((x: Listed) => x.is_new),
    [true],
  );
  assert.is((await api(env, 'POST', `${base(w.project, w.td)}/99999`, { as: people.student.creds })).status, 404);
});

test("delete: the author deletes their own (204), a student not someone else's (403), staff anyone's", async () => {
  const w = await taskWorld(env, people);
  const mine = await post(people.student, w.project, w.td, { comment: 'Oops' });
  const tutors = await post(people.tutor, w.project, w.td, { comment: 'Feedback' });
  const kept = await post(people.student, w.project, w.td, { comment: 'Keep' });
  const del = (who: Actor, id: number) => api(env, 'DELETE', `${base(w.project, w.td)}/${id}`, { as: who.creds });
  const own = await del(people.student, mine.body.id);
  assert.is(own.status, 204);
  assert.is(own.text, '');
  assert.equal([await del(people.student, tutors.body.id).then((r) => [r.status, r.body])], [[403, { error: 'Not authorised to delete this comment' }]]);
  assert.is((await del(people.convenor, kept.body.id)).status, 204);
  assert.is((await del(people.tutor, 99999)).status, 404);
  assert.equal(
    (await k().selectFrom('task_comments').select('comment').execute()).map((r) => r.comment),
    ['Feedback'],
  );
});

test("the student's tutor reads for every staff member; another staff member reads only for themselves", async () => {
  const w = await taskWorld(env, people);
  const other = await signedIn(env, 'btutor', 'Tutor');
  await employ(env, other.user, w.unit, 'Tutor');
  const first = await post(people.student, w.project, w.td, { comment: 'Help' });
  await list(other, w.project, w.td);
  assert.equal(
    await receipts(first.body.id),
    [people.student.user.id, other.user.id].sort((a, b) => a - b),
  );
  const second = await post(people.student, w.project, w.td, { comment: 'Please' });
  await list(people.tutor, w.project, w.td);
  const staff = [people.convenor.user.id, people.tutor.user.id, other.user.id];
  assert.equal(
    await receipts(second.body.id),
    [people.student.user.id, ...staff].sort((a, b) => a - b),
  );
  // The tutor's listing read the first one for everyone too: the convenor has nothing new.
  assert.equal(
    await receipts(first.body.id),
    [people.student.user.id, ...staff].sort((a, b) => a - b),
  );
  assert.equal(
    (await list(people.convenor, w.project, w.td)).body.map((c: Listed) => c.is_new),
    [false, false],
  );
});

test('an extension request stays new for the tutor it was sent to until assessed; the student reads it', async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td);
  const [id] = await insertComments(
    env.orm.em.fork(),
    [
      {
        taskId: task,
        authorId: people.student.user.id,
        recipientId: people.tutor.user.id,
        kind: 'extension',
        comment: 'More time',
        extensionWeeksRequested: 1,
      },
    ],
    env.clock.now(),
  );
  await post(people.tutor, w.project, w.td, { comment: 'Noted' });
  assert.is((await list(people.tutor, w.project, w.td)).body[0].is_new, true);
  const again = await list(people.tutor, w.project, w.td);
  assert.equal(
    again.body.map((c: Listed) => [c.type, c.is_new]),
    [
      ['extension', true],
      ['text', false],
    ],
  );
  assert.equal(await receipts(id), [people.student.user.id]);
  await k().updateTable('task_comments').set({ extension_assessed_at: env.clock.now().toISOString(), extension_granted: true }).where('id', '=', id).execute();
  await list(people.tutor, w.project, w.td);
  assert.is((await list(people.tutor, w.project, w.td)).body[0].is_new, false);
});

test('status comments are read by the student and the tutor from the start', async () => {
  const w = await taskWorld(env, people);
  assert.is((await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: people.student.creds, json: { trigger: 'rff' } })).status, 200);
  for (const who of [people.student, people.tutor]) {
    const res = await list(who, w.project, w.td);
    assert.equal(
      res.body.map((c: Listed) => [c.type, c.status, c.is_new]),
      [['status', 'ready_for_feedback', false]],
    );
  }
});

test("group tasks share their comments: a member sees what was said on another member's task", async () => {
  const w = await taskWorld(env, people);
  const other = await signedIn(env, 'bstudent', 'Student');
  const otherProject = await enrol(env, other.user, w.unit);
  const mine = await seedTask(env, w.project, w.td);
  const theirs = await seedTask(env, otherProject, w.td);
  const group = await k()
    .insertInto('group_sets')
    .values({ unit_id: w.unit, name: 'S' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const g = await k()
    .insertInto('groups')
    .values({ group_set_id: group.id, tutorial_id: w.tutorial, name: 'G' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const gs = await k()
    .insertInto('group_submissions')
    .values({ group_id: g.id, task_definition_id: w.td, created_at: env.clock.now().toISOString() } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await k().updateTable('tasks').set({ group_submission_id: gs.id }).where('id', 'in', [mine, theirs]).execute();
  await post(other, otherProject, w.td, { comment: 'From B' });
  await post(people.student, w.project, w.td, { comment: 'From A' });
  assert.equal(
    (await list(people.student, w.project, w.td)).body.map((c: Listed) => c.comment),
    ['From B', 'From A'],
  );
  assert.equal(
    (await list(other, otherProject, w.td)).body.map((c: Listed) => c.comment),
    ['From B', 'From A'],
  );
});

test('a discussion is not read by listing it', async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td);
  const [id] = await insertComments(
    env.orm.em.fork(),
    [{ taskId: task, authorId: people.tutor.user.id, recipientId: people.student.user.id, kind: 'discussion', comment: 'discussion comment' }],
    env.clock.now(),
  );
  await list(people.student, w.project, w.td);
  const again = await list(people.student, w.project, w.td);
  assert.equal(
    again.body.map((c: Listed) => [c.type, c.is_new, c.status]),
    [['discussion', true, 'not started']],
  );
  assert.equal(await receipts(id), [people.tutor.user.id]);
});

test.run();
