import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ActivityType, TutorialStream } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { seedUnit } from '../support/seed.ts';

const test = suite('REST /api/activity_types');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const practical = { name: 'Practical', abbreviation: 'prac' };

async function create(fields = practical) {
  return api(env, 'POST', '/api/activity_types', { as: people.admin.creds, form: { activity_type: fields } });
}

async function stored() {
  return (await env.orm.em.fork().find(ActivityType, {}, { orderBy: { id: 'asc' } })).map((a) => ({
    id: a.id,
    name: a.name,
    abbreviation: a.abbreviation,
  }));
}

test('an admin creates an activity type from a form body', async () => {
  const res = await create();
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), ['abbreviation', 'id', 'name']);
  assert.equal(res.body, { id: res.body.id, ...practical });
  assert.type(res.body.id, 'number');
  assert.equal(await stored(), [res.body]);
});

test('the web client creates one with a JSON wrapper, its Auth-Token header and a trailing slash', async () => {
  const res = await api(env, 'POST', '/api/activity_types/', {
    as: people.admin.creds,
    hyphenHeader: true,
    json: { activity_type: { name: 'Workshop', abbreviation: 'wrkshop' } },
  });
  assert.is(res.status, 201);
  assert.equal([res.body.name, res.body.abbreviation], ['Workshop', 'wrkshop']);
});

test('a multipart body is accepted like a form', async () => {
  const res = await api(env, 'POST', '/api/activity_types', {
    as: people.admin.creds,
    multipart: { 'activity_type[name]': 'Class', 'activity_type[abbreviation]': 'cls' },
  });
  assert.is(res.status, 201);
  assert.equal([res.body.name, res.body.abbreviation], ['Class', 'cls']);
});

test('listing (ordered by id) and reading are public', async () => {
  const b = await create({ name: 'Workshop', abbreviation: 'wrkshop' });
  const a = await create();
  const list = await api(env, 'GET', '/api/activity_types');
  assert.is(list.status, 200);
  assert.equal(list.body, [b.body, a.body]);
  assert.ok(b.body.id < a.body.id);
  const viaClient = await api(env, 'GET', '/api/activity_types/');
  assert.equal(viaClient.body, list.body);
  const one = await api(env, 'GET', `/api//activity_types/${a.body.id}`);
  assert.is(one.status, 200);
  assert.equal(one.body, a.body);
});

test('an empty list is an empty array', async () => {
  const list = await api(env, 'GET', '/api/activity_types');
  assert.is(list.status, 200);
  assert.equal(list.body, []);
});

test('convenors, tutors and students may not create, update or delete activity types', async () => {
  const created = await create();
  for (const who of [people.convenor, people.tutor, people.student]) {
    const post = await api(env, 'POST', '/api/activity_types', {
      as: who.creds,
      form: { activity_type: { name: 'Lab', abbreviation: 'lab' } },
    });
    assert.is(post.status, 403);
    assert.type(post.body.error, 'string');
    const put = await api(env, 'PUT', `/api/activity_types/${created.body.id}`, {
      as: who.creds,
      json: { activity_type: { name: 'Changed' } },
    });
    assert.is(put.status, 403);
    const del = await api(env, 'DELETE', `/api/activity_types/${created.body.id}`, { as: who.creds });
    assert.is(del.status, 403);
  }
  assert.equal(await stored(), [created.body]);
});

test('writes without valid credentials get 419 and change nothing', async () => {
  const created = await create();
  assert.is((await api(env, 'POST', '/api/activity_types', { form: { activity_type: { name: 'Lab', abbreviation: 'lab' } } })).status, 419);
  const wrongToken = await api(env, 'POST', '/api/activity_types', {
    as: { ...people.admin.creds, token: 'nope' },
    form: { activity_type: { name: 'Lab', abbreviation: 'lab' } },
  });
  assert.is(wrongToken.status, 419);
  assert.is((await api(env, 'PUT', `/api/activity_types/${created.body.id}`, { form: { activity_type: { name: 'X' } } })).status, 419);
  assert.is((await api(env, 'DELETE', `/api/activity_types/${created.body.id}`)).status, 419);
  assert.equal(await stored(), [created.body]);
});

