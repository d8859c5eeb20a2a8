import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { seedTask } from '../support/seed-enrolments.ts';
import { anotherStudent, anotherTutor, outsideTutor, taskWorld } from '../support/task-world.ts';
import { db } from '../../src/db/kysely.ts';

const test = suite('REST staff notes on a project: staff only, author edits, mentions in the inbox');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const notesUrl = (project: number) => `/api/projects/${project}/staff_notes`;
const inboxOf = async (unit: number, who: keyof People) => {
  const res = await api(env, 'GET', `/api/units/${unit}/tasks/inbox`, { as: people[who].creds });
  assert.is(res.status, 200, res.text);
  return res.body as { id: number; mentioned: number; escalated: number }[];
};
const noteCount = async () =>
  Number(
    (
      await db(env.orm.em.fork())
        .selectFrom('staff_notes')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test("a tutor's note mentioning the convenor puts the task in the convenor's inbox until seen; the student never sees it", async () => {
  const w = await taskWorld(env, people);
  // Not waiting on staff: only the mention brings it into an inbox.
  const task = await seedTask(env, w.project, w.td, { status: 'working_on_it' });
  assert.equal(await inboxOf(w.unit, 'convenor'), []);
  const created = await api(env, 'POST', notesUrl(w.project), {
    as: people.tutor.creds,
    json: { text: 'Secret: check the references with the convenor', mentioned_user_ids: [people.convenor.user.id] },
  });
  assert.is(created.status, 201, created.text);
  assert.is(created.body.author_id, people.tutor.user.id);
  assert.equal(
    created.body.mentions.map((m: { user_id: number; seen_at: string | null }) => [m.user_id, m.seen_at]),
    [[people.convenor.user.id, null]],
  );
  const inbox = await inboxOf(w.unit, 'convenor');
  assert.equal(
    inbox.map((t) => [t.id, t.mentioned]),
    [[task, 1]],
  );
  assert.equal(await inboxOf(w.unit, 'tutor'), [], "the author's own inbox is unchanged");

  // The student: 403 on the notes, and nothing of them in the project or task JSON.
  assert.is((await api(env, 'GET', notesUrl(w.project), { as: people.student.creds })).status, 403);
  assert.is((await api(env, 'POST', notesUrl(w.project), { as: people.student.creds, json: { text: 'x' } })).status, 403);
  const project = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.student.creds });
  assert.is(project.status, 200);
  assert.not.ok(project.text.includes('Secret'), 'the project JSON holds no note');
  assert.not.ok(project.text.includes('staff_note'), 'the project JSON names no note');

  const seen = await api(env, 'POST', `${notesUrl(w.project)}/${created.body.id}/seen`, { as: people.convenor.creds });
  assert.is(seen.status, 200, seen.text);
  assert.ok(seen.body.mentions[0].seen_at);
  assert.equal(await inboxOf(w.unit, 'convenor'), []);
  // The tutor is not mentioned: 404, and nothing changes.
  assert.is((await api(env, 'POST', `${notesUrl(w.project)}/${created.body.id}/seen`, { as: people.tutor.creds })).status, 404);
  const list = await api(env, 'GET', notesUrl(w.project), { as: people.convenor.creds });
  assert.equal(
    list.body.map((n: { text: string }) => n.text),
    ['Secret: check the references with the convenor'],
  );
});

test('a note about one task marks only that task; edits by the author re-mention, others are refused', async () => {
  const w = await taskWorld(env, people);
  const other = await anotherTutor(env, w, 'tutor2');
  const t1 = await seedTask(env, w.project, w.td, { status: 'working_on_it' });
  const { seedTaskDefinition } = await import('../support/seed-enrolments.ts');
  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  await seedTask(env, w.project, td2, { status: 'working_on_it' });
  const note = await api(env, 'POST', notesUrl(w.project), {
    as: people.tutor.creds,
    json: { text: 'about P1', task_definition_id: w.td, mentioned_user_ids: [people.convenor.user.id] },
  });
  assert.is(note.status, 201, note.text);
  assert.equal(
    (await inboxOf(w.unit, 'convenor')).map((t) => t.id),
    [t1],
  );
  const url = `${notesUrl(w.project)}/${note.body.id}`;
  const refused = await api(env, 'PUT', url, { as: other.creds, json: { text: 'mine now' } });
  assert.is(refused.status, 403);
  assert.is((await api(env, 'PUT', url, { as: people.convenor.creds, json: { text: 'mine now' } })).status, 403, 'a convenor does not edit');
  const edited = await api(env, 'PUT', url, { as: people.tutor.creds, json: { text: 'about P1, again', mentioned_user_ids: [other.user.id] } });
  assert.is(edited.status, 200, edited.text);
  assert.is(edited.body.text, 'about P1, again');
  assert.equal(
    edited.body.mentions.map((m: { user_id: number }) => m.user_id),
    [other.user.id],
  );
  assert.equal(await inboxOf(w.unit, 'convenor'), [], 'an unmentioned person leaves');
  // Another tutor cannot delete it; the convenor can.
  assert.is((await api(env, 'DELETE', url, { as: other.creds })).status, 403);
  assert.is((await api(env, 'DELETE', url, { as: people.convenor.creds })).status, 204);
  assert.is(await noteCount(), 0);
  assert.is((await api(env, 'DELETE', url, { as: people.tutor.creds })).status, 404);
});

test('bad input: 400 for a mention of a non-member of staff (nothing written), blank text, a foreign definition; 404 and 403 otherwise', async () => {
  const w = await taskWorld(env, people);
  const outsider = await outsideTutor(env);
  const second = await anotherStudent(env, w, 'student2');
  const post = (json: Record<string, unknown>, who = people.tutor.creds, project = w.project) => api(env, 'POST', notesUrl(project), { as: who, json });
  const student = await post({ text: 'x', mentioned_user_ids: [people.student.user.id] });
  assert.is(student.status, 400, student.text);
  assert.match(student.body.error, /not staff of this unit/);
  assert.is((await post({ text: 'x', mentioned_user_ids: [outsider.user.id] })).status, 400);
  assert.is((await post({ text: 'x', mentioned_user_ids: ['abc'] })).status, 400);
  assert.is((await post({ text: '   ' })).status, 400);
  assert.is((await post({ text: 'x'.repeat(10_001) })).status, 400);
  assert.is((await post({ text: 'x', task_definition_id: 999_999 })).status, 400);
  assert.is(await noteCount(), 0, 'nothing half-written');
  assert.is((await post({ text: 'x' }, people.tutor.creds, 999_999)).status, 404);
  assert.is((await post({ text: 'x' }, outsider.creds)).status, 403, 'staff of another unit');
  assert.is((await post({ text: 'x' }, people.admin.creds)).status, 403, 'an admin who is not staff');
  assert.is((await post({ text: 'x' }, second.actor.creds)).status, 403, 'another student');
  const note = await post({ text: 'fine' });
  assert.is(note.status, 201);
  // A note addressed through another project is unknown.
  const other = await api(env, 'PUT', `${notesUrl(second.project)}/${note.body.id}`, { as: people.tutor.creds, json: { text: 'y' } });
  assert.is(other.status, 404);
  assert.is((await api(env, 'PUT', `${notesUrl(w.project)}/${note.body.id}`, { as: people.tutor.creds, json: { text: '' } })).status, 400);
});

test.run();
