import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Webcal, WebcalUnitExclusion, type IUser } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type Actor, type People, signedIn } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { enrol, seedUnit } from '../support/seed.ts';

const test = suite('REST /api/webcal');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function enable(who: Actor) {
  return api(env, 'PUT', '/api/webcal', { as: who.creds, json: { webcal: { enabled: true } } });
}

/** What the database holds for a user's calendar. */
async function storedFor(user: IUser) {
  const em = env.orm.em.fork();
  const webcal = await em.findOne(Webcal, { user: user.id });
  if (!webcal) return null;
  const exclusions = await em.find(WebcalUnitExclusion, { webcal: webcal.id }, { orderBy: { unit: 'asc' } });
  return {
    guid: webcal.guid,
    includeStartDates: webcal.includeStartDates,
    reminderTime: webcal.reminderTime,
    reminderUnit: webcal.reminderUnit,
    exclusions: exclusions.map((e) => e.unit.id),
  };
}

test('a user without a calendar reads {enabled: false}', async () => {
  for (const who of [people.admin, people.convenor, people.tutor, people.student]) {
    const res = await api(env, 'GET', '/api/webcal', { as: who.creds });
    assert.is(res.status, 200);
    assert.equal(res.body, { enabled: false });
  }
});

test('reading and changing the calendar need credentials (419)', async () => {
  assert.is((await api(env, 'GET', '/api/webcal')).status, 419);
  assert.is((await api(env, 'GET', '/api/webcal', { as: { ...people.student.creds, token: 'nope' } })).status, 419);
  assert.is((await api(env, 'PUT', '/api/webcal', { json: { webcal: { enabled: true } } })).status, 419);
  const wrongUser = await api(env, 'PUT', '/api/webcal', {
    as: { ...people.student.creds, username: 'atutor' },
    json: { webcal: { enabled: true } },
  });
  assert.is(wrongUser.status, 419);
  assert.is(await env.orm.em.fork().count(Webcal, {}), 0);
});

test('enabling creates a calendar with a UUID guid and the defaults; GET returns the same settings', async () => {
  const res = await enable(people.student);
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['enabled', 'guid', 'id', 'include_start_dates', 'unit_exclusions', 'user_id']);
  assert.equal(res.body, {
    id: res.body.id,
    guid: res.body.guid,
    user_id: people.student.user.id,
    include_start_dates: false,
    enabled: true,
    unit_exclusions: [],
  });
  assert.match(res.body.guid, UUID);
  assert.not.ok('reminder' in res.body);
  const get = await api(env, 'GET', '/api/webcal', { as: people.student.creds, hyphenHeader: true });
  assert.is(get.status, 200);
  assert.equal(get.body, res.body);
  assert.equal(await storedFor(people.student.user), {
    guid: res.body.guid,
    includeStartDates: false,
    reminderTime: null,
    reminderUnit: null,
    exclusions: [],
  });
});

test('every role may have a calendar, each with its own guid', async () => {
  const guids = new Set<string>();
  for (const who of [people.admin, people.convenor, people.tutor, people.student]) {
    const res = await enable(who);
    assert.is(res.status, 200);
    assert.is(res.body.user_id, who.user.id);
    guids.add(res.body.guid);
  }
  assert.is(guids.size, 4);
  assert.is(await env.orm.em.fork().count(Webcal, {}), 4);
});

test('enabling twice keeps the same calendar', async () => {
  const first = await enable(people.student);
  const again = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { enabled: 'true' } } });
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  assert.is(await env.orm.em.fork().count(Webcal, {}), 1);
});

test('disabling deletes the calendar and its exclusions and answers {enabled: false}', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await enrol(env, people.student.user, unit);
  await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: true, unit_exclusions: [unit] } } });
  assert.is(await env.orm.em.fork().count(WebcalUnitExclusion, {}), 1);
  const off = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { enabled: false } } });
  assert.is(off.status, 200);
  assert.equal(off.body, { enabled: false });
  assert.is(await storedFor(people.student.user), null);
  assert.is(await env.orm.em.fork().count(WebcalUnitExclusion, {}), 0);
  assert.equal((await api(env, 'GET', '/api/webcal', { as: people.student.creds })).body, { enabled: false });
  // Disabling again is harmless.
  const again = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: false } } });
  assert.equal([again.status, again.body], [200, { enabled: false }]);
});

