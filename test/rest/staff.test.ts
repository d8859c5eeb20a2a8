// Employing staff in a unit: POST, PUT and DELETE /api/unit_roles, and the staff list loader
// GET /api/units/{id} shows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCError } from '@trpc/server';
import { Unit, UnitRole, type IUser } from '../../schema/index.ts';
import { appRouter } from '../../src/routers/index.ts';
import { staffOfUnit } from '../../src/operations/unit_roles/staff-rows.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/unit_roles: employing staff');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const userOf = (u: IUser) => ({ id: u.id, email: u.email, first_name: u.firstName, last_name: u.lastName, username: u.username, nickname: u.nickname ?? null });
const rolesIn = async (unit: number) =>
  (await env.orm.em.fork().find(UnitRole, { unit }, { orderBy: { id: 'asc' } })).map((r) => ({ user: (r.user as unknown as { id: number }).id, role: r.role }));
const mainConvenorOf = async (unit: number) => {
  const u = await env.orm.em.fork().findOneOrFail(Unit, { id: unit });
  return u.mainConvenor ? (u.mainConvenor as unknown as { id: number }).id : null;
};

/** A unit whose main convenor is people.convenor. */
async function convenedUnit(code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  const main = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  return { unit, main };
}

test('the convenor employs a tutor: 201 with the unit role, the user and nothing else', async () => {
  const { unit } = await convenedUnit();
  const res = await api(env, 'POST', '/api/unit_roles/', { as: people.convenor.creds, json: { unit_id: unit, user_id: people.tutor.user.id, role: 'Tutor' } });
  assert.is(res.status, 201, res.text);
  const stored = await env.orm.em.fork().findOneOrFail(UnitRole, { unit, user: people.tutor.user.id });
  assert.equal(res.body, { id: stored.id, role: 'Tutor', user: userOf(people.tutor.user) });
  assert.is(stored.role, 'Tutor');
});

test('form bodies and role names in any case are accepted; an admin employs in any unit', async () => {
  const unit = await seedUnit(env, { code: 'SIT102' });
  const res = await api(env, 'POST', '/api/unit_roles', {
    as: people.admin.creds,
    form: { unit_id: unit, user_id: people.convenor.user.id, role: 'convenor' },
  });
  assert.is(res.status, 201, res.text);
  assert.is(res.body.role, 'Convenor');
  // The first convenor of a unit with no main convenor becomes its main convenor.
  assert.is(await mainConvenorOf(unit), res.body.id);
});

test('a tutor employed first does not become main convenor', async () => {
  const unit = await seedUnit(env, { code: 'SIT103' });
  const res = await api(env, 'POST', '/api/unit_roles', { as: people.admin.creds, json: { unit_id: unit, user_id: people.tutor.user.id, role: 'Tutor' } });
  assert.is(res.status, 201);
  assert.is(await mainConvenorOf(unit), null);
});

test('someone already on the staff keeps their role and is answered with it (no second role)', async () => {
  const { unit, main } = await convenedUnit();
  const res = await api(env, 'POST', '/api/unit_roles', {
    as: people.convenor.creds,
    json: { unit_id: unit, user_id: people.convenor.user.id, role: 'tutor' },
  });
  assert.is(res.status, 201);
  assert.equal(res.body, { id: main, role: 'Convenor', user: userOf(people.convenor.user) });
  assert.equal(await rolesIn(unit), [{ user: people.convenor.user.id, role: 'Convenor' }]);
});

test('students are enrolled, never employed; unknown and Admin roles are refused', async () => {
  const { unit } = await convenedUnit();
  const post = (role: string, user = people.student.user.id) =>
    api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: unit, user_id: user, role } });
  let res = await post('Student');
  assert.equal([res.status, res.body], [403, { error: 'Enrol students as projects not unit roles' }]);
  res = await post('asdf');
  assert.equal([res.status, res.body], [403, { error: "Couldn't find Role with name=asdf" }]);
  res = await post('Admin', people.admin.user.id);
  assert.equal([res.status, res.body], [400, { error: 'Staff are employed as Tutor or Convenor' }]);
  assert.equal(await rolesIn(unit), [{ user: people.convenor.user.id, role: 'Convenor' }]);
});