test('missing and blank fields get 400 naming the field, and nothing is written', async () => {
  const noAbbr = await create({ name: 'Lab' } as typeof practical);
  assert.is(noAbbr.status, 400);
  assert.match(noAbbr.body.error, 'activity_type[abbreviation] is missing');
  const noName = await api(env, 'POST', '/api/activity_types', { as: people.admin.creds, json: { activity_type: { abbreviation: 'lab' } } });
  assert.is(noName.status, 400);
  assert.match(noName.body.error, 'activity_type[name] is missing');
  const blank = await create({ name: '  ', abbreviation: 'lab' });
  assert.is(blank.status, 400);
  assert.match(blank.body.error, 'activity_type[name]');
  const noWrapper = await api(env, 'POST', '/api/activity_types', { as: people.admin.creds, json: {} });
  assert.is(noWrapper.status, 400);
  assert.match(noWrapper.body.error, 'activity_type is missing');
  const badType = await api(env, 'POST', '/api/activity_types', {
    as: people.admin.creds,
    json: { activity_type: { name: ['a'], abbreviation: 'lab' } },
  });
  assert.is(badType.status, 400);
  assert.match(badType.body.error, 'activity_type[name] is invalid');
  assert.equal(await stored(), []);
});

test('duplicate names and abbreviations are 400s, on create and on update', async () => {
  const first = await create();
  const second = await create({ name: 'Workshop', abbreviation: 'wrkshop' });
  const dupName = await create({ name: 'Practical', abbreviation: 'other' });
  assert.is(dupName.status, 400);
  assert.match(dupName.body.error, 'already been taken');
  const dupAbbr = await create({ name: 'Other', abbreviation: 'prac' });
  assert.is(dupAbbr.status, 400);
  assert.match(dupAbbr.body.error, 'already been taken');
  const putDup = await api(env, 'PUT', `/api/activity_types/${second.body.id}`, {
    as: people.admin.creds,
    form: { activity_type: { abbreviation: 'prac' } },
  });
  assert.is(putDup.status, 400);
  assert.match(putDup.body.error, 'already been taken');
  assert.equal(await stored(), [first.body, second.body]);
});

test('an admin updates only the fields sent (JSON and form) and an empty wrapper changes nothing', async () => {
  const created = await create();
  const put = await api(env, 'PUT', `/api/activity_types/${created.body.id}`, {
    as: people.admin.creds,
    json: { activity_type: { name: 'Lab practical' } },
  });
  assert.is(put.status, 200);
  assert.equal(put.body, { ...created.body, name: 'Lab practical' });
  const form = await api(env, 'PUT', `/api/activity_types/${created.body.id}`, {
    as: people.admin.creds,
    form: { activity_type: { abbreviation: 'lab' } },
  });
  assert.is(form.status, 200);
  assert.equal(form.body, { id: created.body.id, name: 'Lab practical', abbreviation: 'lab' });
  const empty = await api(env, 'PUT', `/api/activity_types/${created.body.id}`, { as: people.admin.creds, json: { activity_type: {} } });
  assert.is(empty.status, 200);
  assert.equal(empty.body, form.body);
  const blank = await api(env, 'PUT', `/api/activity_types/${created.body.id}`, {
    as: people.admin.creds,
    json: { activity_type: { name: '' } },
  });
  assert.is(blank.status, 400);
  assert.match(blank.body.error, 'activity_type[name]');
  assert.equal(await stored(), [form.body]);
});

test('an admin deletes an unused activity type with 204 and no body', async () => {
  const created = await create();
  const del = await api(env, 'DELETE', `/api/activity_types/${created.body.id}`, { as: people.admin.creds });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  assert.equal(await stored(), []);
  assert.is((await api(env, 'GET', `/api/activity_types/${created.body.id}`)).status, 404);
});

test('deleting an activity type used by a tutorial stream is refused with 400 and changes nothing', async () => {
  const created = await create();
  const unit = await seedUnit(env, { code: 'SIT101' });
  const em = env.orm.em.fork();
  em.create(TutorialStream, { unit, activityType: created.body.id, name: 'Practical 1', abbreviation: 'prac 1' });
  await em.flush();
  const del = await api(env, 'DELETE', `/api/activity_types/${created.body.id}`, { as: people.admin.creds });
  assert.is(del.status, 400);
  assert.type(del.body.error, 'string');
  assert.equal(await stored(), [created.body]);
  assert.is(await env.orm.em.fork().count(TutorialStream, {}), 1);
});

test('unknown ids get 404 and non-numeric ids get 400', async () => {
  const get = await api(env, 'GET', '/api/activity_types/999');
  assert.is(get.status, 404);
  assert.is(get.body.error, 'Unable to find requested Activity Type');
  const put = await api(env, 'PUT', '/api/activity_types/999', { as: people.admin.creds, form: { activity_type: { name: 'x' } } });
  assert.is(put.status, 404);
  assert.is((await api(env, 'DELETE', '/api/activity_types/999', { as: people.admin.creds })).status, 404);
  assert.is((await api(env, 'GET', '/api/activity_types/abc')).status, 400);
  assert.is((await api(env, 'DELETE', '/api/activity_types/abc', { as: people.admin.creds })).status, 400);
});

test.run();
