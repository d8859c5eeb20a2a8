// /api/units/{unit_id}/learning_alignments: the unit's own alignments (its Convenor or an Admin),
// a student's self-assessments (the student or the unit's staff), and both as CSV.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LearningAlignment, LearningOutcome, Task } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/units/{unit_id}/learning_alignments');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const NOT_IN_UNIT = { error: 'You are not authorised to access this unit.' };

async function seedOutcome(unit: number, abbreviation: string, iloNumber: number): Promise<number> {
  const em = env.orm.em.fork();
  const outcome = em.create(LearningOutcome, { unit, iloNumber, abbreviation, name: `Outcome ${abbreviation}`, description: 'd' });
  await em.flush();
  return outcome.id;
}

/**
 * SIT101: convened by people.convenor, tutored by people.tutor, with people.student and a second
 * student enrolled; definitions P1 and C1, outcomes PROG and DES. SIT102 beside it, tutored by
 * its own tutor, with its own definition and outcome.
 */
async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const classmate: Actor = await signedIn(env, 'bstudent', 'Student');
  const classmateProject = await enrol(env, classmate.user, unit);
  const p1 = await seedTaskDefinition(env, unit, 'P1');
  const c1 = await seedTaskDefinition(env, unit, 'C1', { targetGrade: 1 });
  const prog = await seedOutcome(unit, 'PROG', 1);
  const des = await seedOutcome(unit, 'DES', 2);

  const other = await seedUnit(env, { code: 'SIT102' });
  const otherTutor: Actor = await signedIn(env, 'otutor', 'Tutor');
  await employ(env, otherTutor.user, other, 'Tutor');
  const otherDefinition = await seedTaskDefinition(env, other, 'X1');
  const otherOutcome = await seedOutcome(other, 'XO', 1);
  const otherProject = await enrol(env, classmate.user, other);
  return { unit, project, classmate, classmateProject, p1, c1, prog, des, other, otherTutor, otherDefinition, otherOutcome, otherProject };
}

type World = Awaited<ReturnType<typeof world>>;

async function stored(): Promise<{ outcome: number; definition: number; task: number | null; rating: number; description: string | null }[]> {
  const rows = await env.orm.em.fork().find(LearningAlignment, {}, { orderBy: { id: 'asc' } });
  const id = (ref: unknown) => (ref === null || ref === undefined ? null : (ref as { id: number }).id);
  return rows.map((a) => ({
    outcome: id(a.learningOutcome)!,
    definition: id(a.taskDefinition)!,
    task: id(a.task),
    rating: a.rating,
    description: a.description ?? null,
  }));
}

async function unitAlignment(w: World, outcome: number, definition: number, rating = 3): Promise<number> {
  const res = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, {
    as: people.convenor.creds,
    json: { learning_outcome_id: outcome, task_definition_id: definition, rating, description: 'Aligned' },
  });
  assert.is(res.status, 201, res.text);
  return res.body.id;
}

