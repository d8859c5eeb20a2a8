// Groups of a group set: GET (list), POST, PUT and DELETE /api/units/{unit_id}/group_sets/{id}/groups,
// following the group set and group permission tables (a Student counts only as a member).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Group, GroupMembership, GroupSet, GroupSubmission, Project, TutorialEnrolment } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type Actor, type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedEnrolmentIn, seedTaskDef, seedTutorialRow } from '../support/seed-tutorials.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/units/{unit_id}/group_sets/{group_set_id}/groups');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

interface World {
  unit: number;
  tutorial: number;
  other: number;
  set: number;
  student: number;
  url: string;
}

type SetSeed = Partial<{
  capacity: number | null;
  locked: boolean;
  keepGroupsInSameClass: boolean;
  allowStudentsToCreateGroups: boolean;
  allowStudentsToManageGroups: boolean;
}>;

/** A unit with its convenor, a tutor, tutorials LA1 and LA2, the student enrolled in LA1, and one group set. */
async function world(set: SetSeed = {}): Promise<World> {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const tutorial = await seedTutorialRow(env, unit, 'LA1');
  const other = await seedTutorialRow(env, unit, 'LA2');
  const student = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, student, tutorial);
  const em = env.orm.em.fork();
  const row = em.create(GroupSet, { unit, name: 'Teams', ...set });
  await em.flush();
  return { unit, tutorial, other, set: row.id, student, url: `/api/units/${unit}/group_sets/${row.id}/groups` };
}

async function seedGroup(w: World, name: string, members: number[] = [], tutorial = w.tutorial, locked = false): Promise<number> {
  const em = env.orm.em.fork();
  const group = em.create(Group, { groupSet: w.set, tutorial, name, locked });
  await em.flush();
  for (const project of members) em.create(GroupMembership, { group: group.id, project, active: true });
  await em.flush();
  return group.id;
}

async function anotherStudent(w: World, username: string, tutorial: number | null = w.tutorial): Promise<{ actor: Actor; project: number }> {
  const actor = await signedIn(env, username, 'Student');
  const project = await enrol(env, actor.user, w.unit);
  if (tutorial !== null) await seedEnrolmentIn(env, project, tutorial);
  return { actor, project };
}

const groupsIn = async (set: number) =>
  (await env.orm.em.fork().find(Group, { groupSet: set }, { orderBy: { id: 'asc' } })).map((g) => ({
    name: g.name,
    tutorial: (g.tutorial as unknown as { id: number }).id,
    adjustment: g.capacityAdjustment,
    locked: g.locked,
  }));
const activeMembers = async (group: number) =>
  (await env.orm.em.fork().find(GroupMembership, { group, active: true }, { orderBy: { id: 'asc' } })).map((m) => (m.project as unknown as { id: number }).id);

// ---- List -------------------------------------------------------------------------------------

