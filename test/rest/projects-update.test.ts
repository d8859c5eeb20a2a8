import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Migration00007GradeAndQualityDefaults } from '../../schema/migrations/Migration00007GradeAndQualityDefaults.ts';
import { Project } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition, seedTutorial, seedTutorialEnrolment } from '../support/seed-enrolments.ts';

const test = suite('REST PUT /api/projects/{id}');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const stored = (id: number) => env.orm.em.fork().findOneOrFail(Project, { id });

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  return { unit, project };
}

test('the student sets a target grade: 200 with the summary keys, and the stats are recomputed', async () => {
  const { unit, project } = await world();
  const pass = await seedTaskDefinition(env, unit, 'P1', { targetGrade: 0 });
  await seedTaskDefinition(env, unit, 'P2', { targetGrade: 0 });
  const credit = await seedTaskDefinition(env, unit, 'C1', { targetGrade: 1 });
  await seedTaskDefinition(env, unit, 'D1', { targetGrade: 2 });
  await seedTask(env, project, pass, { status: 'complete' });
  await seedTask(env, project, credit, { status: 'ready_for_feedback' });
  const res = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { target_grade: 1 } });
  assert.is(res.status, 200);
  assert.equal(res.body, {
    campus_id: null,
    target_grade: 1,
    submitted_grade: null,
    compile_portfolio: false,
    portfolio_available: false,
    uses_draft_learning_summary: false,
  });
  const p = await stored(project);
  assert.is(p.targetGrade, 1);
  // Three definitions counted (P1, P2, C1): one complete (green), one ready for feedback (blue).
  assert.equal(p.taskStats, { red_pct: 0, grey_pct: 0.34, orange_pct: 0, blue_pct: 0.33, green_pct: 0.33, order_scale: 66 });
  const students = await api(env, 'GET', '/api/students', { as: people.tutor.creds, query: { unit_id: unit } });
  assert.equal(students.body[0].stats, p.taskStats);
});

test('target grade out of 0..3 or ill-typed is 400 and nothing changes', async () => {
  const { project } = await world();
  for (const target_grade of [4, -1, 'high']) {
    const res = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { target_grade } });
    assert.is(res.status, 400, String(target_grade));
    assert.is(res.body.error, 'target_grade is invalid');
  }
  assert.is((await stored(project)).targetGrade, 0);
});

test('compile_portfolio is stored and clears the auto-generated mark; only the first field given is applied', async () => {
  const { project } = await world();
  const res = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, form: { compile_portfolio: 'true' } });
  assert.is(res.status, 200);
  assert.is(res.body.compile_portfolio, true);
  assert.is((await stored(project)).compilePortfolio, true);
  const both = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { target_grade: 3, compile_portfolio: false } });
  assert.is(both.body.target_grade, 3);
  assert.is((await stored(project)).compilePortfolio, true);
});

test('the convenor withdraws and re-enrols a student; tutors and students may not (403, unchanged)', async () => {
  const { unit, project } = await world();
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'PUT', `/api/projects/${project}`, { as: who.creds, json: { enrolled: false } });
    assert.equal([res.status, res.body], [403, { error: `You cannot change the enrolment for project ${project}` }], who.creds.username);
  }
  assert.is((await stored(project)).enrolled, true);
  const out = await api(env, 'PUT', `/api/projects/${project}`, { as: people.convenor.creds, json: { enrolled: false } });
  assert.is(out.status, 200);
  assert.is(out.body.enrolled, false);
  assert.equal(JSON.parse(out.body.stats), { red_pct: 0, grey_pct: 1, orange_pct: 0, blue_pct: 0, green_pct: 0, order_scale: 0 });
  assert.is((await stored(project)).enrolled, false);
  assert.equal((await api(env, 'GET', '/api/students', { as: people.tutor.creds, query: { unit_id: unit } })).body, []);
  // An Admin who is not staff of the unit manages enrolments too.
  const back = await api(env, 'PUT', `/api/projects/${project}`, { as: people.admin.creds, json: { enrolled: true } });
  assert.is(back.status, 200);
  assert.is((await stored(project)).enrolled, true);
});

test("staff change the campus; a campus other than the tutorials' is 400; students are refused", async () => {
  const { unit, project } = await world();
  const burwood = await seedCampus(env);
  const online = await seedCampus(env, { name: 'Online', abbreviation: 'O' });
  const student = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { campus_id: burwood } });
  assert.equal([student.status, student.body], [403, { error: `You do not have permissions to change the campus of Project with id=${project}` }]);
  const ok = await api(env, 'PUT', `/api/projects/${project}`, { as: people.tutor.creds, json: { campus_id: burwood } });
  assert.is(ok.status, 200);
  assert.is(ok.body.campus_id, burwood);
  assert.is(ok.body.enrolled, true);
  await seedTutorialEnrolment(env, project, await seedTutorial(env, unit, 'BW1', { campus: burwood }));
  const clash = await api(env, 'PUT', `/api/projects/${project}`, { as: people.tutor.creds, json: { campus_id: online } });
  assert.equal([clash.status, clash.body], [400, { error: 'Campus does not match with tutorial enrolments.' }]);
  const none = await api(env, 'PUT', `/api/projects/${project}`, { as: people.convenor.creds, json: { campus_id: -1 } });
  assert.is(none.body.campus_id, null);
  assert.is((await api(env, 'PUT', `/api/projects/${project}`, { as: people.tutor.creds, json: { campus_id: 999 } })).status, 404);
});

