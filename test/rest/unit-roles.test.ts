import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { IUser } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, signedIn } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, seedPeriod, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('REST /api/unit_roles');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const userOf = (u: IUser) => ({
  id: u.id,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  username: u.username,
  nickname: u.nickname ?? null,
});

test('a new tutor, convenor or admin gets an empty list, so the home page loads', async () => {
  for (const who of [people.tutor, people.convenor, people.admin]) {
    const res = await api(env, 'GET', '/api/unit_roles/', { as: who.creds, hyphenHeader: true });
    assert.is(res.status, 200, who.creds.username);
    assert.equal(res.body, []);
  }
});

test("the caller's roles come newest unit first with the exact keys the web client reads", async () => {
  const period = await seedPeriod(env);
  const older = await seedUnit(env, { code: 'OLD101', startDate: '2025-03-03', endDate: '2025-06-02' });
  const newer = await seedUnit(env, { code: 'NEW101', startDate: '2026-03-02', endDate: '2026-06-01', teachingPeriod: period });
  const sameStart = await seedUnit(env, { code: 'NEW102', startDate: '2026-03-02', endDate: '2026-06-01' });
  const olderRole = await employ(env, people.tutor.user, older, 'Tutor');
  const sameStartRole = await employ(env, people.tutor.user, sameStart, 'Convenor');
  const newerRole = await employ(env, people.tutor.user, newer, 'Tutor');

  const res = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
  assert.is(res.status, 200);
  // Same start date: the lower unit role id first.
  assert.equal(
    res.body.map((r: { id: number }) => r.id),
    [sameStartRole, newerRole, olderRole],
  );
  const byId = Object.fromEntries(res.body.map((r: { id: number }) => [r.id, r]));
  assert.equal(byId[newerRole], {
    id: newerRole,
    role: 'Tutor',
    user: userOf(people.tutor.user),
    unit: {
      code: 'NEW101',
      id: newer,
      name: 'Unit NEW101',
      my_role: 'Tutor',
      teaching_period_id: period,
      start_date: '2026-03-02',
      end_date: '2026-06-01',
      active: true,
    },
  });
  assert.equal(Object.keys(byId[newerRole]).sort(), ['id', 'role', 'unit', 'user']);
  assert.equal(Object.keys(byId[newerRole].user).sort(), ['email', 'first_name', 'id', 'last_name', 'nickname', 'username']);
  // No teaching period: the key is left out, not null.
  assert.not.ok('teaching_period_id' in byId[sameStartRole].unit);
  assert.equal(byId[sameStartRole].unit, {
    code: 'NEW102',
    id: sameStart,
    name: 'Unit NEW102',
    my_role: 'Convenor',
    start_date: '2026-03-02',
    end_date: '2026-06-01',
    active: true,
  });
  assert.is(byId[sameStartRole].role, 'Convenor');
});

test("other users' roles are never shown", async () => {
  const unit = await seedUnit(env, { code: 'SHR101', startDate: '2026-03-02' });
  const other = await seedUnit(env, { code: 'OTH101', startDate: '2026-03-02' });
  const mine = await employ(env, people.tutor.user, unit, 'Tutor');
  await employ(env, people.convenor.user, unit, 'Convenor');
  await employ(env, people.convenor.user, other, 'Convenor');
  const tutor = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
  assert.equal(
    tutor.body.map((r: { id: number; user: { id: number } }) => [r.id, r.user.id]),
    [[mine, people.tutor.user.id]],
  );
  const convenor = await api(env, 'GET', '/api/unit_roles', { as: people.convenor.creds });
  assert.is(convenor.body.length, 2);
  assert.ok(convenor.body.every((r: { user: { id: number } }) => r.user.id === people.convenor.user.id));
  // An admin holds no unit roles here and sees none of the others'.
  assert.equal((await api(env, 'GET', '/api/unit_roles', { as: people.admin.creds })).body, []);
});

