// A unit's group sets: POST, PUT (with the lock) and DELETE /api/units/{unit_id}/group_sets, their
// capacity and keep-in-class rules, and the `group_sets` GET /api/units/{id} shows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Group, GroupMembership, GroupSet, GroupSubmission } from '../../schema/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { appRouter } from '../../src/routers/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedEnrolmentIn, seedGroupIn, seedTaskDef, seedTutorialRow } from '../support/seed-tutorials.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';
import { groupSetsOfUnit } from '../../src/operations/units/group_sets/read-group-sets.ts';
import { groupsOfUnit } from '../../src/operations/units/group_sets/groups/read-groups.ts';

const test = suite('REST /api/units/{unit_id}/group_sets');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function convenedUnit(code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  return unit;
}
const setsIn = async (unit: number) =>
  (await env.orm.em.fork().find(GroupSet, { unit }, { orderBy: { id: 'asc' } })).map((s) => ({
    name: s.name,
    capacity: s.capacity,
    locked: s.locked,
    keep: s.keepGroupsInSameClass,
  }));

const SET_KEYS = ['id', 'name', 'allow_students_to_create_groups', 'allow_students_to_manage_groups', 'keep_groups_in_same_class', 'capacity', 'locked'];

test('POST (JSON wrapped in group_set, or bracketed form) answers the set with its defaults; the unit shows it', async () => {
  const unit = await convenedUnit();
  const res = await api(env, 'POST', `/api/units/${unit}/group_sets/`, { as: people.convenor.creds, json: { group_set: { name: 'Assignment teams' } } });
  assert.is(res.status, 201, res.text);
  assert.equal(Object.keys(res.body).sort(), [...SET_KEYS].sort());
  assert.equal(res.body, {
    id: res.body.id,
    name: 'Assignment teams',
    allow_students_to_create_groups: true,
    allow_students_to_manage_groups: true,
    keep_groups_in_same_class: false,
    capacity: null,
    locked: false,
  });
  const form = await api(env, 'POST', `/api/units/${unit}/group_sets`, {
    as: people.admin.creds,
    form: { group_set: { name: 'Labs', capacity: '4', keep_groups_in_same_class: 'true', allow_students_to_create_groups: 'false' } },
  });
  assert.is(form.status, 201, form.text);
  assert.equal([form.body.capacity, form.body.keep_groups_in_same_class, form.body.allow_students_to_create_groups], [4, true, false]);
  const detail = await api(env, 'GET', `/api/units/${unit}`, { as: people.convenor.creds });
  assert.equal(detail.body.group_sets, [res.body, form.body]);
});

test('POST: students, tutors and other convenors are refused; bad capacity, duplicate or missing name 400; unknown unit 404', async () => {
  const unit = await convenedUnit();
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const other = await signedIn(env, 'bconvenor', 'Convenor');
  for (const who of [people.student, people.tutor, other]) {
    const res = await api(env, 'POST', `/api/units/${unit}/group_sets`, { as: who.creds, json: { group_set: { name: 'X' } } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to create a group set for this unit' }], who.creds.username);
  }
  const post = (body: unknown, url = `/api/units/${unit}/group_sets`) => api(env, 'POST', url, { as: people.convenor.creds, json: body });
  let res = await post({ group_set: { name: 'Teams', capacity: 1 } });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Capacity must be greater than or equal to 2' }]);
  res = await post({ group_set: {} });
  assert.equal([res.status, res.body], [400, { error: 'group_set[name] is missing' }]);
  res = await post({ group_set: { name: 'Teams', capacity: 'lots' } });
  assert.equal([res.status, res.body], [400, { error: 'group_set[capacity] is invalid' }]);
  res = await post({ group_set: { name: 'Teams' } }, '/api/units/9999/group_sets');
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }]);
  assert.equal(await setsIn(unit), []);
  assert.is((await post({ group_set: { name: 'Teams' } })).status, 201);
  res = await post({ group_set: { name: 'Teams' } });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Name should be unique within a unit' }]);
  assert.equal(await setsIn(unit), [{ name: 'Teams', capacity: null, locked: false, keep: false }]);
});

test('PUT changes only the fields sent, locks and unlocks, and clears the capacity', async () => {
  const unit = await convenedUnit();
  const created = await api(env, 'POST', `/api/units/${unit}/group_sets`, { as: people.convenor.creds, json: { group_set: { name: 'Teams', capacity: 3 } } });
  const url = `/api/units/${unit}/group_sets/${created.body.id}`;
  let res = await api(env, 'PUT', url, { as: people.convenor.creds, json: { group_set: { locked: true } } });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { ...created.body, locked: true });
  res = await api(env, 'PUT', url, { as: people.admin.creds, form: { group_set: { name: 'Pairs', capacity: '', locked: 'false' } } });
  assert.equal([res.status, res.body], [200, { ...created.body, name: 'Pairs', capacity: null, locked: false }]);
  assert.equal(await setsIn(unit), [{ name: 'Pairs', capacity: null, locked: false, keep: false }]);
});

