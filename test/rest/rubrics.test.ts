// Rubrics (docs/marking/rubrics.md): the rubric routes, marking, re-scoring and the CSV.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seedRubric } from '../../scripts/demo/rubric.ts';
import { db } from '../../src/db/kysely.ts';
import { readCsv } from '../../src/domain/csv.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { RUBRIC, rubricUrl } from '../support/rubric.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST rubrics');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'C1', { isGraded: true, maxQualityPts: 5 });
  const plain = await seedTaskDefinition(env, unit, 'P1');
  return { unit, project, td, plain };
}

const marksUrl = (project: number, td: number) => `/api/projects/${project}/task_def_id/${td}/rubric_marks`;

async function putRubric(as: Actor, unit: number, td: number, body: unknown = RUBRIC) {
  return api(env, 'PUT', rubricUrl(unit, td), { as: as.creds, json: body });
}

/** The level ids by title. */
function levels(rubric: { criteria: { levels: { id: number; title: string }[]; id: number }[] }) {
  const out: Record<string, { criterion_id: number; level_id: number }> = {};
  for (const c of rubric.criteria) for (const l of c.levels) out[l.title] = { criterion_id: c.id, level_id: l.id };
  return out;
}

test('the convenor sets a rubric; anyone in the unit reads it; tutors and outsiders may not change it', async () => {
  const w = await world();
  const res = await putRubric(people.convenor, w.unit, w.td);
  assert.is(res.status, 200, res.text);
  assert.is(res.body.max_score, 20);
  assert.equal(res.body.thresholds, { pass: 0.5, credit: 0.6, distinction: 0.7, high_distinction: 0.8 });
  assert.equal(
    res.body.criteria.map((c: { title: string; levels: { title: string }[] }) => [c.title, c.levels.map((l) => l.title)]),
    [
      ['Structure', ['Missing', 'Good', 'Excellent']],
      ['Testing', ['None', 'Some', 'Thorough']],
    ],
  );
  const read = await api(env, 'GET', rubricUrl(w.unit, w.td), { as: people.student.creds });
  assert.is(read.status, 200, read.text);
  assert.is(read.body.criteria[0].levels[2].description, 'A pleasure to read');

  assert.is((await putRubric(people.tutor, w.unit, w.td)).status, 403);
  assert.is((await putRubric(people.student, w.unit, w.td)).status, 403);
  const outsider = await signedIn(env, 'outsider', 'Convenor');
  assert.is((await putRubric(outsider, w.unit, w.td)).status, 403);
  assert.is((await putRubric(people.admin, w.unit, w.td)).status, 200);
  assert.is((await api(env, 'GET', rubricUrl(w.unit, w.plain), { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'GET', rubricUrl(w.unit, 999_999), { as: people.tutor.creds })).status, 404);
  // A definition of another unit is unknown here.
  const other = await seedUnit(env, { code: 'SIT202' });
  const foreign = await seedTaskDefinition(env, other, 'X1');
  assert.is((await putRubric(people.convenor, w.unit, foreign)).status, 404);
});

test('a bad rubric is a 400 naming the problem, and nothing is written', async () => {
  const w = await world();
  const bad: [unknown, RegExp][] = [
    [{ ...RUBRIC, criteria: [] }, /at least one criterion/],
    [{ ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0], title: '  ' }] }, /needs a title/],
    [{ ...RUBRIC, criteria: [RUBRIC.criteria[0], { ...RUBRIC.criteria[1], position: 1 }] }, /position 1/],
    [{ ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0], levels: [{ title: 'A', points: -1, position: 1 }] }] }, /between 0 and 10000/],
    [
      {
        ...RUBRIC,
        criteria: [
          {
            ...RUBRIC.criteria[0],
            levels: [
              { title: 'A', points: 1, position: 1 },
              { title: 'B', points: 2, position: 1 },
            ],
          },
        ],
      },
      /position 1/,
    ],
    [{ ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0], levels: [] }] }, /at least one level/],
    [{ ...RUBRIC, thresholds: { pass: 0.7, credit: 0.6, distinction: 0.8, high_distinction: 0.9 } }, /must not decrease/],
    [{ ...RUBRIC, criteria: 'lots' }, /./],
    [{ ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0], levels: [{ title: 'A', points: 'many', position: 1 }] }] }, /./],
    [{ ...RUBRIC, criteria: [{ ...RUBRIC.criteria[0], id: 424242 }] }, /not part of this rubric/],
  ];
  for (const [body, message] of bad) {
    const res = await putRubric(people.convenor, w.unit, w.td, body);
    assert.is(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.match(res.body.error, message);
  }
  // The grade mapping needs a graded definition, quality points a definition with some.
  const ungraded = await putRubric(people.convenor, w.unit, w.plain, RUBRIC);
  assert.is(ungraded.status, 400);
  assert.match(ungraded.body.error, /graded task definition/);
  assert.is((await putRubric(people.convenor, w.unit, w.plain, { ...RUBRIC, mapping: 'quality_pts' })).status, 400);
  const rows = await db(env.orm.em.fork()).selectFrom('rubrics').select('id').execute();
  assert.is(rows.length, 0);
});