test('unit alignment: the web client flat JSON (task_id null) and the spec form make it; GET lists the unit alignments', async () => {
  const w = await world();
  const first = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/`, {
    as: people.convenor.creds,
    json: { description: 'Writes programs', rating: 4, learning_outcome_id: w.prog, task_definition_id: w.p1, task_id: null },
  });
  assert.is(first.status, 201, first.text);
  assert.equal(first.body, { id: first.body.id, description: 'Writes programs', rating: 4, learning_outcome_id: w.prog, task_definition_id: w.p1 });
  // An Admin who is not staff manages the unit too; the spec's form body.
  const second = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, {
    as: people.admin.creds,
    form: { learning_outcome_id: String(w.des), task_definition_id: String(w.c1), rating: '2', description: 'Designs' },
  });
  assert.is(second.status, 201, second.text);
  assert.equal(await stored(), [
    { outcome: w.prog, definition: w.p1, task: null, rating: 4, description: 'Writes programs' },
    { outcome: w.des, definition: w.c1, task: null, rating: 2, description: 'Designs' },
  ]);
  // Anyone in the unit reads them in the unit detail (where the web client reads them), students included.
  for (const who of [people.student, people.tutor, people.convenor]) {
    const detail = await api(env, 'GET', `/api/units/${w.unit}`, { as: who.creds });
    assert.is(detail.status, 200);
    assert.equal(detail.body.task_outcome_alignments, [first.body, second.body]);
  }
});

test('GET learning_alignments needs project_id, as the spec marks it (Q: project_id*): 400 without it', async () => {
  const w = await world();
  await unitAlignment(w, w.prog, w.p1);
  const missing = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments`, { as: people.convenor.creds });
  assert.equal([missing.status, missing.body], [400, { error: 'project_id is missing' }]);
  for (const project_id of ['', 'x']) {
    const bad = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments`, { as: people.convenor.creds, query: { project_id } });
    assert.equal([bad.status, bad.body], [400, { error: 'project_id is invalid' }], project_id);
  }
});

test('unit alignment: tutors and students are refused changes, tutors of another unit everything; nothing is written', async () => {
  const w = await world();
  const id = await unitAlignment(w, w.prog, w.p1);
  const body = { learning_outcome_id: w.des, task_definition_id: w.p1, rating: 1, description: 'x' };
  for (const who of [people.tutor, people.student]) {
    const create = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: who.creds, json: body });
    assert.equal([create.status, create.body], [403, { error: 'You are not authorised to create task alignments in this unit.' }], who.creds.username);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await api(env, method, `/api/units/${w.unit}/learning_alignments/${id}`, { as: who.creds, json: { rating: 1 } });
      assert.equal(
        [res.status, res.body],
        [403, { error: 'You are not authorised to update the task alignments in this unit.' }],
        `${method} ${who.creds.username}`,
      );
    }
  }
  for (const [method, url] of [
    ['GET', `/api/units/${w.unit}/learning_alignments?project_id=${w.project}`],
    ['POST', `/api/units/${w.unit}/learning_alignments`],
    ['PUT', `/api/units/${w.unit}/learning_alignments/${id}`],
    ['DELETE', `/api/units/${w.unit}/learning_alignments/${id}`],
  ] as const) {
    const res = await api(env, method, url, { as: w.otherTutor.creds, json: method === 'GET' ? undefined : body });
    assert.equal([res.status, res.body], [403, NOT_IN_UNIT], `${method} ${url}`);
  }
  assert.equal(await stored(), [{ outcome: w.prog, definition: w.p1, task: null, rating: 3, description: 'Aligned' }]);
});

test('update changes only the fields sent; delete answers 204 and removes it', async () => {
  const w = await world();
  const id = await unitAlignment(w, w.prog, w.p1);
  const rating = await api(env, 'PUT', `/api/units/${w.unit}/learning_alignments/${id}`, { as: people.convenor.creds, json: { rating: 5 } });
  assert.equal([rating.status, rating.body], [200, { id, description: 'Aligned', rating: 5, learning_outcome_id: w.prog, task_definition_id: w.p1 }]);
  const text = await api(env, 'PUT', `/api/units/${w.unit}/learning_alignments/${id}`, { as: people.admin.creds, form: { description: 'Strongly' } });
  assert.equal([text.status, text.body.description, text.body.rating], [200, 'Strongly', 5]);
  const none = await api(env, 'PUT', `/api/units/${w.unit}/learning_alignments/${id}`, { as: people.convenor.creds, json: {} });
  assert.equal([none.status, none.body.rating], [200, 5]);
  const gone = await api(env, 'DELETE', `/api/units/${w.unit}/learning_alignments/${id}`, { as: people.convenor.creds });
  assert.equal([gone.status, gone.text], [204, '']);
  assert.equal(await stored(), []);
});

test("a student's alignment: by project_id (the task is made) or the web client's task_id; the student and the unit's staff", async () => {
  const w = await world();
  // The spec's form: project_id, and the student has not touched the task yet.
  const byProject = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, {
    as: people.student.creds,
    json: { project_id: w.project, learning_outcome_id: w.prog, task_definition_id: w.p1, rating: 2, description: 'I think so' },
  });
  assert.is(byProject.status, 201, byProject.text);
  const task = await env.orm.em.fork().findOneOrFail(Task, { project: w.project, taskDefinition: w.p1 });
  assert.equal(byProject.body, {
    id: byProject.body.id,
    description: 'I think so',
    rating: 2,
    learning_outcome_id: w.prog,
    task_definition_id: w.p1,
    task_id: task.id,
  });
  assert.is(task.status, 'not_started');
  // The web client's form: the task's id, no project_id; here the student's tutor aligns it.
  const c1Task = await seedTask(env, w.project, w.c1, { status: 'working_on_it' });
  const byTask = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/`, {
    as: people.tutor.creds,
    json: { description: 'Tutor view', rating: 4, learning_outcome_id: w.des, task_definition_id: w.c1, task_id: c1Task },
  });
  assert.is(byTask.status, 201, byTask.text);
  assert.is(byTask.body.task_id, c1Task);

  const mine = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments`, { as: people.student.creds, query: { project_id: w.project } });
  assert.equal([mine.status, mine.body], [200, [byProject.body, byTask.body]]);
  // Self-assessments are not the unit's alignments, and show in the project detail.
  const unitOnes = await api(env, 'GET', `/api/units/${w.unit}`, { as: people.student.creds });
  assert.equal(unitOnes.body.task_outcome_alignments, []);
  const project = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.student.creds });
  assert.equal(project.body.task_outcome_alignments, [byProject.body, byTask.body]);

  const changed = await api(env, 'PUT', `/api/units/${w.unit}/learning_alignments/${byProject.body.id}`, { as: people.student.creds, json: { rating: 3 } });
  assert.equal([changed.status, changed.body], [200, { ...byProject.body, rating: 3 }]);
  const removed = await api(env, 'DELETE', `/api/units/${w.unit}/learning_alignments/${byTask.body.id}`, { as: people.convenor.creds });
  assert.is(removed.status, 204);
  assert.equal(await stored(), [{ outcome: w.prog, definition: w.p1, task: task.id, rating: 3, description: 'I think so' }]);
});

test("a student's alignment: another student, an Admin off the staff and a tutor of another unit are refused; nothing changes", async () => {
  const w = await world();
  const own = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, {
    as: people.student.creds,
    json: { project_id: w.project, learning_outcome_id: w.prog, task_definition_id: w.p1, rating: 2, description: 'Mine' },
  });
  assert.is(own.status, 201);
  const body = { project_id: w.project, learning_outcome_id: w.des, task_definition_id: w.p1, rating: 5, description: 'Not yours' };
  for (const who of [w.classmate, people.admin]) {
    const create = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: who.creds, json: body });
    assert.equal([create.status, create.body], [403, { error: 'You are not authorised to create outcome alignments for this task.' }], who.creds.username);
    const byTask = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, {
      as: who.creds,
      json: { ...body, project_id: undefined, task_id: own.body.task_id },
    });
    assert.equal([byTask.status, byTask.body], [403, { error: 'You are not authorised to create outcome alignments for this task.' }]);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await api(env, method, `/api/units/${w.unit}/learning_alignments/${own.body.id}`, { as: who.creds, json: { rating: 5 } });
      assert.equal([res.status, res.body], [403, { error: 'You are not authorised to update outcome alignments for this task.' }], method);
    }
    const list = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments`, { as: who.creds, query: { project_id: w.project } });
    assert.equal([list.status, list.body], [403, { error: 'You are not authorised to access this project.' }]);
  }
  const outsider = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: w.otherTutor.creds, json: body });
  assert.equal([outsider.status, outsider.body], [403, NOT_IN_UNIT]);
  assert.equal(await stored(), [{ outcome: w.prog, definition: w.p1, task: own.body.task_id, rating: 2, description: 'Mine' }]);
});

