import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Campus } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';

const test = suite('REST /api/campuses');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const campus = { name: 'Burwood', mode: 'timetable', abbreviation: 'B', active: true };

test('an admin creates a campus from a form body with bracketed keys', async () => {
  const res = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus } });
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), ['abbreviation', 'active', 'id', 'mode', 'name']);
  assert.equal({ ...res.body, id: 0 }, { ...campus, id: 0 });
  assert.is(await env.orm.em.fork().count(Campus, {}), 1);
});

test('the web client creates a campus with a JSON wrapper and its Auth-Token header', async () => {
  const res = await api(env, 'POST', '/api/campuses/', { as: people.admin.creds, hyphenHeader: true, json: { campus } });
  assert.is(res.status, 201);
  assert.is(res.body.name, 'Burwood');
});

test('a multipart body is accepted like a form', async () => {
  const res = await api(env, 'POST', '/api/campuses', {
    as: people.admin.creds,
    multipart: { 'campus[name]': 'Online', 'campus[mode]': 'manual', 'campus[abbreviation]': 'O', 'campus[active]': 'false' },
  });
  assert.is(res.status, 201);
  assert.equal([res.body.name, res.body.active], ['Online', false]);
});

test('listing and reading are public', async () => {
  const created = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus } });
  const list = await api(env, 'GET', '/api/campuses');
  assert.is(list.status, 200);
  assert.equal(list.body, [created.body]);
  const one = await api(env, 'GET', `/api//campuses/${created.body.id}/`);
  assert.is(one.status, 200);
  assert.equal(one.body, created.body);
});

test('convenors, tutors and students may not create, update or delete campuses', async () => {
  const created = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus } });
  for (const who of [people.convenor, people.tutor, people.student]) {
    const post = await api(env, 'POST', '/api/campuses', { as: who.creds, form: { campus: { ...campus, name: 'X', abbreviation: 'X' } } });
    assert.is(post.status, 403);
    assert.type(post.body.error, 'string');
    const put = await api(env, 'PUT', `/api/campuses/${created.body.id}`, { as: who.creds, form: { campus: { name: 'Changed' } } });
    assert.is(put.status, 403);
    const del = await api(env, 'DELETE', `/api/campuses/${created.body.id}`, { as: who.creds });
    assert.is(del.status, 403);
  }
  assert.is(await env.orm.em.fork().count(Campus, {}), 1);
  assert.is((await env.orm.em.fork().findOneOrFail(Campus, { id: created.body.id })).name, 'Burwood');
});

test('missing credentials, a wrong token or a wrong username get 419', async () => {
  assert.is((await api(env, 'POST', '/api/campuses', { form: { campus } })).status, 419);
  const wrongToken = await api(env, 'POST', '/api/campuses', { as: { ...people.admin.creds, token: 'nope' }, form: { campus } });
  assert.is(wrongToken.status, 419);
  const wrongUser = await api(env, 'POST', '/api/campuses', { as: { ...people.admin.creds, username: 'astudent' }, form: { campus } });
  assert.is(wrongUser.status, 419);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('missing and ill-typed fields get 400 naming the field, and nothing is written', async () => {
  const missing = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus: { name: 'A' } } });
  assert.is(missing.status, 400);
  assert.match(missing.body.error, 'campus[mode] is missing');
  const badMode = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus: { ...campus, mode: 'teleport' } } });
  assert.is(badMode.status, 400);
  assert.match(badMode.body.error, 'campus[mode] is invalid');
  const badBool = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus: { ...campus, active: 'maybe' } } });
  assert.is(badBool.status, 400);
  const notJson = await api(env, 'POST', '/api/campuses', {
    as: people.admin.creds,
    headers: { 'content-type': 'application/json' },
    form: undefined,
    json: undefined,
  });
  assert.is(notJson.status, 400);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('a duplicate name is a 400 validation error, not a 500', async () => {
  await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus } });
  const dup = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus: { ...campus, abbreviation: 'C' } } });
  assert.is(dup.status, 400);
  assert.match(dup.body.error, 'already been taken');
});

test('an admin updates only the fields sent and deletes with 204', async () => {
  const created = await api(env, 'POST', '/api/campuses', { as: people.admin.creds, form: { campus } });
  const put = await api(env, 'PUT', `/api/campuses/${created.body.id}`, { as: people.admin.creds, json: { campus: { active: false } } });
  assert.is(put.status, 200);
  assert.equal(put.body, { ...created.body, active: false });
  const del = await api(env, 'DELETE', `/api/campuses/${created.body.id}`, { as: people.admin.creds });
  assert.is(del.status, 204);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('unknown ids get 404 and non-numeric ids get 400', async () => {
  const get = await api(env, 'GET', '/api/campuses/999');
  assert.is(get.status, 404);
  assert.is(get.body.error, 'Unable to find requested Campus');
  assert.is((await api(env, 'PUT', '/api/campuses/999', { as: people.admin.creds, form: { campus: { name: 'x' } } })).status, 404);
  assert.is((await api(env, 'DELETE', '/api/campuses/999', { as: people.admin.creds })).status, 404);
  assert.is((await api(env, 'GET', '/api/campuses/abc')).status, 400);
});

test.run();