test("the user's system role must allow the unit role", async () => {
  const { unit } = await convenedUnit();
  let res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: unit, user_id: people.tutor.user.id, role: 'Convenor' } });
  assert.is(res.status, 400);
  assert.match(res.body.error, /^Validation failed: User must have a role that is able to administer units/);
  res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: unit, user_id: people.student.user.id, role: 'Tutor' } });
  assert.is(res.status, 400);
  assert.match(res.body.error, /able to teach units/);
  assert.is((await rolesIn(unit)).length, 1);
});

test('tutors, students and convenors of other units are refused; unknown units and users are 404', async () => {
  const { unit } = await convenedUnit();
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const other = await signedIn(env, 'otherconvenor', 'Convenor');
  const newcomer = await signedIn(env, 'newtutor', 'Tutor');
  for (const who of [people.tutor, people.student, other]) {
    const res = await api(env, 'POST', '/api/unit_roles', { as: who.creds, json: { unit_id: unit, user_id: newcomer.user.id, role: 'Tutor' } });
    assert.equal([res.status, res.body], [403, { error: `Couldn't find Unit with id=${unit}` }], who.creds.username);
  }
  let res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: 9999, user_id: newcomer.user.id, role: 'Tutor' } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }]);
  res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: unit, user_id: 9999, role: 'Tutor' } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested User' }]);
  assert.is((await rolesIn(unit)).length, 2);
});

test('missing or ill-typed fields are 400; no credentials 419', async () => {
  const { unit } = await convenedUnit();
  let res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: unit, role: 'Tutor' } });
  assert.equal([res.status, res.body], [400, { error: 'user_id is missing' }]);
  res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: 'abc', user_id: people.tutor.user.id, role: 'Tutor' } });
  assert.equal([res.status, res.body], [400, { error: 'unit_id is invalid' }]);
  res = await api(env, 'POST', '/api/unit_roles', { as: people.convenor.creds, json: { unit_id: unit, user_id: people.tutor.user.id, role: '' } });
  assert.equal([res.status, res.body], [400, { error: 'role is empty' }]);
  res = await api(env, 'POST', '/api/unit_roles', { json: { unit_id: unit, user_id: people.tutor.user.id, role: 'Tutor' } });
  assert.is(res.status, 419);
  assert.is((await rolesIn(unit)).length, 1);
});

test('PUT changes a role by role_id as the web client sends it, or by name', async () => {
  const { unit } = await convenedUnit();
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const admin2 = await signedIn(env, 'cconvenor', 'Convenor');
  const second = await employ(env, admin2.user, unit, 'Tutor');
  let res = await api(env, 'PUT', `/api/unit_roles/${second}`, {
    as: people.convenor.creds,
    json: { unit_role: { role_id: 3, user_id: admin2.user.id, unit_id: unit } },
  });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { id: second, role: 'Convenor', user: userOf(admin2.user) });
  res = await api(env, 'PUT', `/api/unit_roles/${second}`, { as: people.admin.creds, form: { unit_role: { role: 'Tutor' } } });
  assert.equal([res.status, res.body.role], [200, 'Tutor']);
  // A tutor whose system role cannot convene stays a tutor.
  res = await api(env, 'PUT', `/api/unit_roles/${tutorRole}`, { as: people.convenor.creds, json: { unit_role: { role_id: 3 } } });
  assert.is(res.status, 400);
  assert.match(res.body.error, /able to administer units/);
  assert.equal(await rolesIn(unit), [
    { user: people.convenor.user.id, role: 'Convenor' },
    { user: people.tutor.user.id, role: 'Tutor' },
    { user: admin2.user.id, role: 'Tutor' },
  ]);
});

test('PUT keeps one convenor, keeps the main convenor a convenor, and refuses students and bad role ids', async () => {
  const { unit, main } = await convenedUnit();
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const put = (id: number, unit_role: Record<string, unknown>) => api(env, 'PUT', `/api/unit_roles/${id}`, { as: people.convenor.creds, json: { unit_role } });
  let res = await put(main, { role_id: 2 });
  assert.equal([res.status, res.body], [403, { error: 'There must be at least one convenor for the unit' }]);
  const other = await signedIn(env, 'bconvenor', 'Convenor');
  await employ(env, other.user, unit, 'Convenor');
  res = await put(main, { role_id: 2 });
  assert.is(res.status, 400);
  assert.match(res.body.error, /main contact for the unit/);
  res = await put(tutorRole, { role_id: 1 });
  assert.equal([res.status, res.body], [403, { error: 'Enrol students as projects not unit roles' }]);
  res = await put(tutorRole, { role_id: 9 });
  assert.equal([res.status, res.body], [400, { error: 'unit_role[role_id] is invalid' }]);
  res = await put(tutorRole, {});
  assert.equal([res.status, res.body], [400, { error: 'unit_role[role_id] is missing' }]);
  assert.is((await env.orm.em.fork().findOneOrFail(UnitRole, { id: main })).role, 'Convenor');
});