test('bad input is a 400 naming the field; a pair is aligned once for the unit and once per task', async () => {
  const w = await world();
  const base = { learning_outcome_id: w.prog, task_definition_id: w.p1, rating: 3, description: 'd' };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...base, rating: 0 }, 'rating is not a rating from 1 to 5'],
    [{ ...base, rating: 6 }, 'rating is not a rating from 1 to 5'],
    [{ ...base, rating: 'strong' }, 'rating is invalid'],
    [{ ...base, rating: 2.5 }, 'rating is invalid'],
    [{ ...base, rating: undefined }, 'rating is missing'],
    [{ ...base, description: undefined }, 'description is missing'],
    [{ ...base, learning_outcome_id: undefined }, 'learning_outcome_id is missing'],
    [{ ...base, task_definition_id: 'P1' }, 'task_definition_id is invalid'],
    [{ ...base, project_id: 'mine' }, 'project_id is invalid'],
  ];
  for (const [json, error] of cases) {
    const res = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: people.convenor.creds, json });
    assert.equal([res.status, res.body], [400, { error }], JSON.stringify(json));
  }
  await unitAlignment(w, w.prog, w.p1);
  const twice = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: people.convenor.creds, json: base });
  assert.equal([twice.status, twice.body], [400, { error: 'Validation failed: Task definition already linked to this learning outcome' }]);
  // The student may align the same pair for their task, once.
  const own = { ...base, project_id: w.project };
  assert.is((await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: people.student.creds, json: own })).status, 201);
  const ownTwice = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: people.student.creds, json: own });
  assert.equal([ownTwice.status, ownTwice.body], [400, { error: 'Validation failed: Task already linked to this learning outcome' }]);
  // A task of another definition, or of another project than the one named.
  const c1Task = await seedTask(env, w.project, w.c1);
  const mismatch = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: people.student.creds, json: { ...base, task_id: c1Task } });
  assert.equal([mismatch.status, mismatch.body], [400, { error: 'task_id is not a task of task_definition_id' }]);
  const wrongProject = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, {
    as: people.tutor.creds,
    json: { ...base, task_definition_id: w.c1, task_id: c1Task, project_id: w.classmateProject },
  });
  assert.equal([wrongProject.status, wrongProject.body], [400, { error: 'task_id is not a task of project_id' }]);
  const badUpdate = await api(env, 'PUT', `/api/units/${w.unit}/learning_alignments/1`, { as: people.convenor.creds, json: { rating: 9 } });
  assert.equal([badUpdate.status, badUpdate.body], [400, { error: 'rating is not a rating from 1 to 5' }]);
  assert.is((await stored()).length, 2);
});

