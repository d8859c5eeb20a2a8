import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Project } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { seedGroup, seedMembership, seedTutorial, seedTutorialEnrolment } from '../support/seed-enrolments.ts';

const test = suite('REST POST /api/projects (enrol a student)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const projects = (unit: number) => env.orm.em.fork().find(Project, { unit }, { orderBy: { id: 'asc' } });

async function unitWithStaff() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  return unit;
}

test("a tutor enrols a student by username: 201 with the student record's keys, and the project exists", async () => {
  const unit = await unitWithStaff();
  const campus = await seedCampus(env);
  const res = await api(env, 'POST', '/api/projects', { as: people.tutor.creds, json: { unit_id: unit, student_num: 'astudent', campus_id: campus } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const [project] = await projects(unit);
  assert.equal(res.body, {
    id: project.id,
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
    target_grade: 0,
    submitted_grade: null,
    compile_portfolio: false,
    grade: 0,
    grade_rationale: null,
    similarity_flag: false,
    has_portfolio: false,
    portfolio_available: false,
    uses_draft_learning_summary: false,
    stats: { red_pct: 0, grey_pct: 1, orange_pct: 0, blue_pct: 0, green_pct: 0, order_scale: 0 },
    tutorial_enrolments: [],
  });
  // Stored as a JSON object (not a JSON string), so SQL over the stats reads its fields.
  const [stored] = (await env.orm.em.fork().getConnection().execute('select jsonb_typeof(task_stats) as kind from projects')) as { kind: string }[];
  assert.is(stored.kind, 'object');
});

test('student_num matches the username, then the student id, then the email; campus -1 or null is none', async () => {
  const unit = await unitWithStaff();
  const byId = await createUser(env, 'bstudent', 'Student', { studentId: '1234567' });
  const byEmail = await createUser(env, 'cstudent', 'Student', { email: 'carol@uni.edu' });
  const a = await api(env, 'POST', '/api/projects', { as: people.convenor.creds, form: { unit_id: unit, student_num: '1234567', campus_id: -1 } });
  assert.is(a.status, 201);
  assert.is(a.body.student.id, byId.id);
  assert.is(a.body.campus_id, null);
  const b = await api(env, 'POST', '/api/projects', { as: people.admin.creds, json: { unit_id: unit, student_num: 'Carol@Uni.edu', campus_id: null } });
  assert.is(b.status, 201);
  assert.is(b.body.student.id, byEmail.id);
  assert.is((await projects(unit)).length, 2);
});

test('a withdrawn student is enrolled again with the new campus; an enrolled one is returned unchanged', async () => {
  const unit = await unitWithStaff();
  const oldCampus = await seedCampus(env, { name: 'Old', abbreviation: 'O' });
  const newCampus = await seedCampus(env, { name: 'New', abbreviation: 'N' });
  const id = await enrol(env, people.student.user, unit, { enrolled: false, campus: oldCampus, targetGrade: 2 });
  const again = await api(env, 'POST', '/api/projects', { as: people.tutor.creds, json: { unit_id: unit, student_num: 'astudent', campus_id: newCampus } });
  assert.is(again.status, 201);
  assert.is(again.body.id, id);
  assert.is(again.body.enrolled, true);
  assert.is(again.body.campus_id, newCampus);
  assert.is(again.body.target_grade, 2);
  const same = await api(env, 'POST', '/api/projects', { as: people.tutor.creds, json: { unit_id: unit, student_num: 'astudent', campus_id: oldCampus } });
  assert.is(same.status, 201);
  assert.is(same.body.id, id);
  assert.is(same.body.campus_id, newCampus);
  assert.is((await projects(unit)).length, 1);
});

test('enrolling again drops a group membership that no longer fits (keep-in-class group of another tutorial)', async () => {
  const unit = await unitWithStaff();
  const t1 = await seedTutorial(env, unit, 'T1');
  const t2 = await seedTutorial(env, unit, 'T2');
  const project = await enrol(env, people.student.user, unit, { enrolled: false });
  await seedTutorialEnrolment(env, project, t1);
  const fits = await seedGroup(env, unit, t1, { keepInClass: true, name: 'Fits' });
  const elsewhere = await seedGroup(env, unit, t2, { keepInClass: true, name: 'Elsewhere' });
  await seedMembership(env, fits, project);
  await seedMembership(env, elsewhere, project);
  assert.is((await api(env, 'POST', '/api/projects', { as: people.tutor.creds, json: { unit_id: unit, student_num: 'astudent', campus_id: -1 } })).status, 201);
  const rows = (await env.orm.em.fork().getConnection().execute('select group_id, active from group_memberships order by group_id')) as {
    group_id: number;
    active: boolean;
  }[];
  assert.equal(
    rows.map((r) => [r.group_id, r.active]),
    [
      [fits, true],
      [elsewhere, false],
    ],
  );
});

test('students, and convenors or tutors of other units, are refused with 403 and nothing is created', async () => {
  const unit = await unitWithStaff();
  const other = await seedUnit(env, { code: 'OTH101' });
  const outsider = await createUser(env, 'otherconvenor', 'Convenor');
  await employ(env, outsider, other, 'Convenor');
  const { issueToken } = await import('../../src/operations/auth/session-tokens.ts');
  const token = await issueToken(env.orm.em.fork(), outsider, env.clock.now(), false);
  await enrol(env, people.student.user, other);
  for (const creds of [people.student.creds, { username: 'otherconvenor', token }]) {
    const res = await api(env, 'POST', '/api/projects', { as: creds, json: { unit_id: unit, student_num: 'astudent', campus_id: -1 } });
    assert.is(res.status, 403);
    assert.equal(res.body, { error: `Couldn't find Unit with id=${unit}` });
  }
  assert.is((await projects(unit)).length, 0);
});

test('unknown student 403, unknown unit or campus 404, missing or ill-typed fields 400', async () => {
  const unit = await unitWithStaff();
  const as = people.tutor.creds;
  const nobody = await api(env, 'POST', '/api/projects', { as, json: { unit_id: unit, student_num: 'ghost', campus_id: -1 } });
  assert.equal([nobody.status, nobody.body], [403, { error: "Couldn't find Student with username=ghost" }]);
  const noUnit = await api(env, 'POST', '/api/projects', { as, json: { unit_id: 999, student_num: 'astudent', campus_id: -1 } });
  assert.equal([noUnit.status, noUnit.body], [404, { error: 'Unable to find requested Unit' }]);
  const noCampus = await api(env, 'POST', '/api/projects', { as, json: { unit_id: unit, student_num: 'astudent', campus_id: 999 } });
  assert.equal([noCampus.status, noCampus.body], [404, { error: 'Unable to find requested Campus' }]);
  const missing = await api(env, 'POST', '/api/projects', { as, json: { unit_id: unit } });
  assert.is(missing.status, 400);
  assert.match(missing.body.error, 'student_num is missing');
  assert.match(missing.body.error, 'campus_id is missing');
  const badUnit = await api(env, 'POST', '/api/projects', { as, json: { unit_id: 'abc', student_num: 'astudent', campus_id: -1 } });
  assert.equal([badUnit.status, badUnit.body], [400, { error: 'unit_id is invalid' }]);
  assert.is((await projects(unit)).length, 0);
  assert.is((await api(env, 'POST', '/api/projects', { json: { unit_id: unit, student_num: 'astudent', campus_id: -1 } })).status, 419);
});

test.run();