test('PUT and DELETE: tutors and students are refused, unknown roles are 404', async () => {
  const { unit } = await convenedUnit();
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  for (const who of [people.tutor, people.student]) {
    let res = await api(env, 'PUT', `/api/unit_roles/${tutorRole}`, { as: who.creds, json: { unit_role: { role_id: 3 } } });
    assert.equal([res.status, res.body], [403, { error: `Couldn't find UnitRole with id=${tutorRole}` }]);
    res = await api(env, 'DELETE', `/api/unit_roles/${tutorRole}`, { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: `Couldn't find UnitRole with id=${tutorRole}` }]);
  }
  assert.is((await rolesIn(unit)).length, 2);
  let res = await api(env, 'PUT', '/api/unit_roles/9999', { as: people.convenor.creds, json: { unit_role: { role_id: 3 } } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit Role' }]);
  res = await api(env, 'DELETE', '/api/unit_roles/9999', { as: people.convenor.creds });
  assert.is(res.status, 404);
  res = await api(env, 'DELETE', '/api/unit_roles/abc', { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'id is invalid' }]);
});

test('DELETE removes a staff member (204); the main convenor only once another is main convenor', async () => {
  const { unit, main } = await convenedUnit();
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  let res = await api(env, 'DELETE', `/api/unit_roles/${tutorRole}`, { as: people.convenor.creds });
  assert.is(res.status, 204, res.text);
  res = await api(env, 'DELETE', `/api/unit_roles/${main}`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete this role as the user is the main contact for the unit' }]);
  assert.equal(await rolesIn(unit), [{ user: people.convenor.user.id, role: 'Convenor' }]);
  const other = await signedIn(env, 'bconvenor', 'Convenor');
  const next = await employ(env, other.user, unit, 'Convenor');
  await env.orm.em.fork().nativeUpdate(Unit, { id: unit }, { mainConvenor: next });
  res = await api(env, 'DELETE', `/api/unit_roles/${main}`, { as: people.admin.creds });
  assert.is(res.status, 204);
  assert.equal(await rolesIn(unit), [{ user: other.user.id, role: 'Convenor' }]);
});

test('tRPC: the same operations, with the delete form and typed refusals', async () => {
  const { unit } = await convenedUnit();
  const caller = (creds: { username: string; token: string }) => createCallerFactory(appRouter)(createContext(env.services, creds));
  const made = await caller(people.convenor.creds).unitRoles.create({ unit_id: unit, user_id: people.tutor.user.id, role: 'Tutor' });
  assert.is(made.role, 'Tutor');
  const gone = await caller(people.convenor.creds).unitRoles.delete({ id: made.id });
  assert.equal(
    { id: gone.id, user_id: gone.user_id, unit_id: gone.unit_id, role_id: gone.role_id, tutorial_id: gone.tutorial_id },
    { id: made.id, user_id: people.tutor.user.id, unit_id: unit, role_id: 2, tutorial_id: null },
  );
  try {
    await caller(people.student.creds).unitRoles.create({ unit_id: unit, user_id: people.tutor.user.id, role: 'Tutor' });
    assert.unreachable('refused');
  } catch (error) {
    assert.instance(error, TRPCError);
    assert.is((error as TRPCError).code, 'FORBIDDEN');
  }
});

test('staffOfUnit: the staff list of a unit in one query, with the keys the unit page reads', async () => {
  const { unit, main } = await convenedUnit();
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const elsewhere = await seedUnit(env, { code: 'SIT999' });
  await employ(env, people.admin.user, elsewhere, 'Convenor');
  let staff: Awaited<ReturnType<typeof staffOfUnit>> = [];
  const queries = await countStatements(async () => {
    staff = await staffOfUnit(env.orm.em.fork(), unit);
  });
  assert.is(queries, 1);
  assert.equal(staff, [
    { id: main, role: 'Convenor', user: userOf(people.convenor.user) },
    { id: tutorRole, role: 'Tutor', user: userOf(people.tutor.user) },
  ]);
});

test.run();
