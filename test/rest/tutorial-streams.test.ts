// A unit's tutorial streams: POST, PUT and DELETE /api/units/{unit_id}/tutorial_streams, and the
// stream list loader GET /api/units/{id} shows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TaskDefinition, Tutorial, TutorialEnrolment, TutorialStream } from '../../schema/index.ts';
import { streamsOfUnit } from '../../src/operations/units/tutorial_streams/stream-rows.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedActivityType, seedEnrolmentIn, seedGroupIn, seedTaskDef, seedTutorialRow, seedTutorialStream } from '../support/seed-tutorials.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST /api/units/{unit_id}/tutorial_streams');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function convenedUnit(code = 'SIT101') {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  return unit;
}
const streamsIn = async (unit: number) =>
  (await env.orm.em.fork().find(TutorialStream, { unit }, { orderBy: { id: 'asc' } })).map((s) => ({ name: s.name, abbreviation: s.abbreviation }));
const streamOfDef = async (id: number) => {
  const def = await env.orm.em.fork().findOneOrFail(TaskDefinition, { id });
  return def.tutorialStream ? (def.tutorialStream as unknown as { id: number }).id : null;
};

test('posting the same activity type twice numbers the streams; the answer is wrapped under tutorial_stream', async () => {
  const unit = await convenedUnit();
  await seedActivityType(env);
  const first = await api(env, 'POST', `/api/units/${unit}/tutorial_streams/`, {
    as: people.convenor.creds,
    json: { unit_id: unit, activity_type_abbr: 'wrkshop' },
  });
  assert.is(first.status, 201, first.text);
  assert.equal(Object.keys(first.body), ['tutorial_stream']);
  assert.equal(first.body.tutorial_stream, { id: first.body.tutorial_stream.id, name: 'Workshop 1', abbreviation: 'wrkshop 1', activity_type: 'wrkshop' });
  const second = await api(env, 'POST', `/api/units/${unit}/tutorial_streams`, { as: people.admin.creds, form: { activity_type_abbr: 'wrkshop' } });
  assert.is(second.status, 201);
  assert.equal([second.body.tutorial_stream.name, second.body.tutorial_stream.abbreviation], ['Workshop 2', 'wrkshop 2']);
  assert.equal(await streamsIn(unit), [
    { name: 'Workshop 1', abbreviation: 'wrkshop 1' },
    { name: 'Workshop 2', abbreviation: 'wrkshop 2' },
  ]);
});

test("the unit's first stream takes its task definitions; later streams do not", async () => {
  const unit = await convenedUnit();
  await seedActivityType(env);
  const def = await seedTaskDef(env, unit, 'T1');
  const first = await api(env, 'POST', `/api/units/${unit}/tutorial_streams`, { as: people.convenor.creds, json: { activity_type_abbr: 'wrkshop' } });
  assert.is(await streamOfDef(def), first.body.tutorial_stream.id);
  const later = await seedTaskDef(env, unit, 'T2');
  await api(env, 'POST', `/api/units/${unit}/tutorial_streams`, { as: people.convenor.creds, json: { activity_type_abbr: 'wrkshop' } });
  assert.is(await streamOfDef(def), first.body.tutorial_stream.id);
  assert.is(await streamOfDef(later), null);
});