test("unknown ids are 404: the unit, an outcome or definition of another unit, another unit's project or task, an alignment", async () => {
  const w = await world();
  const base = { learning_outcome_id: w.prog, task_definition_id: w.p1, rating: 3, description: 'd' };
  const foreignTask = await seedTask(env, w.otherProject, w.otherDefinition);
  const cases: [Record<string, unknown>, string][] = [
    [{ ...base, learning_outcome_id: w.otherOutcome }, 'Unable to find requested Learning Outcome'],
    [{ ...base, task_definition_id: w.otherDefinition }, 'Unable to find requested Task definition'],
    [{ ...base, learning_outcome_id: 99999 }, 'Unable to find requested Learning Outcome'],
    [{ ...base, project_id: w.otherProject }, 'Unable to find requested Project'],
    [{ ...base, task_id: foreignTask }, 'Unable to find requested Task'],
    // A student's task of a definition of another unit is never made.
    [{ ...base, project_id: w.project, task_definition_id: w.otherDefinition }, 'Unable to find requested Task definition'],
  ];
  for (const [json, error] of cases) {
    const res = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments`, { as: people.convenor.creds, json });
    assert.equal([res.status, res.body], [404, { error }], JSON.stringify(json));
  }
  assert.is(await env.orm.em.fork().count(Task, { project: w.project }), 0);
  const list = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments`, { as: people.convenor.creds, query: { project_id: w.otherProject } });
  assert.equal([list.status, list.body], [404, { error: 'Unable to find requested Project' }]);
  // An alignment of another unit is unknown here.
  const foreign = await api(env, 'POST', `/api/units/${w.other}/learning_alignments`, {
    as: people.admin.creds,
    json: { learning_outcome_id: w.otherOutcome, task_definition_id: w.otherDefinition, rating: 1, description: 'x' },
  });
  assert.is(foreign.status, 201);
  for (const id of [foreign.body.id, 99999]) {
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await api(env, method, `/api/units/${w.unit}/learning_alignments/${id}`, { as: people.convenor.creds, json: { rating: 1 } });
      assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Learning Alignment' }], `${method} ${id}`);
    }
  }
  for (const [method, url] of [
    ['GET', '/api/units/9999/learning_alignments?project_id=1'],
    ['POST', '/api/units/9999/learning_alignments'],
    ['GET', '/api/units/9999/learning_alignments/class_stats'],
    ['GET', '/api/units/9999/learning_alignments/csv'],
  ] as const) {
    const res = await api(env, method, url, { as: people.admin.creds, json: method === 'POST' ? base : undefined });
    assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }], `${method} ${url}`);
  }
  assert.equal((await stored()).length, 1);
});

// ---- CSV --------------------------------------------------------------------------------------

const csvFile = (text: string) => ({ file: { filename: 'alignment.csv', contentType: 'text/csv', data: Buffer.from(text, 'utf8') } });
const messages = (items: { message: string }[]) => items.map((i) => i.message);

