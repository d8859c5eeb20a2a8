import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { enrol, seedCampus, seedPeriod, seedUnit, type ProjectSeed } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('REST /api/projects (list)');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const ids = (body: { id: number }[]) => body.map((p) => p.id);

test('a new student, tutor, convenor or admin gets an empty list, so the home page loads', async () => {
  for (const who of [people.student, people.tutor, people.convenor, people.admin]) {
    const res = await api(env, 'GET', '/api/projects/?include_inactive=false', { as: who.creds, hyphenHeader: true });
    assert.is(res.status, 200, who.creds.username);
    assert.equal(res.body, []);
  }
});

test("a student's enrolments come with the exact keys the web client reads", async () => {
  const period = await seedPeriod(env);
  const campus = await seedCampus(env);
  const inPeriod = await seedUnit(env, { code: 'SIT101', startDate: '2026-03-02', endDate: '2026-06-01', teachingPeriod: period });
  const standalone = await seedUnit(env, { code: 'SIT202', startDate: '2025-07-14', endDate: '2025-11-03' });
  const withCampus = await enrol(env, people.student.user, inPeriod, { campus, targetGrade: 2 });
  const noCampus = await enrol(env, people.student.user, standalone);

  const res = await api(env, 'GET', '/api/projects', { as: people.student.creds });
  assert.is(res.status, 200);
  assert.equal(ids(res.body), [withCampus, noCampus]);
  assert.equal(res.body[0], {
    id: withCampus,
    campus_id: campus,
    user_id: people.student.user.id,
    unit: {
      code: 'SIT101',
      id: inPeriod,
      name: 'Unit SIT101',
      my_role: 'Student',
      teaching_period_id: period,
      start_date: '2026-03-02',
      end_date: '2026-06-01',
      active: true,
    },
    target_grade: 2,
    portfolio_available: false,
  });
  assert.equal(Object.keys(res.body[0]).sort(), ['campus_id', 'id', 'portfolio_available', 'target_grade', 'unit', 'user_id']);
  assert.is(res.body[1].campus_id, null);
  assert.not.ok('teaching_period_id' in res.body[1].unit);
  assert.equal(res.body[1].unit, {
    code: 'SIT202',
    id: standalone,
    name: 'Unit SIT202',
    my_role: 'Student',
    start_date: '2025-07-14',
    end_date: '2025-11-03',
    active: true,
  });
});

test('portfolio_available is true only for a produced portfolio with no compilation pending', async () => {
  const produced = new Date('2026-02-01T10:00:00.000Z');
  const cases: [ProjectSeed, boolean][] = [
    [{}, false],
    [{ compilePortfolio: true }, false],
    [{ portfolioProductionDate: produced, compilePortfolio: true }, false],
    [{ portfolioProductionDate: produced, compilePortfolio: false }, true],
  ];
  const expected: Record<number, boolean> = {};
  for (const [i, [seed, available]] of cases.entries()) {
    const unit = await seedUnit(env, { code: `P${i}`, startDate: `2026-0${i + 1}-01` });
    expected[await enrol(env, people.student.user, unit, seed)] = available;
  }
  const res = await api(env, 'GET', '/api/projects', { as: people.student.creds });
  assert.is(res.body.length, 4);
  for (const project of res.body) assert.is(project.portfolio_available, expected[project.id], `project ${project.id}`);
});

test('projects in inactive units are left out unless include_inactive=true', async () => {
  const active = await seedUnit(env, { code: 'ACT101', startDate: '2026-03-02' });
  const inactive = await seedUnit(env, { code: 'INA101', startDate: '2025-03-03', active: false });
  const current = await enrol(env, people.student.user, active);
  const old = await enrol(env, people.student.user, inactive);

  assert.equal(ids((await api(env, 'GET', '/api/projects', { as: people.student.creds })).body), [current]);
  assert.equal(ids((await api(env, 'GET', '/api/projects', { as: people.student.creds, query: { include_inactive: 'false' } })).body), [current]);
  const all = await api(env, 'GET', '/api/projects/', { as: people.student.creds, query: { include_inactive: 'true' } });
  assert.is(all.status, 200);
  assert.equal(ids(all.body), [current, old]);
  assert.is(all.body[1].unit.active, false);
});

