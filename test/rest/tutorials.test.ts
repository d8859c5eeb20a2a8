// Tutorials: POST /api/tutorials, PUT and DELETE /api/tutorials/{id}, and the tutorial list loader
// GET /api/units/{id} shows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Tutorial, TutorialEnrolment } from '../../schema/index.ts';
import { tutorialsOfUnit } from '../../src/operations/tutorials/tutorial-rows.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { seedActivityType, seedEnrolmentIn, seedGroupIn, seedTutorialRow, seedTutorialStream } from '../support/seed-tutorials.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/tutorials');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A unit convened by people.convenor, with people.tutor on its staff. */
async function staffedUnit(code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  return { unit, tutorRole };
}
const tutorialsIn = async (unit: number) => (await env.orm.em.fork().find(Tutorial, { unit }, { orderBy: { id: 'asc' } })).map((t) => t.abbreviation);
const body = (unit: number, extra: Record<string, unknown> = {}) => ({
  tutorial: {
    unit_id: unit,
    tutor_id: people.tutor.user.id,
    campus_id: -1,
    capacity: 20,
    abbreviation: 'LA1-01',
    meeting_location: 'Room 1',
    meeting_day: 'Monday',
    meeting_time: '10:00',
    tutorial_stream_abbr: null,
    ...extra,
  },
});

test('the convenor creates a tutorial as the web client sends it: 201 with the tutorial keys', async () => {
  const { unit } = await staffedUnit();
  const res = await api(env, 'POST', '/api/tutorials/', { as: people.convenor.creds, json: body(unit) });
  assert.is(res.status, 201, res.text);
  const [stored] = await env.orm.em.fork().find(Tutorial, { unit });
  // No campus and no stream: those keys are left out.
  assert.equal(res.body, {
    id: stored.id,
    meeting_day: 'Monday',
    meeting_time: '10:00',
    meeting_location: 'Room 1',
    abbreviation: 'LA1-01',
    capacity: 20,
    num_students: 0,
    tutor_id: people.tutor.user.id,
  });
});

test('a campus and a stream are kept; form bodies work; an admin creates in any unit', async () => {
  const { unit } = await staffedUnit();
  const campus = await seedCampus(env);
  const workshop = await seedActivityType(env);
  await seedTutorialStream(env, unit, workshop, 'wrkshop 1');
  const res = await api(env, 'POST', '/api/tutorials', {
    as: people.admin.creds,
    form: body(unit, { campus_id: campus, tutorial_stream_abbr: 'wrkshop 1', tutor_id: people.convenor.user.id }),
  });
  assert.is(res.status, 201, res.text);
  assert.equal([res.body.campus_id, res.body.tutorial_stream_abbr, res.body.tutor_id, res.body.capacity], [campus, 'wrkshop 1', people.convenor.user.id, 20]);
});

test('POST refuses a duplicate abbreviation, a tutor who is not staff, unknown streams, campuses and units', async () => {
  const { unit } = await staffedUnit();
  await seedTutorialRow(env, unit, 'LA1-01');
  let res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit) });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Abbreviation must be unique within the unit' }]);
  const outsider = await signedIn(env, 'btutor', 'Tutor');
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit, { abbreviation: 'X', tutor_id: outsider.user.id }) });
  assert.equal([res.status, res.body], [400, { error: "Validation failed: Tutor must be a member of the unit's staff" }]);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit, { abbreviation: 'X', tutorial_stream_abbr: 'nope' }) });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial Stream' }]);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit, { abbreviation: 'X', campus_id: 999 }) });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Campus' }]);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(9999) });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }]);
  // Blank ids are looked up and not found, as the original answers.
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body('' as never) });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }]);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit, { abbreviation: 'X', tutor_id: '' }) });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested User' }]);
  assert.equal(await tutorialsIn(unit), ['LA1-01']);
});