test('CSV download: the unit alignments by abbreviation as <CODE>-Alignment.csv (web client .json URL); staff only', async () => {
  const w = await world();
  await unitAlignment(w, w.prog, w.p1, 4);
  const second = await unitAlignment(w, w.des, w.c1, 1);
  await api(env, 'PUT', `/api/units/${w.unit}/learning_alignments/${second}`, { as: people.convenor.creds, json: { description: 'Design, "mostly"' } });
  for (const who of [people.tutor, people.convenor, people.admin]) {
    const res = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv.json`, { as: who.creds });
    assert.is(res.status, 200, who.creds.username);
    assert.match(String(res.headers['content-disposition']), 'attachment; filename=SIT101-Alignment.csv');
    assert.is(res.text, 'unit_code,learning_outcome,task_abbr,rating,description\r\nSIT101,PROG,P1,4,Aligned\r\nSIT101,DES,C1,1,"Design, ""mostly"""\r\n');
  }
  const student = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: people.student.creds });
  assert.equal([student.status, student.body], [403, { error: 'Not authorised to download CSV of task alignment in SIT101' }]);
  const outsider = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: w.otherTutor.creds });
  assert.equal([outsider.status, outsider.body], [403, NOT_IN_UNIT]);
});

test('CSV round trip: a downloaded file loads into another unit with the same abbreviations', async () => {
  const w = await world();
  await unitAlignment(w, w.prog, w.p1, 4);
  await unitAlignment(w, w.des, w.c1, 2);
  const download = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: people.convenor.creds });
  const copy = await seedUnit(env, { code: 'SIT103' });
  await employ(env, people.convenor.user, copy, 'Convenor');
  const p1 = await seedTaskDefinition(env, copy, 'P1');
  const c1 = await seedTaskDefinition(env, copy, 'C1');
  const prog = await seedOutcome(copy, 'PROG', 1);
  const des = await seedOutcome(copy, 'DES', 2);
  const res = await api(env, 'POST', `/api/units/${copy}/learning_alignments/csv`, {
    as: people.convenor.creds,
    multipart: csvFile(download.text.replaceAll('SIT101,', 'SIT103,')),
  });
  assert.is(res.status, 201, res.text);
  assert.equal(messages(res.body.success), ['Link between task P1 and outcome PROG created for unit', 'Link between task C1 and outcome DES created for unit']);
  assert.equal([res.body.errors, res.body.ignored], [[], []]);
  const list = await api(env, 'GET', `/api/units/${copy}`, { as: people.convenor.creds });
  assert.equal(
    list.body.task_outcome_alignments.map((a: { learning_outcome_id: number; task_definition_id: number; rating: number; description: string }) => [
      a.learning_outcome_id,
      a.task_definition_id,
      a.rating,
      a.description,
    ]),
    [
      [prog, p1, 4, 'Aligned'],
      [des, c1, 2, 'Aligned'],
    ],
  );
  const again = await api(env, 'GET', `/api/units/${copy}/learning_alignments/csv`, { as: people.convenor.creds });
  assert.is(again.text, download.text.replaceAll('SIT101,', 'SIT103,'));
});

test('CSV upload: each row reported; other units ignored; unknown outcome or task and bad ratings are errors that change nothing', async () => {
  const w = await world();
  await unitAlignment(w, w.prog, w.p1, 1);
  const text =
    '\uFEFFRating, Task_Abbr ,unit_code,LEARNING_OUTCOME,description\r\n' +
    '5,P1,SIT101,PROG,Updated\r\n' +
    '3,C1,SIT101,DES,"New, quoted"\r\n' +
    '2,P1,SIT999,PROG,Elsewhere\r\n' +
    '2,P1,SIT101,NOPE,x\r\n' +
    '2,Z9,SIT101,PROG,x\r\n' +
    '0,C1,SIT101,PROG,x\r\n' +
    'high,C1,SIT101,PROG,x\r\n';
  const res = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv.json`, { as: people.convenor.creds, multipart: csvFile(text) });
  assert.is(res.status, 201, res.text);
  assert.equal(messages(res.body.success), ['Link between task P1 and outcome PROG updated for unit', 'Link between task C1 and outcome DES created for unit']);
  assert.equal(res.body.success[1].row, { rating: '3', task_abbr: 'C1', unit_code: 'SIT101', learning_outcome: 'DES', description: 'New, quoted' });
  assert.equal(messages(res.body.ignored), ['Invalid unit code. SIT999 does not match SIT101']);
  assert.equal(messages(res.body.errors), [
    'Unable to locate learning outcome with abbreviation NOPE',
    'Unable to locate task with abbreviation Z9',
    'Rating must be a whole number from 1 to 5',
    'Rating must be a whole number from 1 to 5',
  ]);
  assert.equal(await stored(), [
    { outcome: w.prog, definition: w.p1, task: null, rating: 5, description: 'Updated' },
    { outcome: w.des, definition: w.c1, task: null, rating: 3, description: 'New, quoted' },
  ]);
});

