// DELETE /api/units/{unit_id}/task_definitions/{task_def_id}/rubric (docs/marking/rubrics.md):
// refused while tasks are marked with it unless forced; forced, the marks go, the tasks keep their
// grades, and each marked task's history says so.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { db } from '../../src/db/kysely.ts';
import { deleteRubric } from '../../src/operations/units/task_definitions/rubric/delete-rubric.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { RUBRIC, rubricUrl } from '../support/rubric.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST rubric delete');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A unit with a graded definition C1 that has the rubric, and `marked` students marked Good + Some. */
async function unitWith(code: string, marked: number) {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const td = await seedTaskDefinition(env, unit, 'C1', { isGraded: true, maxQualityPts: 5 });
  const rubric = await api(env, 'PUT', rubricUrl(unit, td), { as: people.convenor.creds, json: RUBRIC });
  assert.is(rubric.status, 200, rubric.text);
  const choices = rubric.body.criteria.map((c: { id: number; levels: { id: number }[] }) => ({ criterion_id: c.id, level_id: c.levels[1].id }));
  const projects: number[] = [];
  for (let i = 0; i < marked; i++) {
    const student = i === 0 && code === 'SIT101' ? people.student : await signedIn(env, `${code.toLowerCase()}s${i}`, 'Student');
    const project = await enrol(env, student.user, unit);
    const res = await api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}/rubric_marks`, { as: people.tutor.creds, json: { choices } });
    assert.is(res.status, 200, res.text);
    projects.push(project);
  }
  return { unit, td, projects };
}

/** Rows of every rubric table, and the unit's tasks with their grades and statuses. */
async function state(td: number) {
  const k = db(env.orm.em.fork());
  const count = async (table: 'rubrics' | 'rubric_criteria' | 'rubric_levels' | 'rubric_marks' | 'rubric_mark_choices') =>
    (await k.selectFrom(table).select('id').execute()).length;
  return {
    rubrics: await count('rubrics'),
    criteria: await count('rubric_criteria'),
    levels: await count('rubric_levels'),
    marks: await count('rubric_marks'),
    choices: await count('rubric_mark_choices'),
    tasks: await k.selectFrom('tasks').select(['grade', 'quality_pts', 'status']).where('task_definition_id', '=', td).orderBy('id').execute(),
  };
}

test('a rubric without marks: Convenor or Admin deletes it; students, tutors and outsiders may not; unknown unit, definition or no rubric is 404', async () => {
  const w = await unitWith('SIT101', 0);
  const other = await seedUnit(env, { code: 'SIT202' });
  const foreign = await seedTaskDefinition(env, other, 'X1');
  const plain = await seedTaskDefinition(env, w.unit, 'P1');
  await enrol(env, people.student.user, w.unit);
  const outsider = await signedIn(env, 'outsider', 'Convenor');
  for (const as of [people.student, people.tutor, outsider]) {
    const res = await api(env, 'DELETE', rubricUrl(w.unit, w.td), { as: as.creds });
    assert.is(res.status, 403, `${as.user.username}: ${res.text}`);
    assert.match(res.body.error, /Not authorised to change rubrics/);
  }
  for (const [unit, td] of [
    [999_999, w.td],
    [w.unit, 999_999],
    [w.unit, foreign],
    [w.unit, plain],
  ]) {
    const res = await api(env, 'DELETE', rubricUrl(unit, td), { as: people.convenor.creds });
    assert.is(res.status, 404, `${unit}/${td}: ${res.text}`);
    assert.type(res.body.error, 'string');
  }
  assert.equal((await state(w.td)).rubrics, 1);

  const res = await api(env, 'DELETE', rubricUrl(w.unit, w.td), { as: people.convenor.creds });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { marks_deleted: 0 });
  const after = await state(w.td);
  assert.equal([after.rubrics, after.criteria, after.levels], [0, 0, 0]);
  assert.is((await api(env, 'GET', rubricUrl(w.unit, w.td), { as: people.convenor.creds })).status, 404);
  const again = await api(env, 'DELETE', rubricUrl(w.unit, w.td), { as: people.convenor.creds });
  assert.is(again.status, 404);
  assert.match(again.body.error, /has no rubric/);

  // An Admin may too, and a new rubric can be made afterwards.
  assert.is((await api(env, 'PUT', rubricUrl(w.unit, w.td), { as: people.convenor.creds, json: RUBRIC })).status, 200);
  assert.is((await api(env, 'DELETE', rubricUrl(w.unit, w.td), { as: people.admin.creds })).status, 200);
});

test('a marked rubric is refused with 400 and nothing changes; with force=true its marks go, the tasks keep their grades, each gets a history comment', async () => {
  const w = await unitWith('SIT101', 2);
  const before = await state(w.td);
  assert.equal([before.rubrics, before.marks, before.choices], [1, 2, 4]);
  assert.equal(
    before.tasks.map((t) => t.grade),
    [0, 0],
  );

  for (const url of [rubricUrl(w.unit, w.td), `${rubricUrl(w.unit, w.td)}?force=false`]) {
    const refused = await api(env, 'DELETE', url, { as: people.convenor.creds });
    assert.is(refused.status, 400, refused.text);
    assert.match(refused.body.error, /^2 tasks are marked with this rubric; delete it with force=true/);
  }
  assert.equal(await state(w.td), before);
  // A tutor can not force it either.
  assert.is((await api(env, 'DELETE', `${rubricUrl(w.unit, w.td)}?force=true`, { as: people.tutor.creds })).status, 403);

  const res = await api(env, 'DELETE', `${rubricUrl(w.unit, w.td)}?force=true`, { as: people.convenor.creds });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { marks_deleted: 2 });
  const after = await state(w.td);
  assert.equal({ ...after, tasks: undefined }, { rubrics: 0, criteria: 0, levels: 0, marks: 0, choices: 0, tasks: undefined });
  assert.equal(after.tasks, before.tasks, 'grades, quality points and statuses as they were');

  const k = db(env.orm.em.fork());
  const history = await k
    .selectFrom('task_comments as c')
    .innerJoin('tasks as t', 't.id', 'c.task_id')
    .select(['t.project_id', 'c.comment', 'c.kind', 'c.author_id'])
    .where('c.kind', '=', 'text')
    .orderBy('t.project_id')
    .execute();
  assert.equal(
    history.map((h) => h.project_id),
    w.projects,
  );
  for (const h of history) {
    assert.is(h.author_id, people.convenor.user.id);
    assert.is(h.comment, "Rubric removed: the task's rubric mark (11 of 20) was deleted with the rubric. The task keeps grade P.");
  }
  // The student reads it in the task's comments, and the mark is gone.
  const comments = await api(env, 'GET', `/api/projects/${w.projects[0]}/task_def_id/${w.td}/comments`, { as: people.student.creds });
  assert.is(comments.status, 200, comments.text);
  assert.ok(JSON.stringify(comments.body).includes('Rubric removed'));
  assert.is((await api(env, 'GET', `/api/projects/${w.projects[0]}/task_def_id/${w.td}/rubric_marks`, { as: people.student.creds })).status, 404);
});

test('forced deletion takes the same statements for 2 and for 6 marks', async () => {
  const warm = await unitWith('WRM101', 1);
  const few = await unitWith('FEW101', 2);
  const many = await unitWith('MNY101', 6);
  const measure = async (w: { unit: number; td: number }, marks: number) => {
    let body: unknown;
    const n = await countStatements(
      async () => (body = (await api(env, 'DELETE', `${rubricUrl(w.unit, w.td)}?force=true`, { as: people.convenor.creds })).body),
    );
    assert.equal(body, { marks_deleted: marks });
    return n;
  };
  await measure(warm, 1); // warms the session cache, which would otherwise count once
  const small = await measure(few, 2);
  const large = await measure(many, 6);
  assert.is(large, small, `statements: ${small} for 2 marks, ${large} for 6`);
});

test('tRPC units.taskDefinitions.rubric.delete: the same rules, force as a field', async () => {
  const w = await unitWith('SIT101', 1);
  const as = (creds: typeof people.convenor.creds) => createCallerFactory(appRouter)(createContext(env.services, creds)).units.taskDefinitions.rubric;
  const refused = async (call: Promise<unknown>) => {
    const error = await call.then(
      () => assert.unreachable('answered'),
      (e: unknown) => e,
    );
    assert.instance(error, TRPCError);
    return error as TRPCError;
  };
  const tutor = await refused(as(people.tutor.creds).delete({ unit_id: w.unit, task_def_id: w.td, force: true }));
  assert.is(tutor.code, 'FORBIDDEN');
  const unforced = await refused(as(people.convenor.creds).delete({ unit_id: w.unit, task_def_id: w.td }));
  assert.equal([unforced.code, unforced.message.startsWith('1 task is marked with this rubric')], ['BAD_REQUEST', true]);
  assert.equal(await as(people.convenor.creds).delete({ unit_id: w.unit, task_def_id: w.td, force: true }), { marks_deleted: 1 });
  assert.is((await refused(as(people.convenor.creds).delete({ unit_id: w.unit, task_def_id: w.td }))).code, 'NOT_FOUND');
});

test('deleting a task definition whose rubric has marks takes the rubric and the marks with it', async () => {
  const w = await unitWith('SIT101', 2);
  const res = await api(env, 'DELETE', `/api/units/${w.unit}/task_definitions/${w.td}`, { as: people.convenor.creds });
  assert.is(res.status, 200, res.text);
  const after = await state(w.td);
  assert.equal([after.rubrics, after.criteria, after.levels, after.marks, after.choices, after.tasks.length], [0, 0, 0, 0, 0, 0]);
});

test('a mark saved while the rubric is being deleted waits for the delete and then answers 404, not a broken reference', async () => {
  const w = await unitWith('SIT101', 0);
  const project = await enrol(env, people.student.user, w.unit);
  const rubric = (await api(env, 'GET', rubricUrl(w.unit, w.td), { as: people.tutor.creds })).body;
  const choices = rubric.criteria.map((c: { id: number; levels: { id: number }[] }) => ({ criterion_id: c.id, level_id: c.levels[1].id }));
  let marking: Promise<Awaited<ReturnType<typeof api>>> | undefined;
  await env.orm.em.fork().transactional(async (em) => {
    await deleteRubric(em, w.unit, w.td, true, people.convenor.user.id, env.clock.now());
    // The delete holds the rubric; the tutor marks now, and must wait for it.
    marking = api(env, 'PUT', `/api/projects/${project}/task_def_id/${w.td}/rubric_marks`, { as: people.tutor.creds, json: { choices } });
    const k = db(env.orm.em.fork());
    for (let i = 0; ; i++) {
      const waiting = await sql<{
        n: string;
      }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(k);
      if (Number(waiting.rows[0].n) > 0) break;
      assert.ok(i < 2000, 'the mark never waited for the delete');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
  const res = await marking!;
  assert.is(res.status, 404, res.text);
  assert.match(res.body.error, /has no rubric/);
  assert.equal((await state(w.td)).marks, 0);
});

test.run();