test('POST: missing or ill-typed fields are 400; tutors, students and other convenors 403; no credentials 419', async () => {
  const { unit } = await staffedUnit();
  await enrol(env, people.student.user, unit);
  let res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body('abc' as never) });
  assert.equal([res.status, res.body], [400, { error: 'tutorial[unit_id] is invalid' }]);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit, { tutor_id: 'abc' }) });
  assert.equal([res.status, res.body], [400, { error: 'tutorial[tutor_id] is invalid' }]);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: { tutorial: { unit_id: unit, tutor_id: people.tutor.user.id } } });
  assert.is(res.status, 400);
  assert.match(res.body.error, /tutorial\[capacity\] is missing/);
  res = await api(env, 'POST', '/api/tutorials', { as: people.convenor.creds, json: body(unit, { meeting_day: '' }) });
  assert.equal([res.status, res.body], [400, { error: 'tutorial[meeting_day] is empty' }]);
  const other = await signedIn(env, 'bconvenor', 'Convenor');
  for (const who of [people.tutor, people.student, other]) {
    res = await api(env, 'POST', '/api/tutorials', { as: who.creds, json: body(unit) });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to create new tutorials' }], who.creds.username);
  }
  res = await api(env, 'POST', '/api/tutorials', { json: body(unit) });
  assert.is(res.status, 419);
  assert.equal(await tutorialsIn(unit), []);
});

test('PUT changes only the fields sent; campus -1 clears the campus', async () => {
  const { unit } = await staffedUnit();
  const campus = await seedCampus(env);
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01', { campus });
  let res = await api(env, 'PUT', `/api/tutorials/${tutorial}`, {
    as: people.convenor.creds,
    json: { tutorial: { meeting_day: 'Friday', capacity: 5, tutor_id: people.tutor.user.id, campus_id: -1, unit_id: unit } },
  });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, {
    id: tutorial,
    meeting_day: 'Friday',
    meeting_time: '10:00',
    meeting_location: 'Room 1',
    abbreviation: 'LA1-01',
    capacity: 5,
    num_students: 0,
    tutor_id: people.tutor.user.id,
  });
  res = await api(env, 'PUT', `/api/tutorials/${tutorial}`, { as: people.admin.creds, form: { tutorial: { abbreviation: 'LA1-02', campus_id: campus } } });
  assert.equal([res.status, res.body.abbreviation, res.body.campus_id, res.body.meeting_day], [200, 'LA1-02', campus, 'Friday']);
});

test('PUT refuses other units, duplicate abbreviations, non-staff tutors, and a stream change while students are enrolled', async () => {
  const { unit } = await staffedUnit();
  const workshop = await seedActivityType(env);
  await seedTutorialStream(env, unit, workshop, 'w1');
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  await seedTutorialRow(env, unit, 'LA1-02');
  const put = (tutorialFields: Record<string, unknown>) =>
    api(env, 'PUT', `/api/tutorials/${tutorial}`, { as: people.convenor.creds, json: { tutorial: tutorialFields } });
  let res = await put({ abbreviation: 'LA1-02' });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Abbreviation must be unique within the unit' }]);
  res = await put({ tutor_id: people.student.user.id });
  assert.equal([res.status, res.body], [400, { error: "Validation failed: Tutor must be a member of the unit's staff" }]);
  const elsewhere = await seedUnit(env, { code: 'SIT999' });
  res = await put({ unit_id: elsewhere });
  assert.equal([res.status, res.body], [400, { error: 'A tutorial cannot move to another unit' }]);
  const project = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, project, tutorial);
  res = await put({ tutorial_stream_abbr: 'w1' });
  assert.equal([res.status, res.body], [400, { error: 'Cannot change the stream of a tutorial with enrolments' }]);
  // Sending the stream it already has (none) is no change.
  res = await put({ tutorial_stream_abbr: null, meeting_time: '11:00' });
  assert.equal([res.status, res.body.meeting_time, res.body.num_students], [200, '11:00', 1]);
  assert.equal(await tutorialsIn(unit), ['LA1-01', 'LA1-02']);
});

test('PUT moves an empty tutorial into a stream', async () => {
  const { unit } = await staffedUnit();
  const workshop = await seedActivityType(env);
  await seedTutorialStream(env, unit, workshop, 'w1');
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  const res = await api(env, 'PUT', `/api/tutorials/${tutorial}`, { as: people.convenor.creds, json: { tutorial: { tutorial_stream_abbr: 'w1' } } });
  assert.equal([res.status, res.body.tutorial_stream_abbr], [200, 'w1']);
});