test('a tutor marks a task: choices, score and the mapped grade; the student reads the levels with their descriptions', async () => {
  const w = await world();
  const rubric = (await putRubric(people.convenor, w.unit, w.td)).body;
  const l = levels(rubric);
  const res = await api(env, 'PUT', marksUrl(w.project, w.td), { as: people.tutor.creds, json: { choices: [l.Good, l.Some] } });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.score, 11);
  assert.is(res.body.max_score, 20);
  assert.is(res.body.grade, 0); // 11/20 = 0.55: a pass
  const task = await db(env.orm.em.fork()).selectFrom('tasks').select(['grade', 'status']).where('project_id', '=', w.project).executeTakeFirstOrThrow();
  assert.is(task.grade, 0);
  assert.is(task.status, 'not_started');

  const seen = await api(env, 'GET', marksUrl(w.project, w.td), { as: people.student.creds });
  assert.is(seen.status, 200, seen.text);
  assert.equal(seen.body.criteria[0].level, { id: l.Good.level_id, title: 'Good', description: 'Clear sections', points: 6 });
  assert.is(seen.body.criteria[0].description, 'How the work is organised');
  assert.is(seen.body.marker.name.length > 0, true);

  // Marked again: the choices are replaced.
  const again = await api(env, 'PUT', marksUrl(w.project, w.td), { as: people.convenor.creds, json: { choices: [l.Excellent, l.Thorough] } });
  assert.is(again.body.score, 20);
  assert.is(again.body.grade, 3);
  assert.is((await db(env.orm.em.fork()).selectFrom('rubric_mark_choices').select('id').execute()).length, 2);
});