test('re-enabling after disabling starts afresh with a new guid and the defaults', async () => {
  const first = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    json: { webcal: { enabled: true, include_start_dates: true, reminder: { time: 2, unit: 'd' } } },
  });
  assert.is(first.body.include_start_dates, true);
  await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: false } } });
  const second = await enable(people.student);
  assert.is.not(second.body.guid, first.body.guid);
  assert.is(second.body.include_start_dates, false);
  assert.not.ok('reminder' in second.body);
});

test('changing settings while disabled creates nothing and answers {enabled: false}', async () => {
  const res = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    json: { webcal: { include_start_dates: true, should_change_guid: true, reminder: { time: 1, unit: 'w' } } },
  });
  assert.is(res.status, 200);
  assert.equal(res.body, { enabled: false });
  const empty = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: {} });
  assert.equal([empty.status, empty.body], [200, { enabled: false }]);
  assert.is(await env.orm.em.fork().count(Webcal, {}), 0);
});

test('should_change_guid issues a new guid and keeps the other settings', async () => {
  const first = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    json: { webcal: { enabled: true, include_start_dates: true } },
  });
  const changed = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { should_change_guid: true } } });
  assert.is(changed.status, 200);
  assert.match(changed.body.guid, UUID);
  assert.is.not(changed.body.guid, first.body.guid);
  assert.equal({ ...changed.body, guid: '' }, { ...first.body, guid: '' });
  assert.is((await storedFor(people.student.user))!.guid, changed.body.guid);
  const kept = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { should_change_guid: 'false' } } });
  assert.is(kept.body.guid, changed.body.guid);
});

test('include_start_dates is changed alone, from JSON and from a form', async () => {
  const first = await enable(people.student);
  const on = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { include_start_dates: true } } });
  assert.equal(on.body, { ...first.body, include_start_dates: true });
  const off = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { include_start_dates: 'false' } } });
  assert.equal(off.body, first.body);
  assert.is((await storedFor(people.student.user))!.includeStartDates, false);
});

test('a reminder is set (upper- or lower-case unit), changed and cleared with null', async () => {
  const first = await enable(people.student);
  const set = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { reminder: { time: 1, unit: 'W' } } } });
  assert.is(set.status, 200);
  assert.equal(set.body, { ...first.body, reminder: { time: 1, unit: 'W' } });
  assert.equal(Object.keys(set.body).sort(), ['enabled', 'guid', 'id', 'include_start_dates', 'reminder', 'unit_exclusions', 'user_id']);
  const form = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    form: { webcal: { reminder: { time: '30', unit: 'm' } } },
  });
  assert.equal(form.body.reminder, { time: 30, unit: 'M' });
  const stored = await storedFor(people.student.user);
  assert.equal([stored!.reminderTime, stored!.reminderUnit], [30, 'm']);
  assert.equal((await api(env, 'GET', '/api/webcal', { as: people.student.creds })).body.reminder, { time: 30, unit: 'M' });
  for (const unit of ['d', 'H']) {
    const res = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { reminder: { time: 3, unit } } } });
    assert.equal(res.body.reminder, { time: 3, unit: unit.toUpperCase() });
  }
  const cleared = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { reminder: null } } });
  assert.is(cleared.status, 200);
  assert.equal(cleared.body, first.body);
  assert.not.ok('reminder' in cleared.body);
  const stored2 = await storedFor(people.student.user);
  assert.equal([stored2!.reminderTime, stored2!.reminderUnit], [null, null]);
});

test('a reminder needs a time of at least 1 and a unit of w, d, h or m; a refusal changes nothing', async () => {
  await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: true, reminder: { time: 2, unit: 'h' } } } });
  const before = await storedFor(people.student.user);
  const cases: [unknown, string][] = [
    [{ time: 2 }, 'webcal[reminder][unit] is missing'],
    [{ unit: 'd' }, 'webcal[reminder][time] is missing'],
    [{}, 'webcal[reminder]'],
    [{ time: 0, unit: 'd' }, 'webcal[reminder][time] is invalid'],
    [{ time: -3, unit: 'd' }, 'webcal[reminder][time] is invalid'],
    [{ time: 1.5, unit: 'd' }, 'webcal[reminder][time] is invalid'],
    [{ time: 'soon', unit: 'd' }, 'webcal[reminder][time] is invalid'],
    [{ time: 2, unit: 'y' }, 'webcal[reminder][unit] is invalid'],
    [{ time: 2, unit: 'weeks' }, 'webcal[reminder][unit] is invalid'],
    ['tomorrow', 'webcal[reminder] is invalid'],
  ];
  for (const [reminder, message] of cases) {
    const res = await api(env, 'PUT', '/api/webcal', {
      as: people.student.creds,
      json: { webcal: { include_start_dates: true, should_change_guid: true, reminder } },
    });
    assert.is(res.status, 400, JSON.stringify(reminder));
    assert.match(res.body.error, message);
  }
  const formMissing = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { reminder: { time: '4' } } } });
  assert.is(formMissing.status, 400);
  assert.match(formMissing.body.error, 'webcal[reminder][unit] is missing');
  assert.equal(await storedFor(people.student.user), before);
});

