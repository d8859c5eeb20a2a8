import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { Actor, People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { codeWorld, compareDefinition, mossRows } from '../support/code-world.ts';
import { configureSimcheck, startFakeSimcheck, type FakeSimcheck } from '../support/fake-simcheck.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite("REST: the web client's older paths reach the same operations");
let env: TestEnv;
let people: People;
let fake: FakeSimcheck;
test.before(() => {
  fake = startFakeSimcheck();
});
test.after(() => fake.close());
freshEachTest(test, (world) => ({ env, people } = world));
test.after.each(() => configureSimcheck(env.config, false));

const oldGet = (who: Actor, task: number, match: number) => api(env, 'GET', `/api/tasks/${task}/similarity/${match}`, { as: who.creds, hyphenHeader: true });
const oldPut = (who: Actor, task: number, match: number, json: unknown) =>
  api(env, 'PUT', `/api/tasks/${task}/similarity/${match}`, { as: who.creds, hyphenHeader: true, json });
const flagged = async (id: number) =>
  (await db(env.orm.em.fork()).selectFrom('task_similarities').select('flagged').where('id', '=', id).executeTakeFirstOrThrow()).flagged;

test('GET /api/tasks/{id}/similarity/{match}: the match-th similarity as the new API lists it, with dismissed', async () => {
  const w = await codeWorld(env, people);
  await compareDefinition(env, w.td);
  const [a] = w.tasks;
  const listed = await api(env, 'GET', `/api/tasks/${a}/similarities`, { as: people.tutor.creds });
  const res = await oldGet(people.tutor, a, 0);
  assert.is(res.status, 200);
  assert.equal(res.body, { ...listed.body[0], dismissed: false });
  assert.equal([(await oldGet(people.tutor, a, 1)).status, (await oldGet(people.tutor, a, 1)).body], [404, { error: 'Unable to find requested Similarity' }]);
  assert.is((await oldGet(people.student, a, 0)).status, 403);
});

test("PUT with {dismissed, other}: dismissed clears the flag, false raises it, other changes the other student's side", async () => {
  const w = await codeWorld(env, people);
  await compareDefinition(env, w.td);
  const [a, b] = w.tasks;
  const rows = await mossRows(env);
  const mine = rows.find((r) => r.task_id === a)!;
  const theirs = rows.find((r) => r.task_id === b)!;

  const dismissed = await oldPut(people.tutor, a, 0, { dismissed: true, other: false });
  assert.equal([dismissed.status, dismissed.body.id, dismissed.body.flagged, dismissed.body.dismissed], [200, mine.id, false, true]);
  assert.equal([await flagged(mine.id), await flagged(theirs.id)], [false, true]);

  const other = await oldPut(people.tutor, a, 0, { dismissed: true, other: true });
  assert.equal([other.status, other.body.id, other.body.dismissed], [200, theirs.id, true]);
  assert.is(await flagged(theirs.id), false);

  const raised = await oldPut(people.convenor, a, 0, { dismissed: false });
  assert.equal([raised.status, raised.body.flagged], [200, true]);
  assert.is(await flagged(mine.id), true);

  const student = await oldPut(people.student, a, 0, { dismissed: true, other: false });
  assert.equal([student.status, student.body], [403, { error: 'Not authorised to change the similarities of this task' }]);
  assert.is((await oldPut(people.tutor, a, 0, {})).status, 400);
  assert.is(await flagged(mine.id), true);
});

test('the TurnItIn names: /api/tii_eula/users/{id}/accept is the simcheck acceptance, accepted_tii_eula and tiiEnabled follow', async () => {
  fake.reset();
  configureSimcheck(env.config, true);
  const settings = await api(env, 'GET', '/api/settings');
  assert.is(settings.body.tiiEnabled, true);
  const refused = await api(env, 'PUT', `/api/tii_eula/users/${people.tutor.user.id}/accept`, { as: people.student.creds, json: {} });
  assert.equal([refused.status, refused.body], [403, { error: 'You are not authorised to accept the EULA on behalf of another user' }]);
  const before = await api(env, 'GET', `/api/users/${people.student.user.id}`, { as: people.student.creds });
  assert.is(before.body.accepted_tii_eula, false);
  const accepted = await api(env, 'PUT', `/api/tii_eula/users/${people.student.user.id}/accept`, { as: people.student.creds, json: {} });
  assert.is(accepted.status, 200);
  const after = await api(env, 'GET', `/api/users/${people.student.user.id}`, { as: people.student.creds });
  assert.is(after.body.accepted_tii_eula, true);
});

test.run();