test('a student gets an empty list, even with a stray unit role row', async () => {
  const unit = await seedUnit(env, { code: 'STU101', startDate: '2026-03-02' });
  await employ(env, people.student.user, unit, 'Tutor');
  const res = await api(env, 'GET', '/api/unit_roles', { as: people.student.creds });
  assert.is(res.status, 200);
  assert.equal(res.body, []);
  assert.equal((await api(env, 'GET', '/api/unit_roles', { as: people.student.creds, query: { active_only: 'true' } })).body, []);
});

test('active_only=true keeps only roles in active units; false or absent keeps all', async () => {
  const active = await seedUnit(env, { code: 'ACT101', startDate: '2026-03-02' });
  const inactive = await seedUnit(env, { code: 'INA101', startDate: '2025-03-02', active: false });
  const activeRole = await employ(env, people.convenor.user, active, 'Convenor');
  const inactiveRole = await employ(env, people.convenor.user, inactive, 'Convenor');
  const ids = (body: { id: number }[]) => body.map((r) => r.id);

  const only = await api(env, 'GET', '/api/unit_roles', { as: people.convenor.creds, query: { active_only: 'true' } });
  assert.is(only.status, 200);
  assert.equal(ids(only.body), [activeRole]);
  assert.equal(ids((await api(env, 'GET', '/api/unit_roles?active_only=false', { as: people.convenor.creds })).body), [activeRole, inactiveRole]);
  const all = await api(env, 'GET', '/api/unit_roles', { as: people.convenor.creds });
  assert.equal(ids(all.body), [activeRole, inactiveRole]);
  assert.is(all.body[1].unit.active, false);
});

test('an ill-typed active_only gets 400 naming it', async () => {
  for (const value of ['maybe', '2']) {
    const res = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds, query: { active_only: value } });
    assert.is(res.status, 400, value);
    assert.is(res.body.error, 'active_only is invalid');
  }
  const nested = await api(env, 'GET', '/api/unit_roles?active_only[x]=1', { as: people.tutor.creds });
  assert.is(nested.status, 400);
});

test('missing credentials, a wrong token or an expired one get 419', async () => {
  const none = await api(env, 'GET', '/api/unit_roles');
  assert.is(none.status, 419);
  assert.type(none.body.error, 'string');
  assert.is((await api(env, 'GET', '/api/unit_roles', { as: { ...people.tutor.creds, token: 'nope' } })).status, 419);
  env.clock.advance(3 * 3600_000);
  assert.is((await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds })).status, 419);
});

test('the list takes the same number of queries for one role or many', async () => {
  const first = await seedUnit(env, { code: 'Q0', startDate: '2026-03-02' });
  await employ(env, people.tutor.user, first, 'Tutor');
  // Warm the session cache first, so both counts are of the list alone.
  await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
  const one = await countStatements(async () => {
    const res = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
    assert.is(res.body.length, 1);
  });
  const period = await seedPeriod(env);
  for (let i = 1; i <= 6; i++) {
    const unit = await seedUnit(env, { code: `Q${i}`, startDate: `2026-0${(i % 9) + 1}-01`, teachingPeriod: i % 2 ? period : undefined });
    await employ(env, people.tutor.user, unit, i % 2 ? 'Tutor' : 'Convenor');
  }
  const many = await countStatements(async () => {
    const res = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
    assert.is(res.body.length, 7);
  });
  assert.is(many, one);
  assert.ok(one <= 1, `expected one list query, got ${one}`);
});

test('a tutor signed in through the API sees the same list (headers as the web client sends them)', async () => {
  const other = await signedIn(env, 'btutor', 'Tutor');
  const unit = await seedUnit(env, { code: 'WEB101', startDate: '2026-03-02' });
  await employ(env, other.user, unit, 'Tutor');
  const res = await api(env, 'GET', '/api//unit_roles/', { as: other.creds, hyphenHeader: true });
  assert.is(res.status, 200);
  assert.equal(
    res.body.map((r: { unit: { code: string } }) => r.unit.code),
    ['WEB101'],
  );
});

test.run();
