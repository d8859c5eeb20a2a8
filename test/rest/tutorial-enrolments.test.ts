// Enrolling a student's project in a tutorial: POST and DELETE
// /api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id}.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GroupMembership, GroupSet, TutorialEnrolment, Unit } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { seedActivityType, seedEnrolmentIn, seedGroupIn, seedTutorialRow, seedTutorialStream } from '../support/seed-tutorials.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id}');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A unit convened by people.convenor, tutored by people.tutor, with people.student enrolled. */
async function unitWithStudent(code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  return { unit, project };
}
const url = (unit: number, abbr: string, project: number) => `/api/units/${unit}/tutorials/${encodeURIComponent(abbr)}/enrolments/${project}`;
const tutorialsOf = async (project: number) =>
  (await env.orm.em.fork().find(TutorialEnrolment, { project }, { orderBy: { id: 'asc' } })).map((e) => (e.tutorial as unknown as { id: number }).id);

test('a student moves into a tutorial: 201 with every enrolment of the project', async () => {
  const { unit, project } = await unitWithStudent();
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  const res = await api(env, 'POST', url(unit, 'LA1-01', project), { as: people.student.creds, json: {} });
  assert.is(res.status, 201, res.text);
  assert.equal(res.body, { enrolments: [{ project_id: project, tutorial_id: tutorial }] });
  assert.equal(await tutorialsOf(project), [tutorial]);
  // Again: nothing changes.
  const again = await api(env, 'POST', url(unit, 'LA1-01', project), { as: people.student.creds });
  assert.equal([again.status, again.body], [201, { enrolments: [{ project_id: project, tutorial_id: tutorial }] }]);
});