test('PUT and DELETE: tutors, students and a convenor of another unit are refused; unknown tutorials are 404', async () => {
  const { unit } = await staffedUnit();
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  await enrol(env, people.student.user, unit);
  const other = await signedIn(env, 'bconvenor', 'Convenor');
  await employ(env, other.user, await seedUnit(env, { code: 'SIT999' }), 'Convenor');
  for (const who of [people.tutor, people.student, other]) {
    let res = await api(env, 'PUT', `/api/tutorials/${tutorial}`, { as: who.creds, json: { tutorial: { meeting_day: 'Sunday' } } });
    assert.equal([res.status, res.body], [403, { error: `Cannot update tutorial with id=${tutorial} - not authorised` }], who.creds.username);
    res = await api(env, 'DELETE', `/api/tutorials/${tutorial}`, { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: 'Cannot delete tutorial - not authorised' }]);
  }
  let res = await api(env, 'PUT', '/api/tutorials/9999', { as: people.convenor.creds, json: { tutorial: { meeting_day: 'Sunday' } } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial' }]);
  res = await api(env, 'DELETE', '/api/tutorials/9999', { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial' }]);
  res = await api(env, 'PUT', `/api/tutorials/${tutorial}`, { as: people.convenor.creds, json: { tutorial: { capacity: 'lots' } } });
  assert.equal([res.status, res.body], [400, { error: 'tutorial[capacity] is invalid' }]);
  const [stored] = await env.orm.em.fork().find(Tutorial, { id: tutorial });
  assert.equal([stored.meetingDay, stored.capacity], ['Monday', -1]);
});

test('DELETE (204) is refused while enrolled students or groups are in the tutorial; withdrawn students do not count', async () => {
  const { unit } = await staffedUnit();
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01');
  const project = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, project, tutorial);
  let res = await api(env, 'DELETE', `/api/tutorials/${tutorial}`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete tutorial with enrolments' }]);
  const grouped = await seedTutorialRow(env, unit, 'LA1-02');
  await seedGroupIn(env, unit, grouped);
  res = await api(env, 'DELETE', `/api/tutorials/${grouped}`, { as: people.admin.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete tutorial with groups' }]);
  const withdrawn = await signedIn(env, 'bstudent', 'Student');
  const empty = await seedTutorialRow(env, unit, 'LA1-03');
  await seedEnrolmentIn(env, await enrol(env, withdrawn.user, unit, { enrolled: false }), empty);
  res = await api(env, 'DELETE', `/api/tutorials/${empty}`, { as: people.convenor.creds });
  assert.is(res.status, 204, res.text);
  assert.equal(await tutorialsIn(unit), ['LA1-01', 'LA1-02']);
  assert.is(await env.orm.em.fork().count(TutorialEnrolment, { tutorial: empty }), 0);
});

test('tutorialsOfUnit: every tutorial of a unit in one query, counting only enrolled students', async () => {
  const { unit, tutorRole } = await staffedUnit();
  const workshop = await seedActivityType(env);
  const stream = await seedTutorialStream(env, unit, workshop, 'w1');
  const campus = await seedCampus(env);
  const a = await seedTutorialRow(env, unit, 'A', { stream, campus, tutor: tutorRole, capacity: 10 });
  const b = await seedTutorialRow(env, unit, 'B');
  await seedTutorialRow(env, await seedUnit(env, { code: 'SIT999' }), 'C');
  await seedEnrolmentIn(env, await enrol(env, people.student.user, unit), a);
  const gone = await signedIn(env, 'bstudent', 'Student');
  await seedEnrolmentIn(env, await enrol(env, gone.user, unit, { enrolled: false }), a);
  let tutorials: Awaited<ReturnType<typeof tutorialsOfUnit>> = [];
  const statements = await countStatements(async () => {
    tutorials = await tutorialsOfUnit(env.orm.em.fork(), unit);
  });
  assert.is(statements, 1);
  assert.equal(tutorials, [
    {
      id: a,
      meeting_day: 'Monday',
      meeting_time: '10:00',
      meeting_location: 'Room 1',
      abbreviation: 'A',
      campus_id: campus,
      capacity: 10,
      tutorial_stream_abbr: 'w1',
      num_students: 1,
      tutor_id: people.tutor.user.id,
    },
    { id: b, meeting_day: 'Monday', meeting_time: '10:00', meeting_location: 'Room 1', abbreviation: 'B', capacity: -1, num_students: 0 },
  ]);
});

test('removing the tutor from the staff leaves the tutorial without a tutor', async () => {
  const { unit, tutorRole } = await staffedUnit();
  const tutorial = await seedTutorialRow(env, unit, 'A', { tutor: tutorRole });
  const res = await api(env, 'DELETE', `/api/unit_roles/${tutorRole}`, { as: people.convenor.creds });
  assert.is(res.status, 204);
  const [shown] = await tutorialsOfUnit(env.orm.em.fork(), unit);
  assert.is(shown.id, tutorial);
  assert.not.ok('tutor_id' in shown);
});

test.run();