test('grades: staff only, with a rationale and the current grade; the answer is the student record', async () => {
  const { project } = await world();
  const student = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { grade: 3, old_grade: 0, grade_rationale: 'x' } });
  assert.equal([student.status, student.body], [403, { error: `You do not have permissions to assess Project with id=${project}` }]);
  const noRationale = await api(env, 'PUT', `/api/projects/${project}`, { as: people.tutor.creds, json: { grade: 3, old_grade: 0 } });
  assert.equal([noRationale.status, noRationale.body], [403, { error: 'Grade rationale required to perform assessment.' }]);
  const stale = await api(env, 'PUT', `/api/projects/${project}`, { as: people.tutor.creds, json: { grade: 3, old_grade: 2, grade_rationale: 'x' } });
  assert.is(stale.status, 403);
  const ok = await api(env, 'PUT', `/api/projects/${project}`, { as: people.tutor.creds, json: { grade: 3, old_grade: 0, grade_rationale: 'Excellent' } });
  assert.is(ok.status, 200);
  assert.is(ok.body.grade, 3);
  assert.is(ok.body.grade_rationale, 'Excellent');
  assert.is(ok.body.student.username, 'astudent');
  const p = await stored(project);
  assert.equal([p.grade, p.gradeRationale], [3, 'Excellent']);
});

test("the web client gives a portfolio its first grade: the student record's 0 (or the null it once showed) is the old grade", async () => {
  const { unit, project } = await world();
  const listed = await api(env, 'GET', '/api/students', { as: people.convenor.creds, query: { unit_id: unit } });
  assert.equal([listed.body[0].id, listed.body[0].grade], [project, 0], 'an ungraded student: grade 0, an integer');
  // Exactly what the web client sends, with the grade it had cached from before grades defaulted to 0.
  const first = await api(env, 'PUT', `/api/projects/${project}`, {
    as: people.convenor.creds,
    json: { grade: 50, old_grade: null, grade_rationale: 'Met every outcome' },
  });
  assert.is(first.status, 200, first.text);
  assert.equal([first.body.grade, first.body.grade_rationale], [50, 'Met every outcome']);
  const csv = await api(env, 'GET', `/api/units/${unit}/grades`, { as: people.convenor.creds });
  assert.is(csv.text, 'unit_code,username,student_id,grade,rationale\r\nSIT101,astudent,,50,Met every outcome\r\n');
  // Graded now: a stale old grade, null included, is refused and changes nothing.
  for (const old_grade of [null, 0]) {
    const stale = await api(env, 'PUT', `/api/projects/${project}`, { as: people.convenor.creds, json: { grade: 60, old_grade, grade_rationale: 'Again' } });
    assert.equal(
      [stale.status, stale.body],
      [403, { error: 'Existing project grade does not match current grade. Refresh project and try again.' }],
      String(old_grade),
    );
  }
  const second = await api(env, 'PUT', `/api/projects/${project}`, { as: people.convenor.creds, json: { grade: 60, old_grade: 50, grade_rationale: 'Again' } });
  assert.equal([second.status, second.body.grade], [200, 60]);
});

test('migration 00007 turns the grades and quality points stored as null into 0 and -1, and keeps them from being null again', async () => {
  const { unit, project } = await world();
  const td = await seedTaskDefinition(env, unit, 'P1');
  const task = await seedTask(env, project, td, { status: 'complete' });
  const migration = new Migration00007GradeAndQualityDefaults(env.orm.em.getDriver(), env.orm.config);
  const client = new pg.Client({ connectionString: env.databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    // As a database from before the migration holds them.
    await migration.down();
    for (const query of migration.getQueries()) await client.query(String(query));
    migration.reset();
    await client.query('update projects set grade = null where id = $1', [project]);
    await client.query('update tasks set quality_pts = null where id = $1', [task]);
    await migration.up();
    for (const query of migration.getQueries()) await client.query(String(query));
    const { rows } = await client.query(
      'select (select grade from projects where id = $1) as grade, (select quality_pts from tasks where id = $2) as quality_pts',
      [project, task],
    );
    assert.equal(rows, [{ grade: 0, quality_pts: -1 }]);
    await client.query('savepoint s');
    const refused = await client.query('update projects set grade = null where id = $1', [project]).then(
      () => null,
      (error: Error) => error.message,
    );
    assert.match(String(refused), /null value in column "grade"/);
    await client.query('rollback to savepoint s');
  } finally {
    await client.query('rollback');
    await client.end();
  }
});

test('submitted grade is refused once a portfolio exists; admins who are not staff may not change a project', async () => {
  const unit = await seedUnit(env, { code: 'SIT202' });
  const project = await enrol(env, people.student.user, unit, { portfolioProductionDate: new Date('2026-02-01T00:00:00Z') });
  const res = await api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, json: { submitted_grade: 2 } });
  assert.equal([res.status, res.body], [403, { error: 'You cannot change your submitted grade after portfolio submission' }]);
  const admin = await api(env, 'PUT', `/api/projects/${project}`, { as: people.admin.creds, json: { target_grade: 2 } });
  assert.equal([admin.status, admin.body], [403, { error: `You do not have permissions to change Project with id=${project}` }]);
  assert.is((await stored(project)).targetGrade, 0);
  assert.is((await api(env, 'PUT', '/api/projects/9999', { as: people.student.creds, json: { target_grade: 1 } })).status, 404);
});

test.run();