test('CSV upload: refused roles 403, missing file or headers and broken CSV 400, binary 403; nothing written', async () => {
  const w = await world();
  const good = csvFile('unit_code,learning_outcome,task_abbr,rating\nSIT101,PROG,P1,3\n');
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, { as: who.creds, multipart: good });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload CSV of task alignment to SIT101' }], who.creds.username);
  }
  const outsider = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, { as: w.otherTutor.creds, multipart: good });
  assert.equal([outsider.status, outsider.body], [403, NOT_IN_UNIT]);
  const none = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, { as: people.convenor.creds, multipart: { note: 'x' } });
  assert.equal([none.status, none.body], [400, { error: 'file is missing' }]);
  const headers = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, {
    as: people.convenor.creds,
    multipart: csvFile('unit_code,task_abbr\nSIT101,P1\n'),
  });
  assert.equal([headers.status, headers.body], [400, { error: 'Missing headers: learning_outcome, rating' }]);
  const broken = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, {
    as: people.convenor.creds,
    multipart: csvFile('unit_code,learning_outcome,task_abbr,rating\nSIT101,"PROG,P1,3\n'),
  });
  assert.is(broken.status, 400);
  assert.match(broken.body.error, /^Unable to read the CSV file: /);
  const binary = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'x.xlsx', contentType: 'application/octet-stream', data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1]) } },
  });
  assert.equal([binary.status, binary.body], [403, { error: 'File given is not a csv file - detected application/octet-stream' }]);
  assert.equal(await stored(), []);
});

test("CSV for a project: the student's tasks only, by the student or staff; another student refused", async () => {
  const w = await world();
  const p1Task = await seedTask(env, w.project, w.p1, { status: 'working_on_it' });
  const text = 'unit_code,learning_outcome,task_abbr,rating,description\nSIT101,PROG,P1,4,Mine\nSIT101,DES,C1,2,No task yet\n';
  const res = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, {
    as: people.student.creds,
    multipart: { ...csvFile(text), project_id: String(w.project) },
  });
  assert.is(res.status, 201, res.text);
  assert.equal(messages(res.body.success), ['Link between task P1 and outcome PROG created for student']);
  assert.equal(messages(res.body.errors), ['Unable to locate task related to C1']);
  assert.equal(await stored(), [{ outcome: w.prog, definition: w.p1, task: p1Task, rating: 4, description: 'Mine' }]);

  const download = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: people.tutor.creds, query: { project_id: w.project } });
  assert.is(download.status, 200);
  assert.match(String(download.headers['content-disposition']), 'filename=SIT101-astudent-Task-Alignment.csv');
  assert.is(download.text, 'unit_code,learning_outcome,task_abbr,rating,description\r\nSIT101,PROG,P1,4,Mine\r\n');
  // The unit's file does not carry the student's.
  const unitFile = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: people.tutor.creds });
  assert.is(unitFile.text, 'unit_code,learning_outcome,task_abbr,rating,description\r\n');

  const theirs = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: w.classmate.creds, query: { project_id: w.project } });
  assert.equal([theirs.status, theirs.body], [403, { error: 'You are not authorised to access this project.' }]);
  const upload = await api(env, 'POST', `/api/units/${w.unit}/learning_alignments/csv`, {
    as: w.classmate.creds,
    multipart: { ...csvFile(text), project_id: String(w.project) },
  });
  assert.equal([upload.status, upload.body], [403, { error: 'You are not authorised to access this project.' }]);
  const foreign = await api(env, 'GET', `/api/units/${w.unit}/learning_alignments/csv`, { as: people.convenor.creds, query: { project_id: w.otherProject } });
  assert.equal([foreign.status, foreign.body], [404, { error: 'Unable to find requested Project' }]);
  assert.is((await stored()).length, 1);
});

test.run();