test('PUT: a tutor is refused; unknown sets, sets of another unit, bad capacity and taken names are refused; nothing changes', async () => {
  const unit = await convenedUnit();
  const otherUnit = await convenedUnit('SIT202');
  await employ(env, people.tutor.user, unit, 'Tutor');
  const mine = await api(env, 'POST', `/api/units/${unit}/group_sets`, { as: people.convenor.creds, json: { group_set: { name: 'Teams' } } });
  await api(env, 'POST', `/api/units/${unit}/group_sets`, { as: people.convenor.creds, json: { group_set: { name: 'Labs' } } });
  const theirs = await api(env, 'POST', `/api/units/${otherUnit}/group_sets`, { as: people.convenor.creds, json: { group_set: { name: 'Other' } } });
  const put = (id: number, body: unknown, who = people.convenor) =>
    api(env, 'PUT', `/api/units/${unit}/group_sets/${id}`, { as: who.creds, json: { group_set: body } });
  let res = await put(mine.body.id, { locked: true }, people.tutor);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to update group set for this unit' }]);
  res = await put(theirs.body.id, { locked: true });
  assert.equal([res.status, res.body], [404, { error: 'Unable to locate group set for unit' }]);
  res = await put(9999, { locked: true });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
  res = await put(mine.body.id, { capacity: 0 });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Capacity must be greater than or equal to 2' }]);
  res = await put(mine.body.id, { name: 'Labs' });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Name should be unique within a unit' }]);
  assert.equal(await setsIn(unit), [
    { name: 'Teams', capacity: null, locked: false, keep: false },
    { name: 'Labs', capacity: null, locked: false, keep: false },
  ]);
  assert.equal(await setsIn(otherUnit), [{ name: 'Other', capacity: null, locked: false, keep: false }]);
});

test('keeping groups in one class is refused while an active enrolled member is outside the group tutorial', async () => {
  const unit = await convenedUnit();
  const tutorial = await seedTutorialRow(env, unit, 'LA1');
  const inside = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, inside, tutorial);
  const outsider = await signedIn(env, 'bstudent', 'Student');
  const outside = await enrol(env, outsider.user, unit);
  const { groupSet } = await seedGroupIn(env, unit, tutorial, { members: [inside, outside] });
  const url = `/api/units/${unit}/group_sets/${groupSet}`;
  let res = await api(env, 'PUT', url, { as: people.convenor.creds, json: { group_set: { keep_groups_in_same_class: true } } });
  assert.equal([res.status, res.body], [400, { error: "Validation failed: Groups exist where some members are not in the group's tutorial" }]);
  assert.is((await setsIn(unit))[0].keep, false);
  // Once the outsider is in the tutorial (or has left the group), the set may keep groups in class.
  await seedEnrolmentIn(env, outside, tutorial);
  res = await api(env, 'PUT', url, { as: people.convenor.creds, json: { group_set: { keep_groups_in_same_class: true } } });
  assert.equal([res.status, res.body.keep_groups_in_same_class], [200, true]);
});

test('DELETE answers 204 and takes the groups and memberships; refused for students and while a group has a submission', async () => {
  const unit = await convenedUnit();
  const tutorial = await seedTutorialRow(env, unit, 'LA1');
  const project = await enrol(env, people.student.user, unit);
  const { groupSet, group } = await seedGroupIn(env, unit, tutorial, { members: [project] });
  const url = `/api/units/${unit}/group_sets/${groupSet}`;
  let res = await api(env, 'DELETE', url, { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to delete group set for this unit' }]);
  const em = env.orm.em.fork();
  const submission = em.create(GroupSubmission, { group, taskDefinition: await seedTaskDef(env, unit, 'T1'), createdAt: new Date() });
  await em.flush();
  res = await api(env, 'DELETE', url, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete group while it has submissions.' }]);
  assert.is(await env.orm.em.fork().count(Group, { groupSet }), 1);
  await em.nativeDelete(GroupSubmission, { id: submission.id });
  res = await api(env, 'DELETE', url, { as: people.convenor.creds });
  assert.is(res.status, 204, res.text);
  assert.equal(await setsIn(unit), []);
  assert.is(await env.orm.em.fork().count(Group, {}), 0);
  assert.is(await env.orm.em.fork().count(GroupMembership, {}), 0);
  res = await api(env, 'DELETE', url, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
});

test('tRPC: units.groupSets.create and update answer the same set as REST', async () => {
  const unit = await convenedUnit();
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const set = await caller.units.groupSets.create({ unit_id: unit, group_set: { name: 'Teams', capacity: 2 } });
  assert.equal(set, {
    id: set.id,
    name: 'Teams',
    allow_students_to_create_groups: true,
    allow_students_to_manage_groups: true,
    keep_groups_in_same_class: false,
    capacity: 2,
    locked: false,
  });
  const locked = await caller.units.groupSets.update({ unit_id: unit, id: set.id, group_set: { locked: true } });
  assert.is(locked.locked, true);
});

test("the unit's loaders read its sets and its groups (with member counts) in one query each, whatever their number", async () => {
  const unit = await convenedUnit();
  const tutorial = await seedTutorialRow(env, unit, 'LA1');
  const project = await enrol(env, people.student.user, unit);
  const em = env.orm.em.fork();
  const sets = [1, 2, 3].map((n) => em.create(GroupSet, { unit, name: `Set ${n}` }));
  await em.flush();
  const groups = sets.flatMap((set) => [1, 2, 3, 4].map((n) => em.create(Group, { groupSet: set.id, tutorial, name: `G${n}` })));
  await em.flush();
  em.create(GroupMembership, { group: groups[0].id, project });
  await em.flush();
  let loaded: Awaited<ReturnType<typeof groupsOfUnit>> = [];
  assert.is(await countStatements(async () => void (await groupSetsOfUnit(env.orm.em.fork(), unit))), 1);
  const load = async () => {
    loaded = await groupsOfUnit(env.orm.em.fork(), unit);
  };
  assert.is(await countStatements(load), 1);
  assert.is(loaded.length, 12);
  assert.equal(
    loaded.map((g) => g.student_count),
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  );
});

test.run();