test('ill-typed booleans and exclusion lists are 400s naming the field, and change nothing', async () => {
  await enable(people.student);
  const before = await storedFor(people.student.user);
  const badBool = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { include_start_dates: 'maybe' } } });
  assert.is(badBool.status, 400);
  assert.match(badBool.body.error, 'webcal[include_start_dates] is invalid');
  const badEnabled = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: 'perhaps' } } });
  assert.is(badEnabled.status, 400);
  assert.match(badEnabled.body.error, 'webcal[enabled] is invalid');
  const badList = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { unit_exclusions: ['x'] } } });
  assert.is(badList.status, 400);
  assert.match(badList.body.error, 'webcal[unit_exclusions]');
  const badWrapper = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: 'on' } });
  assert.is(badWrapper.status, 400);
  assert.match(badWrapper.body.error, 'webcal is invalid');
  assert.equal(await storedFor(people.student.user), before);
  // A refused disable leaves the calendar in place.
  const badDisable = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    json: { webcal: { enabled: false, reminder: { time: 0, unit: 'd' } } },
  });
  assert.is(badDisable.status, 400);
  assert.equal(await storedFor(people.student.user), before);
});

test('unit exclusions keep only active units the caller is enrolled in', async () => {
  const mine = await seedUnit(env, { code: 'SIT101' });
  const mine2 = await seedUnit(env, { code: 'SIT102' });
  const inactive = await seedUnit(env, { code: 'SIT103', active: false });
  const withdrawn = await seedUnit(env, { code: 'SIT104' });
  const notMine = await seedUnit(env, { code: 'SIT105' });
  await enrol(env, people.student.user, mine);
  await enrol(env, people.student.user, mine2);
  await enrol(env, people.student.user, inactive);
  await enrol(env, people.student.user, withdrawn, { enrolled: false });
  await enrol(env, people.tutor.user, notMine);
  const res = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    json: { webcal: { enabled: true, unit_exclusions: [mine2, inactive, withdrawn, notMine, 99999, mine, mine2, -1, 0] } },
  });
  assert.is(res.status, 200);
  assert.equal(res.body.unit_exclusions, [mine, mine2]);
  assert.equal((await storedFor(people.student.user))!.exclusions, [mine, mine2]);
  assert.equal((await api(env, 'GET', '/api/webcal', { as: people.student.creds })).body.unit_exclusions, [mine, mine2]);
});

test('unit exclusions replace the list; an empty list clears it', async () => {
  const a = await seedUnit(env, { code: 'SIT101' });
  const b = await seedUnit(env, { code: 'SIT102' });
  const c = await seedUnit(env, { code: 'SIT103' });
  for (const unit of [a, b, c]) await enrol(env, people.student.user, unit);
  await enable(people.student);
  const first = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { unit_exclusions: [a, b] } } });
  assert.equal(first.body.unit_exclusions, [a, b]);
  const replaced = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { unit_exclusions: [b, c] } } });
  assert.equal(replaced.body.unit_exclusions, [b, c]);
  assert.equal((await storedFor(people.student.user))!.exclusions, [b, c]);
  // Other settings leave the list alone.
  const other = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { include_start_dates: true } } });
  assert.equal(other.body.unit_exclusions, [b, c]);
  const cleared = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { unit_exclusions: [] } } });
  assert.equal(cleared.body.unit_exclusions, []);
  assert.is(await env.orm.em.fork().count(WebcalUnitExclusion, {}), 0);
  const formCleared = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { unit_exclusions: '' } } });
  assert.equal([formCleared.status, formCleared.body.unit_exclusions], [200, []]);
});