test('when the unit stops students changing tutorial, the student is refused and staff still may', async () => {
  const { unit, project } = await unitWithStudent();
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  await env.orm.em.fork().nativeUpdate(Unit, { id: unit }, { allowStudentChangeTutorial: false });
  let res = await api(env, 'POST', url(unit, 'LA1-01', project), { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to change tutorial' }]);
  assert.equal(await tutorialsOf(project), []);
  res = await api(env, 'POST', url(unit, 'LA1-01', project), { as: people.tutor.creds });
  assert.is(res.status, 201);
  res = await api(env, 'DELETE', url(unit, 'LA1-01', project), { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to change tutorials' }]);
  assert.equal(await tutorialsOf(project), [tutorial]);
});

test('one tutorial per stream: the same stream replaces, another stream adds, a tutorial with no stream replaces all', async () => {
  const { unit, project } = await unitWithStudent();
  const type = await seedActivityType(env);
  const s1 = await seedTutorialStream(env, unit, type, 's1');
  const s2 = await seedTutorialStream(env, unit, type, 's2');
  const a1 = await seedTutorialRow(env, unit, 'A1', { stream: s1 });
  const a2 = await seedTutorialRow(env, unit, 'A2', { stream: s1 });
  const b1 = await seedTutorialRow(env, unit, 'B1', { stream: s2 });
  const none = await seedTutorialRow(env, unit, 'N');
  const post = (abbr: string) => api(env, 'POST', url(unit, abbr, project), { as: people.convenor.creds, json: {} });
  await post('A1');
  let res = await post('B1');
  assert.equal(
    res.body.enrolments.map((e: { tutorial_id: number }) => e.tutorial_id),
    [a1, b1],
  );
  res = await post('A2');
  assert.equal(
    res.body.enrolments.map((e: { tutorial_id: number }) => e.tutorial_id),
    [a2, b1],
  );
  res = await post('N');
  assert.equal(res.body.enrolments, [{ project_id: project, tutorial_id: none }]);
  // From no stream back to a stream: that one enrolment moves.
  res = await post('B1');
  assert.equal(res.body.enrolments, [{ project_id: project, tutorial_id: b1 }]);
  assert.equal(await tutorialsOf(project), [b1]);
});

test('a full tutorial refuses students but not staff; withdrawn students take no seat', async () => {
  const { unit, project } = await unitWithStudent();
  const tutorial = await seedTutorialRow(env, unit, 'SMALL', { capacity: 1 });
  const other = await signedIn(env, 'bstudent', 'Student');
  const otherProject = await enrol(env, other.user, unit);
  const gone = await signedIn(env, 'cstudent', 'Student');
  await seedEnrolmentIn(env, await enrol(env, gone.user, unit, { enrolled: false }), tutorial);
  let res = await api(env, 'POST', url(unit, 'SMALL', otherProject), { as: other.creds });
  assert.is(res.status, 201, res.text);
  res = await api(env, 'POST', url(unit, 'SMALL', project), { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Tutorial SMALL is full and cannot accept further student enrolments' }]);
  assert.equal(await tutorialsOf(project), []);
  res = await api(env, 'POST', url(unit, 'SMALL', project), { as: people.tutor.creds });
  assert.equal([res.status, res.body], [201, { enrolments: [{ project_id: project, tutorial_id: tutorial }] }]);
});

test('a tutorial on another campus than the project is a 400', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const burwood = await seedCampus(env);
  const geelong = await seedCampus(env, { name: 'Geelong', abbreviation: 'G' });
  const project = await enrol(env, people.student.user, unit, { campus: burwood });
  await seedTutorialRow(env, unit, 'G01', { campus: geelong });
  await seedTutorialRow(env, unit, 'B01', { campus: burwood });
  let res = await api(env, 'POST', url(unit, 'G01', project), { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Project and tutorial belong to different campus' }]);
  res = await api(env, 'POST', url(unit, 'B01', project), { as: people.convenor.creds });
  assert.is(res.status, 201);
});

test('unknown units, projects outside the unit or withdrawn are 404; unknown tutorials, other students and admins 403', async () => {
  const { unit, project } = await unitWithStudent();
  await seedTutorialRow(env, unit, 'LA1-01');
  const elsewhere = await seedUnit(env, { code: 'SIT999' });
  const foreign = await enrol(env, people.student.user, elsewhere);
  let res = await api(env, 'POST', url(9999, 'LA1-01', project), { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }]);
  res = await api(env, 'POST', url(unit, 'LA1-01', foreign), { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Project' }]);
  res = await api(env, 'POST', url(unit, 'NOPE', project), { as: people.convenor.creds });
  assert.equal([res.status, res.body], [403, { error: 'No tutorial with abbreviation NOPE exists for the unit' }]);
  const other = await signedIn(env, 'bstudent', 'Student');
  await enrol(env, other.user, unit);
  for (const who of [other, people.admin]) {
    res = await api(env, 'POST', url(unit, 'LA1-01', project), { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to change tutorial' }], who.creds.username);
  }
  res = await api(env, 'POST', `/api/units/${unit}/tutorials/LA1-01/enrolments/abc`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'project_id is invalid' }]);
  res = await api(env, 'POST', url(unit, 'LA1-01', project));
  assert.is(res.status, 419);
  const withdrawn = await signedIn(env, 'cstudent', 'Student');
  const withdrawnProject = await enrol(env, withdrawn.user, unit, { enrolled: false });
  res = await api(env, 'POST', url(unit, 'LA1-01', withdrawnProject), { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Project' }]);
  assert.equal(await tutorialsOf(project), []);
});

test('leaving a tutorial leaves groups kept in it when students may manage groups, and is refused otherwise', async () => {
  const { unit, project } = await unitWithStudent();
  const from = await seedTutorialRow(env, unit, 'FROM');
  await seedTutorialRow(env, unit, 'TO');
  await seedEnrolmentIn(env, project, from);
  const { group } = await seedGroupIn(env, unit, from, { keepGroupsInSameClass: true, allowStudentsToManageGroups: false, members: [project] });
  let res = await api(env, 'POST', url(unit, 'TO', project), { as: people.student.creds });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Groups require Astudent Tester to be in tutorial FROM' }]);
  assert.equal(await tutorialsOf(project), [from]);
  res = await api(env, 'DELETE', url(unit, 'FROM', project), { as: people.convenor.creds });
  assert.is(res.status, 400);
  assert.equal(await tutorialsOf(project), [from]);

  // The same with a set whose students manage their groups: they leave the group.
  await env.orm.em.fork().nativeUpdate(GroupSet, { unit }, { allowStudentsToManageGroups: true });
  res = await api(env, 'POST', url(unit, 'TO', project), { as: people.student.creds });
  assert.is(res.status, 201, res.text);
  const membership = await env.orm.em.fork().findOneOrFail(GroupMembership, { group, project });
  assert.is(membership.active, false);
});

test('DELETE takes the project out of the tutorial (204); a tutorial it is not in is a 403', async () => {
  const { unit, project } = await unitWithStudent();
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  await seedTutorialRow(env, unit, 'LA1-02');
  await seedEnrolmentIn(env, project, tutorial);
  let res = await api(env, 'DELETE', url(unit, 'LA1-02', project), { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Project not enrolled in the selected tutorial' }]);
  res = await api(env, 'DELETE', url(unit, 'LA1-01', project), { as: people.student.creds });
  assert.is(res.status, 204, res.text);
  assert.equal(await tutorialsOf(project), []);
  res = await api(env, 'DELETE', url(unit, 'NOPE', project), { as: people.tutor.creds });
  assert.equal([res.status, res.body], [403, { error: 'No tutorial with abbreviation NOPE exists for the unit' }]);
});

test('staff may take a withdrawn project out of its tutorial', async () => {
  const { unit } = await unitWithStudent();
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  const gone = await signedIn(env, 'bstudent', 'Student');
  const project = await enrol(env, gone.user, unit, { enrolled: false });
  await seedEnrolmentIn(env, project, tutorial);
  const res = await api(env, 'DELETE', url(unit, 'LA1-01', project), { as: people.convenor.creds });
  assert.is(res.status, 204);
  assert.equal(await tutorialsOf(project), []);
});

test.run();