test('marking: students and outsiders are refused, bad choices are 400s and leave nothing written', async () => {
  const w = await world();
  const rubric = (await putRubric(people.convenor, w.unit, w.td)).body;
  const l = levels(rubric);
  assert.is((await api(env, 'PUT', marksUrl(w.project, w.td), { as: people.student.creds, json: { choices: [l.Good, l.Some] } })).status, 403);
  const outsider = await signedIn(env, 'outsider', 'Tutor');
  assert.is((await api(env, 'PUT', marksUrl(w.project, w.td), { as: outsider.creds, json: { choices: [l.Good, l.Some] } })).status, 403);
  assert.is((await api(env, 'GET', marksUrl(w.project, w.td), { as: outsider.creds })).status, 403);
  const bad: [unknown, RegExp][] = [
    [{ choices: [l.Good] }, /Choose a level for criterion 'Testing'/],
    [{ choices: [l.Good, l.Excellent] }, /chosen twice/],
    [{ choices: [l.Good, { criterion_id: l.Some.criterion_id, level_id: l.Good.level_id }] }, /not a level of criterion/],
    [{ choices: [l.Good, { criterion_id: 999_999, level_id: l.Some.level_id }] }, /not part of this rubric/],
    [{ choices: 'all of them' }, /./],
    [{}, /./],
  ];
  for (const [body, message] of bad) {
    const res = await api(env, 'PUT', marksUrl(w.project, w.td), { as: people.tutor.creds, json: body });
    assert.is(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.match(res.body.error, message);
  }
  const k = db(env.orm.em.fork());
  assert.is((await k.selectFrom('rubric_marks').select('id').execute()).length, 0);
  assert.is((await k.selectFrom('tasks').select('id').where('project_id', '=', w.project).execute()).length, 0);
  assert.is((await api(env, 'GET', marksUrl(w.project, w.td), { as: people.student.creds })).status, 404);
  // No rubric on the definition: 404.
  assert.is((await api(env, 'PUT', marksUrl(w.project, w.plain), { as: people.tutor.creds, json: { choices: [] } })).status, 404);
});

/** `count` students, each marked Good + Some (11 of 20, a pass). */
async function markedClass(count: number) {
  const w = await world();
  const rubric = (await putRubric(people.convenor, w.unit, w.td)).body;
  const l = levels(rubric);
  const projects = [w.project];
  for (let i = 1; i < count; i++) {
    const s = await signedIn(env, `student${i}`, 'Student');
    projects.push(await enrol(env, s.user, w.unit));
  }
  for (const p of projects) {
    const res = await api(env, 'PUT', marksUrl(p, w.td), { as: people.tutor.creds, json: { choices: [l.Good, l.Some] } });
    assert.is(res.status, 200, res.text);
  }
  return { ...w, rubric, l, projects };
}

test("changing a level's points re-scores every task marked with it, records it in each task's history, in statements that do not grow with tasks", async () => {
  const small = await markedClass(2);
  const patch = (w: { unit: number; td: number; l: typeof small.l }, points: number) =>
    api(env, 'PATCH', `${rubricUrl(w.unit, w.td)}/levels/${w.l.Good.level_id}`, { as: people.convenor.creds, json: { points } });
  let res: Awaited<ReturnType<typeof patch>> | undefined;
  const fewStatements = await countStatements(async () => (res = await patch(small, 8)));
  assert.is(res!.status, 200, res!.text);
  assert.equal(res!.body.rescore, { rescored: 2, tasks_updated: 2 });

  const k = db(env.orm.em.fork());
  const tasks = await k.selectFrom('tasks').select(['grade']).where('task_definition_id', '=', small.td).execute();
  assert.equal(
    tasks.map((t) => t.grade),
    [1, 1],
  ); // 13/20 = 0.65: a credit
  const history = await k.selectFrom('task_comments').select(['comment', 'author_id', 'kind']).where('kind', '=', 'text').execute();
  assert.is(history.length, 2);
  assert.match(
    history[0].comment!,
    /Rubric re-scored: level 'Good' of 'Structure' now 8 points \(was 6\)\. Score 11 → 13 of 20\. Now grade C \(was grade P\)\./,
  );
  const mark = await api(env, 'GET', marksUrl(small.project, small.td), { as: people.student.creds });
  assert.is(mark.body.score, 13);
  assert.is(mark.body.criteria[0].level.points, 8);

  // Three times the tasks: the same number of statements.
  const more = await markedClassIn(6);
  const manyStatements = await countStatements(async () => (res = await patch(more, 8)));
  assert.is(res!.status, 200, res!.text);
  assert.equal(res!.body.rescore, { rescored: 6, tasks_updated: 6 });
  assert.is(manyStatements, fewStatements);
});

/** A second unit's class, in the same test (so the statement counts compare like with like). */
async function markedClassIn(count: number) {
  const unit = await seedUnit(env, { code: `SIT9${count}` });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const td = await seedTaskDefinition(env, unit, 'C1', { isGraded: true, maxQualityPts: 5 });
  const rubric = (await putRubric(people.convenor, unit, td)).body;
  const l = levels(rubric);
  const projects: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = await signedIn(env, `u${count}s${i}`, 'Student');
    projects.push(await enrol(env, s.user, unit));
  }
  for (const p of projects) {
    const res = await api(env, 'PUT', marksUrl(p, td), { as: people.tutor.creds, json: { choices: [l.Good, l.Some] } });
    assert.is(res.status, 200, res.text);
  }
  return { unit, td, l, project: projects[0], projects };
}

