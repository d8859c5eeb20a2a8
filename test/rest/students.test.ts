import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Project } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';
import { seedSimilarity, seedStream, seedTask, seedTaskDefinition, seedTutorial, seedTutorialEnrolment } from '../support/seed-enrolments.ts';

const test = suite('REST GET /api/students');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function unitWithStaff() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  return unit;
}

test('staff get each enrolled student with tutorial enrolments per stream, stats and the similarity flag', async () => {
  const unit = await unitWithStaff();
  const campus = await seedCampus(env);
  const prac = await seedStream(env, unit, 'prac');
  const wrk = await seedStream(env, unit, 'wrk');
  const p1 = await seedTutorial(env, unit, 'P1', { stream: prac });
  const w1 = await seedTutorial(env, unit, 'W1', { stream: wrk });
  const project = await enrol(env, people.student.user, unit, { campus, targetGrade: 2 });
  await seedTutorialEnrolment(env, project, w1);
  await seedTutorialEnrolment(env, project, p1);
  await seedSimilarity(env, await seedTask(env, project, await seedTaskDefinition(env, unit, 'T1')), true);
  const other = await createUser(env, 'bstudent', 'Student', { studentId: 's2' });
  const plain = await enrol(env, other, unit);

  const res = await api(env, 'GET', `/api/students?withdrawn=false&unit_id=${unit}`, { as: people.tutor.creds, hyphenHeader: true });
  assert.is(res.status, 200);
  assert.equal(
    res.body.map((s: { id: number }) => s.id),
    [project, plain],
  );
  assert.equal(res.body[0], {
    id: project,
    enrolled: true,
    campus_id: campus,
    student: {
      id: people.student.user.id,
      student_id: null,
      username: 'astudent',
      email: 'astudent@example.edu',
      first_name: 'Astudent',
      last_name: 'Tester',
      nickname: 'astudent',
    },
    target_grade: 2,
    submitted_grade: null,
    compile_portfolio: false,
    grade: 0,
    grade_rationale: null,
    similarity_flag: true,
    has_portfolio: false,
    portfolio_available: false,
    uses_draft_learning_summary: false,
    stats: { red_pct: 0, grey_pct: 1, orange_pct: 0, blue_pct: 0, green_pct: 0, order_scale: 0 },
    tutorial_enrolments: [
      { stream_abbr: 'prac', tutorial_id: p1 },
      { stream_abbr: 'wrk', tutorial_id: w1 },
    ],
  });
  assert.is(res.body[1].similarity_flag, false);
  assert.equal(res.body[1].tutorial_enrolments, []);
  assert.is(res.body[1].student.student_id, 's2');
});

test("withdrawn students are listed only with withdraw=true or the web client's withdrawn=true", async () => {
  const unit = await unitWithStaff();
  const current = await enrol(env, people.student.user, unit);
  const gone = await enrol(env, await createUser(env, 'bstudent', 'Student'), unit, { enrolled: false });
  const ids = async (query: Record<string, unknown>) =>
    (await api(env, 'GET', '/api/students', { as: people.convenor.creds, query: { unit_id: unit, ...query } })).body.map((s: { id: number }) => s.id);
  assert.equal(await ids({}), [current]);
  assert.equal(await ids({ withdraw: false }), [current]);
  assert.equal(await ids({ withdrawn: 'false' }), [current]);
  assert.equal(await ids({ withdraw: true }), [current, gone]);
  assert.equal(await ids({ withdrawn: 'true' }), [current, gone]);
  const bad = await api(env, 'GET', '/api/students', { as: people.convenor.creds, query: { unit_id: unit, withdrawn: 'perhaps' } });
  assert.equal([bad.status, bad.body], [400, { error: 'withdrawn is invalid' }]);
});

test('an Admin who is not staff may list; students and staff of other units get 403 with the message', async () => {
  const unit = await unitWithStaff();
  await enrol(env, people.student.user, unit);
  assert.is((await api(env, 'GET', '/api/students', { as: people.admin.creds, query: { unit_id: unit } })).status, 200);
  const elsewhere = await seedUnit(env, { code: 'OTH101' });
  for (const [who, unitId] of [
    [people.student, unit],
    [people.tutor, elsewhere],
  ] as const) {
    const res = await api(env, 'GET', '/api/students', { as: who.creds, query: { unit_id: unitId } });
    assert.equal([res.status, res.body], [403, { error: `Couldn't find Unit with id=${unitId}` }]);
  }
});

test('missing or ill-typed unit_id is 400, an unknown unit 404, no credentials 419', async () => {
  const missing = await api(env, 'GET', '/api/students', { as: people.tutor.creds });
  assert.equal([missing.status, missing.body], [400, { error: 'unit_id is missing' }]);
  assert.equal((await api(env, 'GET', '/api/students?unit_id=abc', { as: people.tutor.creds })).status, 400);
  const unknown = await api(env, 'GET', '/api/students?unit_id=999', { as: people.tutor.creds });
  assert.equal([unknown.status, unknown.body], [404, { error: 'Unable to find requested Unit' }]);
  assert.is((await api(env, 'GET', '/api/students?unit_id=1')).status, 419);
});

test('the same number of SQL statements for 5 students as for 60', async () => {
  const unit = await unitWithStaff();
  const stream = await seedStream(env, unit, 'prac');
  const tutorials = [await seedTutorial(env, unit, 'P1', { stream }), await seedTutorial(env, unit, 'P2', { stream })];
  const td = await seedTaskDefinition(env, unit, 'T1');
  const addStudents = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const project = await enrol(env, await createUser(env, `s${i}`, 'Student'), unit);
      await seedTutorialEnrolment(env, project, tutorials[i % 2]);
      await seedTask(env, project, td, { status: 'complete' });
    }
  };
  const read = (expected: number) => async () => {
    const res = await api(env, 'GET', '/api/students', { as: people.tutor.creds, query: { unit_id: unit } });
    assert.is(res.body.length, expected);
  };
  await addStudents(0, 5);
  await read(5)(); // the session is then cached, as it is for a client's every later request
  const few = await countStatements(read(5));
  await addStudents(5, 60);
  const many = await countStatements(read(60));
  assert.is(many, few);
  console.log(`  GET /api/students: ${few} statements at 5 students, ${many} at 60`);
});

test('rows of the loader are the projects of that unit only', async () => {
  const unit = await unitWithStaff();
  const other = await seedUnit(env, { code: 'OTH101' });
  await employ(env, people.tutor.user, other, 'Tutor');
  await enrol(env, people.student.user, other);
  const res = await api(env, 'GET', '/api/students', { as: people.tutor.creds, query: { unit_id: unit } });
  assert.equal(res.body, []);
  assert.is(await env.orm.em.fork().count(Project, {}), 1);
});

test.run();
