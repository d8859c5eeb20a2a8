import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TeachingPeriod, Unit, UnitRole, type IUser } from '../../schema/index.ts';
import type { UnitStaffRole } from '../../schema/enums.ts';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { everyone, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';

const test = suite('REST /api/unit_roles');
let env: Awaited<ReturnType<typeof testEnv>>;
let people: Awaited<ReturnType<typeof everyone>>;

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
  people = await everyone(env);
});

interface UnitSeed {
  code: string;
  startDate: string;
  endDate?: string;
  active?: boolean;
  teachingPeriod?: number;
}

async function seedUnit(seed: UnitSeed): Promise<number> {
  const em = env.orm.em.fork();
  const unit = em.create(Unit, {
    code: seed.code,
    name: `Unit ${seed.code}`,
    description: `About ${seed.code}`,
    startDate: seed.startDate,
    endDate: seed.endDate ?? '2026-12-01',
    active: seed.active ?? true,
    teachingPeriod: seed.teachingPeriod ?? null,
  } as never);
  await em.flush();
  return (unit as { id: number }).id;
}

async function seedPeriod(): Promise<number> {
  const em = env.orm.em.fork();
  const period = em.create(TeachingPeriod, {
    period: 'T1',
    year: 2026,
    startDate: new Date('2026-03-02T00:00:00.000Z'),
    endDate: new Date('2026-06-01T00:00:00.000Z'),
    activeUntil: new Date('2026-07-01T00:00:00.000Z'),
  });
  await em.flush();
  return period.id;
}

async function employ(user: IUser, unitId: number, role: UnitStaffRole): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(UnitRole, { user: user.id, unit: unitId, role } as never);
  await em.flush();
  return (row as { id: number }).id;
}

/** Counts the SQL statements run while `fn` runs (every fork shares the one connection). */
async function countQueries(e: TestEnv, fn: () => Promise<unknown>): Promise<number> {
  const connection = e.orm.em.getDriver().getConnection() as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
  const original = connection.execute;
  let count = 0;
  connection.execute = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    connection.execute = original;
  }
  return count;
}

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
  const period = await seedPeriod();
  const older = await seedUnit({ code: 'OLD101', startDate: '2025-03-03', endDate: '2025-06-02' });
  const newer = await seedUnit({ code: 'NEW101', startDate: '2026-03-02', endDate: '2026-06-01', teachingPeriod: period });
  const sameStart = await seedUnit({ code: 'NEW102', startDate: '2026-03-02', endDate: '2026-06-01' });
  const olderRole = await employ(people.tutor.user, older, 'Tutor');
  const sameStartRole = await employ(people.tutor.user, sameStart, 'Convenor');
  const newerRole = await employ(people.tutor.user, newer, 'Tutor');

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
  const unit = await seedUnit({ code: 'SHR101', startDate: '2026-03-02' });
  const other = await seedUnit({ code: 'OTH101', startDate: '2026-03-02' });
  const mine = await employ(people.tutor.user, unit, 'Tutor');
  await employ(people.convenor.user, unit, 'Convenor');
  await employ(people.convenor.user, other, 'Convenor');
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
  const unit = await seedUnit({ code: 'STU101', startDate: '2026-03-02' });
  await employ(people.student.user, unit, 'Tutor');
  const res = await api(env, 'GET', '/api/unit_roles', { as: people.student.creds });
  assert.is(res.status, 200);
  assert.equal(res.body, []);
  assert.equal((await api(env, 'GET', '/api/unit_roles', { as: people.student.creds, query: { active_only: 'true' } })).body, []);
});

test('active_only=true keeps only roles in active units; false or absent keeps all', async () => {
  const active = await seedUnit({ code: 'ACT101', startDate: '2026-03-02' });
  const inactive = await seedUnit({ code: 'INA101', startDate: '2025-03-02', active: false });
  const activeRole = await employ(people.convenor.user, active, 'Convenor');
  const inactiveRole = await employ(people.convenor.user, inactive, 'Convenor');
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
  const first = await seedUnit({ code: 'Q0', startDate: '2026-03-02' });
  await employ(people.tutor.user, first, 'Tutor');
  const one = await countQueries(env, async () => {
    const res = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
    assert.is(res.body.length, 1);
  });
  const period = await seedPeriod();
  for (let i = 1; i <= 6; i++) {
    const unit = await seedUnit({ code: `Q${i}`, startDate: `2026-0${(i % 9) + 1}-01`, teachingPeriod: i % 2 ? period : undefined });
    await employ(people.tutor.user, unit, i % 2 ? 'Tutor' : 'Convenor');
  }
  const many = await countQueries(env, async () => {
    const res = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
    assert.is(res.body.length, 7);
  });
  assert.is(many, one);
  assert.ok(one <= 2, `expected the session lookup and one list query, got ${one}`);
});

test('a tutor signed in through the API sees the same list (headers as the web client sends them)', async () => {
  const other = await signedIn(env, 'btutor', 'Tutor');
  const unit = await seedUnit({ code: 'WEB101', startDate: '2026-03-02' });
  await employ(other.user, unit, 'Tutor');
  const res = await api(env, 'GET', '/api//unit_roles/', { as: other.creds, hyphenHeader: true });
  assert.is(res.status, 200);
  assert.equal(res.body.map((r: { unit: { code: string } }) => r.unit.code), ['WEB101']);
});

test.run();