test('unit exclusions arrive as form arrays: indexed, repeated keys and [] keys', async () => {
  const a = await seedUnit(env, { code: 'SIT101' });
  const b = await seedUnit(env, { code: 'SIT102' });
  for (const unit of [a, b]) await enrol(env, people.student.user, unit);
  await enable(people.student);
  const indexed = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, form: { webcal: { unit_exclusions: [String(a), String(b)] } } });
  assert.is(indexed.status, 200);
  assert.equal(indexed.body.unit_exclusions, [a, b]);
  await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { unit_exclusions: [] } } });
  const raw = async (body: string) =>
    env.app.inject({
      method: 'PUT',
      url: '/api/webcal',
      headers: { 'content-type': 'application/x-www-form-urlencoded', Username: people.student.creds.username, Auth_Token: people.student.creds.token },
      payload: body,
    });
  const rep = await raw(`webcal[unit_exclusions]=${a}&webcal[unit_exclusions]=${b}`);
  assert.is(rep.statusCode, 200);
  assert.equal(JSON.parse(rep.body).unit_exclusions, [a, b]);
  const brackets = await raw(`webcal[unit_exclusions][]=${b}`);
  assert.is(brackets.statusCode, 200);
  assert.equal(JSON.parse(brackets.body).unit_exclusions, [b]);
  const multipart = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    multipart: { 'webcal[unit_exclusions][]': String(a), 'webcal[include_start_dates]': 'true' },
  });
  assert.is(multipart.status, 200);
  assert.equal([multipart.body.unit_exclusions, multipart.body.include_start_dates], [[a], true]);
});

test('the web client flow: enable, then partial JSON updates with the Auth-Token header', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await enrol(env, people.student.user, unit);
  const opts = { as: people.student.creds, hyphenHeader: true };
  const on = await api(env, 'PUT', '/api/webcal', { ...opts, json: { webcal: { enabled: true } } });
  assert.is(on.status, 200);
  // The client may send back the whole object it last read, plus the change.
  const full = await api(env, 'PUT', '/api/webcal', {
    ...opts,
    json: { webcal: { ...on.body, unit_exclusions: [unit], reminder: { time: 1, unit: 'W' } } },
  });
  assert.is(full.status, 200);
  assert.equal(full.body, { ...on.body, unit_exclusions: [unit], reminder: { time: 1, unit: 'W' } });
  const get = await api(env, 'GET', '/api/webcal', opts);
  assert.equal(get.body, full.body);
});

test("one user's changes never touch another user's calendar", async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await enrol(env, people.student.user, unit);
  await enrol(env, people.tutor.user, unit);
  const student = await api(env, 'PUT', '/api/webcal', {
    as: people.student.creds,
    json: { webcal: { enabled: true, unit_exclusions: [unit], reminder: { time: 2, unit: 'd' } } },
  });
  const studentBefore = await storedFor(people.student.user);
  const other = await signedIn(env, 'bstudent', 'Student');
  // The other user enables, changes and disables their own calendar; a body naming someone else's ids is ignored.
  const theirs = await api(env, 'PUT', '/api/webcal', {
    as: other.creds,
    json: { webcal: { enabled: true, id: student.body.id, user_id: people.student.user.id, guid: student.body.guid } },
  });
  assert.is(theirs.status, 200);
  assert.is(theirs.body.user_id, other.user.id);
  assert.is.not(theirs.body.id, student.body.id);
  assert.is.not(theirs.body.guid, student.body.guid);
  await api(env, 'PUT', '/api/webcal', {
    as: other.creds,
    json: { webcal: { should_change_guid: true, include_start_dates: true, reminder: null, unit_exclusions: [] } },
  });
  await api(env, 'PUT', '/api/webcal', { as: people.tutor.creds, json: { webcal: { enabled: false } } });
  await api(env, 'PUT', '/api/webcal', { as: other.creds, json: { webcal: { enabled: false } } });
  assert.equal(await storedFor(people.student.user), studentBefore);
  assert.equal((await api(env, 'GET', '/api/webcal', { as: people.student.creds })).body, student.body);
  assert.equal((await api(env, 'GET', '/api/webcal', { as: other.creds })).body, { enabled: false });
});

test('the webcal operations are described in the OpenAPI document', async () => {
  const doc = await api(env, 'GET', '/api/openapi.json');
  assert.is(doc.status, 200);
  assert.ok(doc.body.paths['/api/webcal'].get);
  assert.ok(doc.body.paths['/api/webcal'].put);
});

test.run();
