import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { Actor, People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { codeWorld, compareDefinition, DISGUISED, mossRows, ORIGINAL, type CodeWorld } from '../support/code-world.ts';
import { freshEachTest } from '../support/suite.ts';
import { outsideTutor } from '../support/task-world.ts';

const test = suite('REST /api/tasks/{task_id}/similarities');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const list = (who: Actor, task: number) => api(env, 'GET', `/api/tasks/${task}/similarities/`, { as: who.creds, hyphenHeader: true });
const flag = (who: Actor, task: number, id: number, flagged: boolean) =>
  api(env, 'PUT', `/api/tasks/${task}/similarities/${id}`, { as: who.creds, json: { flagged } });
const contents = (who: Actor, task: number, id: number, idx: number, query?: Record<string, unknown>) =>
  api(env, 'GET', `/api/tasks/${task}/similarities/${id}/contents/${idx}`, { as: who.creds, query });

/** The three students' work compared: the first two tasks are a flagged pair. */
async function compared(): Promise<CodeWorld & { ids: number[] }> {
  const w = await codeWorld(env, people);
  await compareDefinition(env, w.td);
  const rows = await mossRows(env);
  return { ...w, ids: rows.map((r) => r.id) };
}

test("staff list a task's similarities in the spec's shape and the web client's at once", async () => {
  const w = await compared();
  const [a, b] = w.tasks;
  const rows = await mossRows(env);
  const mine = rows.find((r) => r.task_id === a)!;
  const theirs = rows.find((r) => r.task_id === b)!;
  for (const who of [people.tutor, people.convenor]) {
    const res = await list(who, a);
    assert.is(res.status, 200);
    assert.equal(res.body, [
      {
        id: mine.id,
        task_id: a,
        flagged: true,
        similarity_details: { type: 'MossTaskSimilarity', pct: mine.pct },
        type: 'MossTaskSimilarity',
        pct: mine.pct,
        ready_for_viewer: false,
        parts: [
          { idx: 0, format: 'html', description: `${people.student.user.firstName} ${people.student.user.lastName} (astudent) - ${mine.pct}%` },
          {
            idx: 1,
            format: 'html',
            description: `Match: ${w.students[1].actor.user.firstName} ${w.students[1].actor.user.lastName} (bstudent) - ${theirs.pct}%`,
          },
        ],
      },
    ]);
  }
  assert.equal((await list(people.tutor, w.tasks[2])).body, [], 'the independent work has none');
});

test("refusals: students (even their own task) and other units' staff 403; unknown tasks and similarities 404", async () => {
  const w = await compared();
  const [a, b] = w.tasks;
  const [mine, theirs] = w.ids;
  const outsider = await outsideTutor(env);
  for (const who of [people.student, outsider]) {
    assert.is((await list(who, a)).status, 403);
    assert.is((await flag(who, a, mine, false)).status, 403);
    assert.is((await contents(who, a, mine, 0)).status, 403);
    assert.is((await api(env, 'GET', `/api/tasks/${a}/similarities/${mine}/viewer_url`, { as: who.creds })).status, 403);
  }
  const refused = await list(people.student, a);
  assert.equal(refused.body, { error: 'Not authorised to view the similarities of this task' });
  assert.equal((await list(people.tutor, 999_999)).body, { error: 'Unable to find requested Task' });
  assert.is((await list(people.tutor, 999_999)).status, 404);
  // A similarity of another task is unknown on this one.
  const other = await flag(people.tutor, a, theirs, false);
  assert.equal([other.status, other.body], [404, { error: 'Unable to find requested Similarity' }]);
  assert.is((await contents(people.tutor, b, 999_999, 0)).status, 404);
  assert.ok(
    (await mossRows(env)).every((r) => r.flagged),
    'nothing changed',
  );
});

test('dismissing a flag takes the task off the flagged inbox, task list and student list; flagging again puts it back', async () => {
  const w = await compared();
  const [a, b] = w.tasks;
  const mine = w.ids[0];
  const flags = async () => {
    const inbox = await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.tutor.creds });
    const tasks = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/tasks`, { as: people.tutor.creds });
    const students = await api(env, 'GET', '/api/students', { as: people.tutor.creds, query: { unit_id: w.unit } });
    const byTask = (rows: { id: number; similarity_flag: boolean }[]) => w.tasks.map((t) => rows.find((r) => r.id === t)?.similarity_flag);
    return {
      inbox: byTask(inbox.body),
      tasks: byTask(tasks.body),
      students: w.students.map((s) => students.body.find((p: { id: number }) => p.id === s.project).similarity_flag),
    };
  };
  assert.equal(await flags(), { inbox: [true, true, false], tasks: [true, true, false], students: [true, true, false] });

  const res = await flag(people.tutor, a, mine, false);
  assert.is(res.status, 200);
  assert.is(res.body.flagged, false);
  assert.is(res.body.id, mine);
  assert.equal(res.body.similarity_details.type, 'MossTaskSimilarity');
  assert.equal(await flags(), { inbox: [false, true, false], tasks: [false, true, false], students: [false, true, false] });
  assert.equal((await list(people.tutor, a)).body[0].flagged, false, 'still listed, dismissed');

  const again = await flag(people.convenor, a, mine, true);
  assert.equal([again.status, again.body.flagged], [200, true]);
  assert.equal((await flags()).inbox, [true, true, false]);
  assert.is((await flag(people.tutor, b, w.ids[1], false)).status, 200);
  assert.equal(await flags(), { inbox: [true, false, false], tasks: [true, false, false], students: [true, false, false] });
});

test("contents: part 0 is this task's code and part 1 the other's, as plain text to save; other parts 404; moss has no viewer", async () => {
  const w = await compared();
  const [a] = w.tasks;
  const mine = w.ids[0];
  const own = await contents(people.tutor, a, mine, 0);
  assert.is(own.status, 200);
  assert.match(String(own.headers['content-type']), /^text\/plain/);
  assert.is(own.text, ORIGINAL);
  // Text is saved, never shown in the page: a student's code may be HTML (the web client reads it as a blob either way).
  assert.match(String(own.headers['content-disposition']), /^attachment/);
  const other = await contents(people.tutor, a, mine, 1, { as_attachment: true });
  assert.is(other.text, DISGUISED);
  assert.match(String(other.headers['content-disposition']), /^attachment/);
  const beyond = await contents(people.tutor, a, mine, 2);
  assert.equal([beyond.status, beyond.body], [404, { error: 'No details to download for this similarity' }]);
  const viewer = await api(env, 'GET', `/api/tasks/${a}/similarities/${mine}/viewer_url`, { as: people.tutor.creds });
  assert.equal([viewer.status, viewer.body], [404, { error: 'Code similarities have no viewer; download their contents instead' }]);
});

test('a bad flag value is a 400 naming the field', async () => {
  const w = await compared();
  const res = await api(env, 'PUT', `/api/tasks/${w.tasks[0]}/similarities/${w.ids[0]}`, { as: people.tutor.creds, json: {} });
  assert.is(res.status, 400);
  assert.match(res.body.error, /flagged/);
  assert.ok((await db(env.orm.em.fork()).selectFrom('task_similarities').select('flagged').execute()).every((r) => r.flagged));
});

test.run();
