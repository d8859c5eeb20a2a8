// A group's members: GET, POST .../members/{project_id} and DELETE .../members/{id} under
// /api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GroupSet } from '../../schema/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { appRouter } from '../../src/routers/index.ts';
import { joinGroup } from '../../src/operations/units/group_sets/groups/members/join-group.ts';
import type { TestEnv } from '../support/env.ts';
import { type Actor, type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { membershipsOf, seedGroupRow, seedGroupSet, seedMember, type SetSeed } from '../support/seed-group-members.ts';
import { seedEnrolmentIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/units/{unit_id}/group_sets/{group_set_id}/groups/{group_id}/members');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

interface World {
  unit: number;
  set: number;
  tutorial: number;
  group: number;
  /** people.student's project. */
  project: number;
}

/** A unit convened by people.convenor and tutored by people.tutor, people.student enrolled, one set with group G1 in tutorial T1. */
async function world(setSeed: SetSeed = {}): Promise<World> {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit, { targetGrade: 2 });
  const tutorial = await seedTutorialRow(env, unit, 'T1');
  const set = await seedGroupSet(env, unit, setSeed);
  const group = await seedGroupRow(env, set, tutorial, 'G1');
  return { unit, set, tutorial, group, project };
}

const base = (w: Pick<World, 'unit' | 'set'>, group: number) => `/api/units/${w.unit}/group_sets/${w.set}/groups/${group}/members`;
const add = (w: World, project: number, as: Actor, group = w.group) => api(env, 'POST', `${base(w, group)}/${project}`, { as: as.creds, json: {} });
const remove = (w: World, project: number, as: Actor, group = w.group) => api(env, 'DELETE', `${base(w, group)}/${project}`, { as: as.creds });

async function student(w: World, username: string, options: { enrolled?: boolean } = {}): Promise<{ actor: Actor; project: number }> {
  const actor = await signedIn(env, username, 'Student');
  return { actor, project: await enrol(env, actor.user, w.unit, { enrolled: options.enrolled ?? true }) };
}

// ---- GET --------------------------------------------------------------------------------------

test('staff and a member list the active, enrolled members with the student object the web client reads', async () => {
  const w = await world();
  const other = await student(w, 'bstudent');
  const gone = await student(w, 'cstudent', { enrolled: false });
  const left = await student(w, 'dstudent');
  await seedMember(env, w.group, w.project);
  await seedMember(env, w.group, other.project);
  await seedMember(env, w.group, gone.project);
  await seedMember(env, w.group, left.project, false);
  for (const who of [people.convenor, people.tutor, people.student]) {
    const res = await api(env, 'GET', `${base(w, w.group)}/`, { as: who.creds });
    assert.is(res.status, 200, `${who.user.username}: ${res.text}`);
    assert.equal(res.body, [
      {
        id: w.project,
        target_grade: 2,
        student: {
          id: people.student.user.id,
          email: 'astudent@example.edu',
          first_name: 'Astudent',
          last_name: 'Tester',
          username: 'astudent',
          nickname: 'astudent',
        },
      },
      {
        id: other.project,
        target_grade: 0,
        student: {
          id: other.actor.user.id,
          email: 'bstudent@example.edu',
          first_name: 'Bstudent',
          last_name: 'Tester',
          username: 'bstudent',
          nickname: 'bstudent',
        },
      },
    ]);
  }
});

test('a student who is not in the group is refused; an admin off the staff may read (the group table gives admins get_members)', async () => {
  const w = await world();
  let res = await api(env, 'GET', base(w, w.group), { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to get groups for this unit' }]);
  const outsider = await signedIn(env, 'zstudent', 'Student');
  res = await api(env, 'GET', base(w, w.group), { as: outsider.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to get groups for this unit' }]);
  res = await api(env, 'GET', base(w, w.group), { as: people.admin.creds });
  assert.equal([res.status, res.body], [200, []]);
  res = await api(env, 'GET', base(w, w.group));
  assert.is(res.status, 419);
});

test('unknown unit, set, group, or a group of another set: 404; ids that are not numbers: 400', async () => {
  const w = await world();
  const otherSet = await seedGroupSet(env, w.unit, { name: 'Other' });
  const foreign = await seedGroupRow(env, otherSet, w.tutorial, 'G9');
  const as = people.convenor.creds;
  assert.equal((await api(env, 'GET', `/api/units/999/group_sets/${w.set}/groups/${w.group}/members`, { as })).body, {
    error: 'Unable to find requested Unit',
  });
  let res = await api(env, 'GET', `/api/units/${w.unit}/group_sets/999/groups/${w.group}/members`, { as });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
  res = await api(env, 'GET', base(w, foreign), { as });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group' }]);
  res = await api(env, 'GET', `/api/units/${w.unit}/group_sets/${w.set}/groups/abc/members`, { as });
  assert.equal([res.status, res.body], [400, { error: 'group_id is invalid' }]);
});

// ---- POST -------------------------------------------------------------------------------------

test('a student joins a group of a set that lets students manage groups: 200 with the add form', async () => {
  const w = await world();
  const res = await add(w, w.project, people.student);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, {
    id: w.project,
    student_username: 'astudent',
    student_first_name: 'Astudent',
    student_last_name: 'Tester',
    student_nickname: 'astudent',
    target_grade: 2,
  });
  assert.equal(await membershipsOf(env, w.project), [{ group: w.group, active: true }]);
});

test('one group per set: joining another group of the set moves the membership; a group of another set is separate', async () => {
  const w = await world();
  const g2 = await seedGroupRow(env, w.set, w.tutorial, 'G2');
  const otherSet = await seedGroupSet(env, w.unit, { name: 'Labs' });
  const lab = await seedGroupRow(env, otherSet, w.tutorial, 'L1');
  assert.is((await add(w, w.project, people.tutor)).status, 200);
  assert.is((await add(w, w.project, people.tutor, g2)).status, 200);
  assert.equal(await membershipsOf(env, w.project), [{ group: g2, active: true }]);
  const res = await api(env, 'POST', `${base({ unit: w.unit, set: otherSet }, lab)}/${w.project}`, { as: people.tutor.creds });
  assert.is(res.status, 200);
  assert.equal(await membershipsOf(env, w.project), [
    { group: g2, active: true },
    { group: lab, active: true },
  ]);
  // A student who left and comes back gets a new membership; the old one stays, inactive.
  assert.is((await remove(w, w.project, people.tutor, g2)).status, 200);
  assert.is((await add(w, w.project, people.tutor)).status, 200);
  assert.equal(await membershipsOf(env, w.project), [
    { group: g2, active: false },
    { group: lab, active: true },
    { group: w.group, active: true },
  ]);
});

test("the original's checks in order, each a 403 that changes nothing", async () => {
  const w = await world({ keepGroupsInSameClass: true });
  const other = await student(w, 'bstudent');
  const refused = async (who: Actor, project: number, error: string) => {
    const res = await add(w, project, who);
    assert.equal([res.status, res.body], [403, { error }], who.user.username);
  };
  // A student manages only themselves.
  await refused(people.student, other.project, 'Not authorised to manage this student');
  // Keep-in-class: the student must be in the group's tutorial, for staff too.
  await refused(people.convenor, w.project, "Students from the tutorial 'T1' can only be added to this group.");
  await seedEnrolmentIn(env, w.project, w.tutorial);
  assert.is((await add(w, w.project, people.student)).status, 200);
  await refused(people.convenor, w.project, 'Astudent Tester is already a member of this group');
  // A locked group takes no one, whoever asks.
  await seedEnrolmentIn(env, other.project, w.tutorial);
  await env.orm.em.fork().getConnection().execute(`update groups set locked = true where id = ${w.group}`);
  await refused(people.convenor, other.project, 'Group is locked, no additional members can be added');
  assert.equal(await membershipsOf(env, other.project), []);
});

test("the set's flags decide for students: not managed by students, or locked; an admin off the staff is refused", async () => {
  const w = await world({ allowStudentsToManageGroups: false });
  let res = await add(w, w.project, people.student);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to manage this group' }]);
  res = await add(w, w.project, people.admin);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to manage this group' }]);
  await env.orm.em.fork().nativeUpdate(GroupSet, { id: w.set }, { allowStudentsToManageGroups: true, locked: true });
  res = await add(w, w.project, people.student);
  assert.equal([res.status, res.body], [403, { error: 'All of these groups are now locked' }]);
  // Staff still may in a locked set.
  assert.is((await add(w, w.project, people.tutor)).status, 200);
  assert.equal(await membershipsOf(env, w.project), [{ group: w.group, active: true }]);
});

test('capacity: set capacity 2 with 2 members, a third by a student or a tutor is refused, by the convenor taken (behaviour §12 #43)', async () => {
  const w = await world({ capacity: 2 });
  const a = await student(w, 'bstudent');
  const b = await student(w, 'cstudent');
  await seedMember(env, w.group, a.project);
  await seedMember(env, w.group, b.project);
  const full = { error: 'Group is at capacity, no additional members can be added' };
  let res = await add(w, w.project, people.student);
  assert.equal([res.status, res.body], [403, full]);
  res = await add(w, w.project, people.tutor);
  assert.equal([res.status, res.body], [403, full]);
  res = await add(w, w.project, people.convenor);
  assert.is(res.status, 200);
  // The group's adjustment counts, and withdrawn members take no place.
  const g2 = await seedGroupRow(env, w.set, w.tutorial, 'G2', { capacityAdjustment: 1 });
  const c = await student(w, 'dstudent');
  const d = await student(w, 'estudent', { enrolled: false });
  await seedMember(env, g2, d.project);
  await seedMember(env, g2, c.project);
  for (const name of ['fstudent', 'gstudent']) assert.is((await add(w, (await student(w, name)).project, people.tutor, g2)).status, 200);
  res = await add(w, (await student(w, 'hstudent')).project, people.tutor, g2);
  assert.equal([res.status, res.body], [403, full]);
});

test('the project must be enrolled in the unit: another unit, withdrawn or unknown is a 404', async () => {
  const w = await world();
  const elsewhere = await seedUnit(env, { code: 'SIT202' });
  const foreign = await enrol(env, (await signedIn(env, 'xstudent', 'Student')).user, elsewhere);
  const withdrawn = await student(w, 'bstudent', { enrolled: false });
  for (const project of [foreign, withdrawn.project, 999]) {
    const res = await add(w, project, people.convenor);
    assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Project' }]);
  }
  assert.equal(await membershipsOf(env, foreign), []);
});

// ---- DELETE -----------------------------------------------------------------------------------

test('staff take a member out: 200 true, the membership kept inactive; a member may leave', async () => {
  const w = await world();
  const other = await student(w, 'bstudent');
  await seedMember(env, w.group, w.project);
  await seedMember(env, w.group, other.project);
  let res = await remove(w, other.project, people.tutor);
  assert.equal([res.status, res.body], [200, true]);
  assert.equal(await membershipsOf(env, other.project), [{ group: w.group, active: false }]);
  res = await remove(w, w.project, people.student);
  assert.equal([res.status, res.body], [200, true]);
  assert.equal(await membershipsOf(env, w.project), [{ group: w.group, active: false }]);
});

test('removal refusals in order: locked, another student, not a member; a project of another unit is a 404', async () => {
  const w = await world();
  const other = await student(w, 'bstudent');
  const outside = await student(w, 'cstudent');
  await seedMember(env, w.group, w.project);
  await seedMember(env, w.group, other.project);
  let res = await remove(w, other.project, people.student);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to manage this student' }]);
  res = await remove(w, outside.project, people.tutor);
  assert.equal([res.status, res.body], [403, { error: 'Cstudent Tester is not a member of this group' }]);
  // A student outside the group has no group role.
  res = await remove(w, outside.project, outside.actor);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to manage this group' }]);
  await env.orm.em.fork().getConnection().execute(`update groups set locked = true where id = ${w.group}`);
  res = await remove(w, w.project, people.student);
  assert.equal([res.status, res.body], [403, { error: 'This group is locked' }]);
  // An admin off the staff may manage the group but not the student.
  res = await remove(w, w.project, people.admin);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to manage this student' }]);
  const elsewhere = await seedUnit(env, { code: 'SIT202' });
  const foreign = await enrol(env, (await signedIn(env, 'xstudent', 'Student')).user, elsewhere);
  res = await remove(w, foreign, people.convenor);
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Project' }]);
  assert.equal(await membershipsOf(env, w.project), [{ group: w.group, active: true }]);
  assert.equal(await membershipsOf(env, other.project), [{ group: w.group, active: true }]);
});

test('the member list takes the same number of statements for 1 and for 8 members (no query per member)', async () => {
  const w = await world();
  await seedMember(env, w.group, w.project);
  const list = () => api(env, 'GET', base(w, w.group), { as: people.tutor.creds });
  await list(); // the session is cached after the first request
  const one = await countStatements(list);
  for (let i = 0; i < 7; i++) await seedMember(env, w.group, (await student(w, `m${i}`)).project);
  let res: Awaited<ReturnType<typeof list>> | undefined;
  const eight = await countStatements(async () => (res = await list()));
  assert.is(res!.body.length, 8);
  assert.is(eight, one);
});

test('two additions racing for the last place: the second waits for the first, then is refused', async () => {
  const w = await world({ capacity: 2 });
  await seedMember(env, w.group, w.project);
  const a = await student(w, 'bstudent');
  const b = await student(w, 'cstudent');
  const joiner = { mayJoin: true, mayManageStudent: true, mayExceedCapacity: false };
  const first = env.orm.em.fork();
  await first.begin();
  assert.equal(await joinGroup(first, w.group, a.project, joiner), { ok: true, moved: false });
  let settled = false;
  const second = env.orm.em
    .fork()
    .transactional((em) => joinGroup(em, w.group, b.project, joiner))
    .finally(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 150));
  const waited = !settled;
  await first.commit();
  assert.ok(waited, 'the second addition waits on the group row');
  assert.equal(await second, { ok: false, message: 'Group is at capacity, no additional members can be added', alreadyMember: false });
  assert.equal(await membershipsOf(env, b.project), []);
});

test('tRPC: add, list and remove through the typed caller', async () => {
  const w = await world();
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const input = { unit_id: w.unit, group_set_id: w.set, group_id: w.group };
  const added = await caller.units.groupSets.groups.members.add({ ...input, project_id: w.project });
  assert.is(added.student_username, 'astudent');
  assert.equal(
    (await caller.units.groupSets.groups.members.list(input)).map((m) => m.id),
    [w.project],
  );
  assert.is(await caller.units.groupSets.groups.members.remove({ ...input, id: w.project }), true);
  assert.equal(await caller.units.groupSets.groups.members.list(input), []);
});

test.run();