test('the whole-rubric PUT re-scores too; a level a mark chose can not be removed; tutors may not patch', async () => {
  const w = await markedClass(2);
  const tutorPatch = await api(env, 'PATCH', `${rubricUrl(w.unit, w.td)}/levels/${w.l.Good.level_id}`, { as: people.tutor.creds, json: { points: 1 } });
  assert.is(tutorPatch.status, 403);
  const badPatch = await api(env, 'PATCH', `${rubricUrl(w.unit, w.td)}/levels/${w.l.Good.level_id}`, { as: people.convenor.creds, json: { points: -3 } });
  assert.is(badPatch.status, 400);
  const unknown = await api(env, 'PATCH', `${rubricUrl(w.unit, w.td)}/levels/999999`, { as: people.convenor.creds, json: { points: 3 } });
  assert.is(unknown.status, 404);

  const withIds = structuredClone(w.rubric) as typeof w.rubric;
  // Quality points instead of a grade, and Some worth 9: 15/20 of 5 quality points = 3.75 → 4.
  withIds.mapping = 'quality_pts';
  withIds.criteria[1].levels[1].points = 9;
  const res = await putRubric(people.convenor, w.unit, w.td, withIds);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.rescore, { rescored: 2, tasks_updated: 2 });
  const k = db(env.orm.em.fork());
  const tasks = await k.selectFrom('tasks').select(['quality_pts']).where('task_definition_id', '=', w.td).execute();
  assert.equal(
    tasks.map((t) => t.quality_pts),
    [4, 4],
  );

  // Removing the chosen "Good" level is refused, and the rubric stays as it was.
  const without = structuredClone(withIds);
  without.criteria[0].levels = without.criteria[0].levels.filter((l: { title: string }) => l.title !== 'Good');
  const refused = await putRubric(people.convenor, w.unit, w.td, without);
  assert.is(refused.status, 400);
  assert.match(refused.body.error, /chosen in a mark/);
  const after = await api(env, 'GET', rubricUrl(w.unit, w.td), { as: people.tutor.creds });
  assert.is(after.body.criteria[0].levels.length, 3);
  assert.is(after.body.mapping, 'quality_pts');
});

test('the CSV has one row per enrolled student with each criterion, the score, the grade and the marker', async () => {
  const w = await markedClass(2);
  const unmarked = await signedIn(env, 'zstudent', 'Student');
  await enrol(env, unmarked.user, w.unit);
  const res = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/rubric_marks/csv`, { as: people.tutor.creds });
  assert.is(res.status, 200, res.text);
  const csv = await readCsv(res.text);
  assert.equal(csv.headers, [
    'username',
    'name',
    'structure_level',
    'structure_points',
    'testing_level',
    'testing_points',
    'score',
    'max_score',
    'grade',
    'quality_points',
    'marker',
  ]);
  assert.match(res.text, /^Username,Name,Structure level,Structure points,Testing level,Testing points,Score,Max score,Grade,Quality points,Marker\r\n/);
  assert.is(csv.rows.length, 3);
  const first = csv.rows.find((r) => Object.values(r)[0] === 'astudent')!;
  assert.equal(Object.values(first).slice(2), ['Good', '6', 'Some', '5', '11', '20', 'P', '', 'atutor']);
  const last = csv.rows.find((r) => Object.values(r)[0] === 'zstudent')!;
  assert.equal(Object.values(last).slice(2, 7), ['', '', '', '', '']);
  assert.is((await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/rubric_marks/csv`, { as: people.student.creds })).status, 403);
});

test('the demo seed function creates a rubric and marks', async () => {
  const w = await world();
  const s = await signedIn(env, 'bstudent', 'Student');
  await enrol(env, s.user, w.unit);
  for (const p of [w.project])
    await api(env, 'PUT', `/api/projects/${p}/task_def_id/${w.td}`, { as: people.student.creds, json: { trigger: 'working_on_it' } });
  const result = await env.orm.em.fork().transactional((em) => seedRubric(em, w.unit, w.td, people.tutor.user.id, 5, env.clock.now()));
  assert.is(result.marked, 1);
  const mark = await api(env, 'GET', marksUrl(w.project, w.td), { as: people.student.creds });
  assert.is(mark.status, 200, mark.text);
  assert.is(mark.body.criteria.length, 4);
});

test.run();