test('GET lists the groups with student_count to staff and students; no credentials 419; an Admin off the staff 403', async () => {
  const w = await world();
  const { project: second } = await anotherStudent(w, 'bstudent');
  const a = await seedGroup(w, 'Alpha', [w.student, second]);
  const b = await seedGroup(w, 'Beta', [], w.other);
  // An inactive membership is history, not a member.
  const em = env.orm.em.fork();
  em.create(GroupMembership, { group: b, project: (await anotherStudent(w, 'cstudent')).project, active: false });
  await em.flush();
  const expected = [
    { id: a, name: 'Alpha', tutorial_id: w.tutorial, group_set_id: w.set, student_count: 2, capacity_adjustment: 0, locked: false },
    { id: b, name: 'Beta', tutorial_id: w.other, group_set_id: w.set, student_count: 0, capacity_adjustment: 0, locked: false },
  ];
  for (const who of [people.convenor, people.tutor, people.student]) {
    const res = await api(env, 'GET', `${w.url}/`, { as: who.creds });
    assert.equal([res.status, res.body], [200, expected], who.creds.username);
  }
  let res = await api(env, 'GET', w.url);
  assert.is(res.status, 419);
  res = await api(env, 'GET', w.url, { as: people.admin.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to get groups for this unit' }]);
  const outsider = await signedIn(env, 'zstudent', 'Student');
  res = await api(env, 'GET', w.url, { as: outsider.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to get groups for this unit' }]);
  res = await api(env, 'GET', `/api/units/${w.unit}/group_sets/9999/groups`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
  const otherUnit = await seedUnit(env, { code: 'SIT202' });
  res = await api(env, 'GET', `/api/units/${otherUnit}/group_sets/${w.set}/groups`, { as: people.admin.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
});

test('GET issues the same number of statements for 2 groups as for 12 (no query per group)', async () => {
  const w = await world();
  const measure = () => countStatements(() => api(env, 'GET', w.url, { as: people.tutor.creds }));
  await seedGroup(w, 'G1', [w.student]);
  await seedGroup(w, 'G2');
  await measure(); // the first request also verifies the token; the session cache holds it after
  const few = await measure();
  for (let n = 3; n <= 12; n++) await seedGroup(w, `G${n}`);
  const many = await measure();
  assert.is(many, few);
  assert.is((await api(env, 'GET', w.url, { as: people.tutor.creds })).body.length, 12);
});

// ---- Create -----------------------------------------------------------------------------------

test('POST by staff: a blank name is generated, the answer carries the group flat and under `group`', async () => {
  const w = await world();
  await seedGroup(w, 'Group 2');
  let res = await api(env, 'POST', `${w.url}/`, { as: people.convenor.creds, json: { group: { name: '', tutorial_id: w.tutorial } } });
  assert.is(res.status, 201, res.text);
  const group = { id: res.body.id, name: 'Group 3', tutorial_id: w.tutorial, group_set_id: w.set, student_count: 0, capacity_adjustment: 0, locked: false };
  assert.equal(res.body, { ...group, group });
  res = await api(env, 'POST', w.url, { as: people.tutor.creds, json: { name: 'Owls', tutorial_id: w.other, capacity_adjustment: 1 } });
  assert.equal([res.status, res.body.name, res.body.tutorial_id, res.body.capacity_adjustment], [201, 'Owls', w.other, 1]);
  res = await api(env, 'POST', w.url, { as: people.convenor.creds, form: { group: { tutorial_id: String(w.tutorial) } } });
  assert.equal([res.status, res.body.name], [201, 'Group 4']);
  assert.equal(await activeMembers(res.body.id), []);
  assert.equal(
    (await groupsIn(w.set)).map((g) => g.name),
    ['Group 2', 'Group 3', 'Owls', 'Group 4'],
  );
});

test('POST refusals: taken name 403, unknown tutorial or set 404, missing tutorial 400, an Admin off the staff 403', async () => {
  const w = await world();
  await seedGroup(w, 'Owls');
  const post = (body: unknown, who = people.convenor, url = w.url) => api(env, 'POST', url, { as: who.creds, json: body });
  let res = await post({ group: { name: 'Owls', tutorial_id: w.tutorial } });
  assert.equal([res.status, res.body], [403, { error: 'This group name is not unique to the Teams group set.' }]);
  res = await post({ group: { name: 'Hawks', tutorial_id: 9999 } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial' }]);
  const foreign = await seedTutorialRow(env, await seedUnit(env, { code: 'SIT202' }), 'X1');
  res = await post({ group: { name: 'Hawks', tutorial_id: foreign } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial' }]);
  res = await post({ group: { name: 'Hawks' } });
  assert.equal([res.status, res.body], [400, { error: 'group[tutorial_id] is missing' }]);
  res = await post({ group: { tutorial_id: 'abc' } });
  assert.equal([res.status, res.body], [400, { error: 'group[tutorial_id] is invalid' }]);
  res = await post({ group: { name: 'Hawks', tutorial_id: w.tutorial } }, people.convenor, `/api/units/${w.unit}/group_sets/9999/groups`);
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
  res = await post({ group: { name: 'Hawks', tutorial_id: w.tutorial } }, people.admin);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to create a group set for this unit' }]);
  assert.equal(
    (await groupsIn(w.set)).map((g) => g.name),
    ['Owls'],
  );
});

test('POST by a student: they join the new group, once per set; the set must let them; no capacity adjustment', async () => {
  const w = await world({ capacity: 3 });
  const post = (body: unknown) => api(env, 'POST', w.url, { as: people.student.creds, json: { group: body } });
  let res = await post({ tutorial_id: w.tutorial, capacity_adjustment: 2 });
  assert.equal([res.status, res.body], [403, { error: 'You are not authorised to change the capacity of this group' }]);
  res = await post({ tutorial_id: w.tutorial });
  assert.equal([res.status, res.body.name, res.body.student_count], [201, 'Group 1', 1]);
  assert.equal(await activeMembers(res.body.id), [w.student]);
  res = await post({ tutorial_id: w.tutorial });
  assert.equal([res.status, res.body], [403, { error: 'You are already in a group for Teams' }]);
  assert.is((await groupsIn(w.set)).length, 1);

  const refusingSets: [string, { allowStudentsToCreateGroups: boolean; locked: boolean }][] = [
    ['bstudent', { allowStudentsToCreateGroups: false, locked: false }],
    ['cstudent', { allowStudentsToCreateGroups: true, locked: true }],
  ];
  for (const [username, flags] of refusingSets) {
    await env.orm.em.fork().nativeUpdate(GroupSet, { id: w.set }, flags);
    const { actor } = await anotherStudent(w, username);
    res = await api(env, 'POST', w.url, { as: actor.creds, json: { group: { tutorial_id: w.tutorial } } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to create a group set for this unit' }], JSON.stringify(flags));
  }
  assert.is((await groupsIn(w.set)).length, 1);
});

test('POST by a student in a set that keeps groups in one class: only in their own tutorial', async () => {
  const w = await world({ keepGroupsInSameClass: true });
  let res = await api(env, 'POST', w.url, { as: people.student.creds, json: { group: { tutorial_id: w.other } } });
  assert.equal([res.status, res.body], [403, { error: "Students from the tutorial 'LA2' can only be added to this group." }]);
  res = await api(env, 'POST', w.url, { as: people.student.creds, json: { group: { tutorial_id: w.tutorial } } });
  assert.is(res.status, 201);
});

// ---- Update -----------------------------------------------------------------------------------

test('PUT: a new group is unlocked; its student member cannot lock it, the convenor (and an Admin) can lock and unlock', async () => {
  const w = await world();
  const group = await seedGroup(w, 'Owls', [w.student]);
  const url = `${w.url}/${group}`;
  let res = await api(env, 'PUT', url, { as: people.student.creds, json: { group: { locked: true } } });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to lock this group' }]);
  res = await api(env, 'PUT', url, { as: people.convenor.creds, json: { group: { locked: true } } });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { id: group, name: 'Owls', tutorial_id: w.tutorial, group_set_id: w.set, student_count: 1, capacity_adjustment: 0, locked: true });
  res = await api(env, 'PUT', url, { as: people.admin.creds, form: { group: { locked: 'false' } } });
  assert.equal([res.status, res.body.locked], [200, false]);
  await api(env, 'PUT', url, { as: people.tutor.creds, json: { locked: true } });
  res = await api(env, 'PUT', url, { as: people.convenor.creds, json: {} });
  assert.equal([res.status, res.body.locked], [200, true]);
});

test('PUT by students: a member may rename an unlocked group when the set allows; others, and changes reserved to staff, are refused', async () => {
  const w = await world();
  const group = await seedGroup(w, 'Owls', [w.student]);
  await seedGroup(w, 'Hawks');
  const url = `${w.url}/${group}`;
  const put = (body: unknown, who: Actor = people.student) => api(env, 'PUT', url, { as: who.creds, json: { group: body } });
  let res = await put({ name: 'Night owls' });
  assert.equal([res.status, res.body.name], [200, 'Night owls']);
  res = await put({ tutorial_id: w.other });
  assert.equal([res.status, res.body], [403, { error: 'You are not authorised to change the tutorial of this group' }]);
  res = await put({ capacity_adjustment: 2 });
  assert.equal([res.status, res.body], [403, { error: 'You are not authorised to change the capacity of this group' }]);
  res = await put({ name: 'Hawks' });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Name must be unique within the set of groups' }]);
  res = await put({ name: '  ' });
  assert.equal([res.status, res.body], [400, { error: 'group[name] is empty' }]);
  const { actor: nonMember } = await anotherStudent(w, 'bstudent');
  res = await put({ name: 'Mine' }, nonMember);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to update this group' }]);
  await env.orm.em.fork().nativeUpdate(GroupSet, { id: w.set }, { allowStudentsToManageGroups: false });
  res = await put({ name: 'Again' });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to update this group' }]);
  res = await api(env, 'PUT', `${w.url}/9999`, { as: people.convenor.creds, json: { group: { name: 'X' } } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group' }]);
  assert.equal(await groupsIn(w.set), [
    { name: 'Night owls', tutorial: w.tutorial, adjustment: 0, locked: false },
    { name: 'Hawks', tutorial: w.tutorial, adjustment: 0, locked: false },
  ]);
});

test('PUT by a tutor moves a group and adjusts its capacity; an unknown tutorial is 404', async () => {
  const w = await world();
  const group = await seedGroup(w, 'Owls', [w.student]);
  const url = `${w.url}/${group}`;
  let res = await api(env, 'PUT', url, { as: people.tutor.creds, json: { group: { tutorial_id: w.other, capacity_adjustment: -1 } } });
  assert.equal([res.status, res.body.tutorial_id, res.body.capacity_adjustment], [200, w.other, -1]);
  // Not a keep-in-class set: the members stay where they are.
  assert.equal(
    (await env.orm.em.fork().find(TutorialEnrolment, { project: w.student })).map((e) => (e.tutorial as unknown as { id: number }).id),
    [w.tutorial],
  );
  res = await api(env, 'PUT', url, { as: people.tutor.creds, json: { group: { tutorial_id: 9999 } } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial' }]);
  assert.equal(await groupsIn(w.set), [{ name: 'Owls', tutorial: w.other, adjustment: -1, locked: false }]);
});

test('PUT moving a keep-in-class group enrols its active enrolled members in the new tutorial, not withdrawn ones', async () => {
  const w = await world({ keepGroupsInSameClass: true });
  const withdrawn = await anotherStudent(w, 'bstudent');
  await env.orm.em.fork().nativeUpdate(Project, { id: withdrawn.project }, { enrolled: false });
  const group = await seedGroup(w, 'Owls', [w.student, withdrawn.project]);
  const res = await api(env, 'PUT', `${w.url}/${group}`, { as: people.convenor.creds, json: { group: { tutorial_id: w.other } } });
  assert.is(res.status, 200, res.text);
  const tutorialsOf = async (project: number) =>
    (await env.orm.em.fork().find(TutorialEnrolment, { project })).map((e) => (e.tutorial as unknown as { id: number }).id);
  assert.equal(await tutorialsOf(w.student), [w.other]);
  assert.equal(await tutorialsOf(withdrawn.project), [w.tutorial]);
  assert.equal(await activeMembers(group), [w.student, withdrawn.project]);
});

// ---- Delete -----------------------------------------------------------------------------------

test('DELETE: staff delete any group (200 true) with its memberships; a student only one they are alone in', async () => {
  const w = await world();
  const second = await anotherStudent(w, 'bstudent');
  const crowded = await seedGroup(w, 'Crowd', [w.student, second.project]);
  let res = await api(env, 'DELETE', `${w.url}/${crowded}`, { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'You cannot delete a group with members' }]);
  res = await api(env, 'DELETE', `${w.url}/${crowded}`, { as: people.tutor.creds });
  assert.equal([res.status, res.body], [200, true]);
  assert.is(await env.orm.em.fork().count(GroupMembership, { group: crowded }), 0);
  const alone = await seedGroup(w, 'Solo', [w.student]);
  res = await api(env, 'DELETE', `${w.url}/${alone}`, { as: second.actor.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to delete group set for this unit' }]);
  res = await api(env, 'DELETE', `${w.url}/${alone}`, { as: people.student.creds });
  assert.equal([res.status, res.body], [200, true]);
  assert.equal(await groupsIn(w.set), []);
  res = await api(env, 'DELETE', `${w.url}/${alone}`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group' }]);
});

test('DELETE refuses a group with a submission (400) and a locked group to its student member (403)', async () => {
  const w = await world();
  const group = await seedGroup(w, 'Owls', [w.student], w.tutorial, true);
  let res = await api(env, 'DELETE', `${w.url}/${group}`, { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to delete group set for this unit' }]);
  const em = env.orm.em.fork();
  em.create(GroupSubmission, { group, taskDefinition: await seedTaskDef(env, w.unit, 'T1'), createdAt: new Date() });
  await em.flush();
  res = await api(env, 'DELETE', `${w.url}/${group}`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete group while it has submissions.' }]);
  assert.is((await groupsIn(w.set)).length, 1);
});

test.run();