test('POST: tutors, students and convenors of other units are refused; unknown unit or activity type 404; missing field 400', async () => {
  const unit = await convenedUnit();
  await seedActivityType(env);
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const other = await signedIn(env, 'bconvenor', 'Convenor');
  for (const who of [people.tutor, people.student, other]) {
    const res = await api(env, 'POST', `/api/units/${unit}/tutorial_streams`, { as: who.creds, json: { activity_type_abbr: 'wrkshop' } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to add tutorial stream to this unit' }], who.creds.username);
  }
  let res = await api(env, 'POST', '/api/units/9999/tutorial_streams', { as: people.convenor.creds, json: { activity_type_abbr: 'wrkshop' } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Unit' }]);
  res = await api(env, 'POST', `/api/units/${unit}/tutorial_streams`, { as: people.convenor.creds, json: { activity_type_abbr: 'nope' } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Activity Type' }]);
  res = await api(env, 'POST', `/api/units/${unit}/tutorial_streams`, { as: people.convenor.creds, json: {} });
  assert.equal([res.status, res.body], [400, { error: 'activity_type_abbr is missing' }]);
  res = await api(env, 'POST', `/api/units/abc/tutorial_streams`, { as: people.convenor.creds, json: { activity_type_abbr: 'wrkshop' } });
  assert.equal([res.status, res.body], [400, { error: 'unit_id is invalid' }]);
  assert.equal(await streamsIn(unit), []);
});

test('PUT renames, re-abbreviates and changes the activity type; names stay unique in the unit', async () => {
  const unit = await convenedUnit();
  const workshop = await seedActivityType(env);
  await seedActivityType(env, 'Practical', 'prac');
  await seedTutorialStream(env, unit, workshop, 'wrkshop 1', 'Workshop 1');
  await seedTutorialStream(env, unit, workshop, 'wrkshop 2', 'Workshop 2');
  const url = `/api/units/${unit}/tutorial_streams/${encodeURIComponent('wrkshop 1')}`;
  let res = await api(env, 'PUT', url, { as: people.convenor.creds, json: { name: 'Labs', abbreviation: 'lab', activity_type_abbr: 'prac' } });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { tutorial_stream: { id: res.body.tutorial_stream.id, name: 'Labs', abbreviation: 'lab', activity_type: 'prac' } });
  res = await api(env, 'PUT', `/api/units/${unit}/tutorial_streams/lab`, { as: people.convenor.creds, json: { activity_type: 'wrkshop' } });
  assert.equal([res.status, res.body.tutorial_stream.activity_type], [200, 'wrkshop']);
  res = await api(env, 'PUT', `/api/units/${unit}/tutorial_streams/lab`, { as: people.convenor.creds, json: { name: 'Workshop 2' } });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Name Workshop 2 already exists in this unit' }]);
  res = await api(env, 'PUT', `/api/units/${unit}/tutorial_streams/lab`, { as: people.convenor.creds, json: { abbreviation: 'wrkshop 2' } });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Abbreviation wrkshop 2 already exists in this unit' }]);
  assert.equal(await streamsIn(unit), [
    { name: 'Labs', abbreviation: 'lab' },
    { name: 'Workshop 2', abbreviation: 'wrkshop 2' },
  ]);
});

test('PUT and DELETE: tutors are refused, unknown streams and activity types are 404', async () => {
  const unit = await convenedUnit();
  const workshop = await seedActivityType(env);
  await seedTutorialStream(env, unit, workshop, 'w1');
  await employ(env, people.tutor.user, unit, 'Tutor');
  let res = await api(env, 'PUT', `/api/units/${unit}/tutorial_streams/w1`, { as: people.tutor.creds, json: { name: 'X' } });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to update tutorial stream in this unit' }]);
  res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/w1`, { as: people.tutor.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to delete tutorial stream in this unit' }]);
  res = await api(env, 'PUT', `/api/units/${unit}/tutorial_streams/zz`, { as: people.convenor.creds, json: { name: 'X' } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial Stream' }]);
  res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/zz`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Tutorial Stream' }]);
  res = await api(env, 'PUT', `/api/units/${unit}/tutorial_streams/w1`, { as: people.convenor.creds, json: { activity_type_abbr: 'zz' } });
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Activity Type' }]);
  assert.equal(await streamsIn(unit), [{ name: 'Stream w1', abbreviation: 'w1' }]);
});

test('DELETE answers true (200) and takes the stream and its tutorials; the last stream clears its task definitions', async () => {
  const unit = await convenedUnit();
  const workshop = await seedActivityType(env);
  const stream = await seedTutorialStream(env, unit, workshop, 'w1');
  await seedTutorialRow(env, unit, 'W01', { stream });
  const def = await seedTaskDef(env, unit, 'T1', stream);
  const res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/w1`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [200, true]);
  assert.equal(await streamsIn(unit), []);
  assert.is(await env.orm.em.fork().count(Tutorial, { unit }), 0);
  assert.is(await streamOfDef(def), null);
});

test('DELETE with two streams moves the task definitions to the other; with three it is refused', async () => {
  const unit = await convenedUnit();
  const workshop = await seedActivityType(env);
  const a = await seedTutorialStream(env, unit, workshop, 'a');
  const b = await seedTutorialStream(env, unit, workshop, 'b');
  await seedTutorialStream(env, unit, workshop, 'c');
  const def = await seedTaskDef(env, unit, 'T1', a);
  let res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/a`, { as: people.convenor.creds });
  assert.equal(
    [res.status, res.body],
    [403, { error: 'cannot be deleted as it has task definitions associated with it, and it is not the last (or second last) tutorial stream' }],
  );
  assert.is(await streamOfDef(def), a);
  // A stream without task definitions goes whatever the count.
  res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/c`, { as: people.admin.creds });
  assert.is(res.status, 200);
  res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/a`, { as: people.convenor.creds });
  assert.is(res.status, 200);
  assert.is(await streamOfDef(def), b);
});

test('DELETE is refused while a tutorial of the stream has enrolled students or groups', async () => {
  const unit = await convenedUnit();
  const workshop = await seedActivityType(env);
  const stream = await seedTutorialStream(env, unit, workshop, 'w1');
  const tutorial = await seedTutorialRow(env, unit, 'W01', { stream });
  const project = await enrol(env, people.student.user, unit);
  const enrolment = await seedEnrolmentIn(env, project, tutorial);
  let res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/w1`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete tutorial with enrolments' }]);
  await env.orm.em.fork().nativeDelete(TutorialEnrolment, { id: enrolment });
  await seedGroupIn(env, unit, tutorial);
  res = await api(env, 'DELETE', `/api/units/${unit}/tutorial_streams/w1`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [400, { error: 'Cannot delete tutorial with groups' }]);
  assert.equal(await streamsIn(unit), [{ name: 'Stream w1', abbreviation: 'w1' }]);
  assert.is(await env.orm.em.fork().count(Tutorial, { unit }), 1);
});

test('streamsOfUnit: the streams of a unit in one query, with the keys the unit page reads', async () => {
  const unit = await convenedUnit();
  const other = await seedUnit(env, { code: 'SIT999' });
  const workshop = await seedActivityType(env);
  const prac = await seedActivityType(env, 'Practical', 'prac');
  const w = await seedTutorialStream(env, unit, workshop, 'w1', 'Workshop 1');
  const p = await seedTutorialStream(env, unit, prac, 'p1', 'Practical 1');
  await seedTutorialStream(env, other, prac, 'p1', 'Practical 1');
  let streams: Awaited<ReturnType<typeof streamsOfUnit>> = [];
  const statements = await countStatements(async () => {
    streams = await streamsOfUnit(env.orm.em.fork(), unit);
  });
  assert.is(statements, 1);
  assert.equal(streams, [
    { id: w, name: 'Workshop 1', abbreviation: 'w1', activity_type: 'wrkshop' },
    { id: p, name: 'Practical 1', abbreviation: 'p1', activity_type: 'prac' },
  ]);
});

test.run();