test('withdrawn projects are never listed, even with include_inactive', async () => {
  const unit = await seedUnit(env, { code: 'WDR101', startDate: '2026-03-02' });
  const oldUnit = await seedUnit(env, { code: 'WDR100', startDate: '2025-03-03', active: false });
  await enrol(env, people.student.user, unit, { enrolled: false });
  await enrol(env, people.student.user, oldUnit, { enrolled: false });
  assert.equal((await api(env, 'GET', '/api/projects', { as: people.student.creds })).body, []);
  assert.equal((await api(env, 'GET', '/api/projects', { as: people.student.creds, query: { include_inactive: true } })).body, []);
});

test("other users' projects are never shown", async () => {
  const unit = await seedUnit(env, { code: 'SHR101', startDate: '2026-03-02' });
  const mine = await enrol(env, people.student.user, unit);
  await enrol(env, people.tutor.user, unit);
  const other = await seedUnit(env, { code: 'OTH101', startDate: '2026-03-02' });
  await enrol(env, people.convenor.user, other);
  const student = await api(env, 'GET', '/api/projects', { as: people.student.creds, query: { include_inactive: 'true' } });
  assert.equal(ids(student.body), [mine]);
  assert.is(student.body[0].user_id, people.student.user.id);
  // A staff member sees only the projects they are themselves enrolled in.
  const tutor = await api(env, 'GET', '/api/projects', { as: people.tutor.creds });
  assert.equal(
    tutor.body.map((p: { user_id: number }) => p.user_id),
    [people.tutor.user.id],
  );
  assert.equal((await api(env, 'GET', '/api/projects', { as: people.admin.creds, query: { include_inactive: 'true' } })).body, []);
});

test('an ill-typed include_inactive gets 400 naming it', async () => {
  for (const value of ['maybe', '-1']) {
    const res = await api(env, 'GET', '/api/projects', { as: people.student.creds, query: { include_inactive: value } });
    assert.is(res.status, 400, JSON.stringify(value));
    assert.is(res.body.error, 'include_inactive is invalid');
  }
  assert.is((await api(env, 'GET', '/api/projects?include_inactive[]=true', { as: people.student.creds })).status, 400);
});

test('missing credentials or a wrong token get 419', async () => {
  const none = await api(env, 'GET', '/api/projects');
  assert.is(none.status, 419);
  assert.type(none.body.error, 'string');
  assert.is((await api(env, 'GET', '/api/projects', { as: { ...people.student.creds, token: 'nope' } })).status, 419);
  assert.is((await api(env, 'GET', '/api/projects', { as: { ...people.student.creds, username: 'atutor' } })).status, 419);
});

test('the list takes the same number of queries for one project or many', async () => {
  const first = await seedUnit(env, { code: 'Q0', startDate: '2026-03-02' });
  const campus = await seedCampus(env);
  await enrol(env, people.student.user, first, { campus });
  // Warm the session cache first, so both counts are of the list alone.
  await api(env, 'GET', '/api/projects', { as: people.student.creds });
  const one = await countStatements(async () => {
    const res = await api(env, 'GET', '/api/projects', { as: people.student.creds });
    assert.is(res.body.length, 1);
  });
  const period = await seedPeriod(env);
  for (let i = 1; i <= 6; i++) {
    const unit = await seedUnit(env, { code: `Q${i}`, startDate: `2026-0${i + 1}-01`, teachingPeriod: i % 2 ? period : undefined });
    await enrol(env, people.student.user, unit, i % 2 ? { campus } : {});
  }
  const many = await countStatements(async () => {
    const res = await api(env, 'GET', '/api/projects', { as: people.student.creds });
    assert.is(res.body.length, 7);
  });
  assert.is(many, one);
  assert.ok(one <= 1, `expected one list query, got ${one}`);
});

test.run();
