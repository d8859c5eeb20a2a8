// Input a client can send by mistake or on purpose that must get a 4xx with an error message,
// never a 500: NUL bytes in strings, broken multipart bodies, files where none are taken, and
// bodies larger than any ordinary operation needs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Campus, User } from '../../schema/index.ts';
import { loadConfig } from '../../src/config.ts';
import { legacyError } from '../../compat/errors.ts';
import { translateDatabaseError } from '../../src/db/translate-errors.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api, rawRequest, type Credentials } from '../support/http.ts';
import { enrol, seedUnit } from '../support/seed.ts';

const test = suite('bad input: NUL bytes, broken multipart, oversized bodies');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const campus = { name: 'Burwood', mode: 'timetable', abbreviation: 'B', active: true };
const BOUNDARY = 'badinputboundary';

const send = (method: string, url: string, contentType: string | undefined, payload: string | Buffer, as?: Credentials) =>
  rawRequest(env, method, url, contentType, payload, as).then(({ status, body }) => ({ status, body }));

const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, content: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const campusFields = () =>
  Object.entries(campus)
    .map(([k, v]) => field(`campus[${k}]`, String(v)))
    .join('');

// ---------------------------------------------------------------------------------------------
// NUL bytes

test('a NUL byte in a sign-in username is a 400 naming the field, whoever calls and however it is sent', async () => {
  const form = await send('POST', '/api/auth', 'application/x-www-form-urlencoded', 'username=a%00b&password=x');
  assert.is(form.status, 400);
  assert.equal(form.body, { error: 'username is invalid (contains a NUL byte)' });
  const json = await send('POST', '/api/auth', 'application/json', JSON.stringify({ username: 'aadmin', password: 'pass\u0000word' }));
  assert.is(json.status, 400);
  assert.equal(json.body, { error: 'password is invalid (contains a NUL byte)' });
});

test('a NUL byte in a campus field is a 400 naming it in form style, and nothing is written', async () => {
  const admin = people.admin.creds;
  const json = await send('POST', '/api/campuses', 'application/json', JSON.stringify({ campus: { ...campus, name: 'Bur\u0000wood' } }), admin);
  assert.is(json.status, 400);
  assert.equal(json.body, { error: 'campus[name] is invalid (contains a NUL byte)' });
  const form = await send(
    'POST',
    '/api/campuses',
    'application/x-www-form-urlencoded',
    'campus[name]=B&campus[mode]=manual&campus[abbreviation]=%00&campus[active]=true',
    admin,
  );
  assert.equal(form.body, { error: 'campus[abbreviation] is invalid (contains a NUL byte)' });
  const multipart = await send('POST', '/api/campuses', MULTIPART, `${field('campus[name]', 'a\u0000')}--${BOUNDARY}--\r\n`, admin);
  assert.equal(multipart.body, { error: 'campus[name] is invalid (contains a NUL byte)' });
  // In a field name, too: keys reach the database in record-like inputs.
  const key = await send('POST', '/api/campuses', 'application/json', JSON.stringify({ campus: { ...campus, 'x\u0000': 1 } }), admin);
  assert.equal(key, { status: 400, body: { error: 'campus has a field name that contains a NUL byte' } });
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('a NUL byte in a user update is a 400, and the user is unchanged', async () => {
  const res = await api(env, 'PUT', `/api/users/${people.student.user.id}`, {
    as: people.admin.creds,
    json: { user: { first_name: 'Ann\u0000', nickname: 'ok' } },
  });
  assert.is(res.status, 400);
  assert.equal(res.body, { error: 'user[first_name] is invalid (contains a NUL byte)' });
  const user = await env.orm.em.fork().findOneOrFail(User, { id: people.student.user.id });
  assert.equal([user.firstName, user.nickname], ['Astudent', 'astudent']);
});

test('a NUL byte in a query parameter or path is a 400 too', async () => {
  const query = await send('GET', '/api/unit_roles?active_only=t%00', undefined, '', people.tutor.creds);
  assert.equal(query, { status: 400, body: { error: 'active_only is invalid (contains a NUL byte)' } });
  const path = await send('GET', '/api/campuses/1%00', undefined, '');
  assert.equal(path, { status: 400, body: { error: 'id is invalid (contains a NUL byte)' } });
});

test('tRPC callers get the same 400 for a NUL byte', async () => {
  const res = await env.app.inject({
    method: 'POST',
    url: '/trpc/campuses.create',
    headers: { 'content-type': 'application/json', Username: people.admin.creds.username, 'Auth-Token': people.admin.creds.token },
    payload: JSON.stringify({ campus: { ...campus, name: 'x\u0000' } }),
  });
  assert.is(res.statusCode, 400);
  const body = JSON.parse(res.body);
  assert.is(body.error.message, 'campus[name] is invalid (contains a NUL byte)');
  assert.is(body.error.data.code, 'BAD_REQUEST');
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('characters the database refuses to store, and numbers past a column, are a 400 wherever they slip through', async () => {
  const em = env.orm.em.fork();
  const refusals: unknown[] = [];
  // Text with a NUL byte (22021), JSON with an escaped one (22P05), an id past integer (22003).
  for (const [sql, params] of [
    ['select ?::text as t', ['a\u0000b']],
    ['select \'"\\u0000"\'::jsonb ->> 0 as t', []],
    ['select id from units where id = ?::int', ['99999999999']],
  ] as const) {
    refusals.push(
      await em.execute(sql, [...params]).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
  }
  for (const error of refusals) {
    assert.ok(error, 'the database refused');
    const translated = translateDatabaseError(error);
    assert.is(translated?.kind, 'badRequest', String(error));
    assert.equal(legacyError(error), { status: 400, message: translated!.message, unexpected: false });
  }
  // The refusal does not cost the connection.
  assert.equal(await em.execute('select 1 as one'), [{ one: 1 }]);
});

// ---------------------------------------------------------------------------------------------
// Multipart bodies

test('a multipart body without a boundary, or cut off, is a 400 and writes nothing', async () => {
  const admin = people.admin.creds;
  const noBoundary = await send('POST', '/api/campuses', 'multipart/form-data', campusFields(), admin);
  assert.is(noBoundary.status, 400);
  assert.type(noBoundary.body.error, 'string');
  const full = `${campusFields()}--${BOUNDARY}--\r\n`;
  for (const cut of [full.length - 10, full.length / 2, 30]) {
    const res = await send('POST', '/api/campuses', MULTIPART, full.slice(0, Math.floor(cut)), admin);
    assert.is(res.status, 400, `cut at ${cut}`);
    assert.type(res.body.error, 'string');
  }
  const garbage = await send('POST', '/api/campuses', MULTIPART, 'this is not multipart at all', admin);
  assert.is(garbage.status, 400);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
  // The intact body still works.
  assert.is((await send('POST', '/api/campuses', MULTIPART, full, admin)).status, 201);
});

test('an operation that takes no file refuses a file part with a 400 naming it', async () => {
  const res = await send('POST', '/api/campuses', MULTIPART, `${campusFields()}${filePart('file0', 'hello')}--${BOUNDARY}--\r\n`, people.admin.creds);
  assert.equal(res, { status: 400, body: { error: 'file0 is a file, and this operation takes none' } });
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('repeated multipart fields arrive as a list, as in a form body, not the last one alone', async () => {
  const student = people.student;
  const a = await seedUnit(env, { code: 'SIT101' });
  const b = await seedUnit(env, { code: 'SIT102' });
  for (const unit of [a, b]) await enrol(env, student.user, unit);
  assert.is((await api(env, 'PUT', '/api/webcal', { as: student.creds, json: { webcal: { enabled: true } } })).status, 200);
  const body = `${field('webcal[unit_exclusions]', String(a))}${field('webcal[unit_exclusions]', String(b))}--${BOUNDARY}--\r\n`;
  const res = await send('PUT', '/api/webcal', MULTIPART, body, student.creds);
  assert.is(res.status, 200);
  assert.equal(res.body.unit_exclusions, [a, b]);
});

// ---------------------------------------------------------------------------------------------
// Sizes

test('MAX_BODY_BYTES and MAX_UPLOAD_BYTES: 1 MiB and 10 MB by default, set from the environment', () => {
  const defaults = loadConfig({});
  assert.equal([defaults.maxBodyBytes, defaults.maxUploadBytes], [1_048_576, 10_000_000]);
  const set = loadConfig({ MAX_BODY_BYTES: '65536', MAX_UPLOAD_BYTES: '500000000' });
  assert.equal([set.maxBodyBytes, set.maxUploadBytes], [65_536, 500_000_000]);
  assert.throws(() => loadConfig({ MAX_UPLOAD_BYTES: '10MB' }), /MAX_UPLOAD_BYTES/);
});

test('a JSON, form or multipart body larger than MAX_BODY_BYTES is a 413, and nothing is written', async () => {
  const limit = env.config.maxBodyBytes;
  assert.is(limit, 1024 * 1024, 'the default is 1 MiB');
  const big = 'x'.repeat(limit + 1);
  const admin = people.admin.creds;
  const json = await send('POST', '/api/campuses', 'application/json', JSON.stringify({ campus: { ...campus, name: big } }), admin);
  assert.is(json.status, 413);
  assert.type(json.body.error, 'string');
  const form = await send('POST', '/api/campuses', 'application/x-www-form-urlencoded', `campus[name]=${big}`, admin);
  assert.is(form.status, 413);
  const multipart = await send('POST', '/api/campuses', MULTIPART, `${field('campus[name]', big)}--${BOUNDARY}--\r\n`, admin);
  assert.is(multipart.status, 413);
  assert.type(multipart.body.error, 'string');
  // Public operations have the same limit.
  const signIn = await send('POST', '/api/auth', 'application/json', JSON.stringify({ username: big, password: 'x' }));
  assert.is(signIn.status, 413);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('tRPC bodies have the same limit, and a multipart body is refused, not a 500', async () => {
  const headers = { Username: people.admin.creds.username, 'Auth-Token': people.admin.creds.token };
  const big = 'x'.repeat(env.config.maxBodyBytes + 1);
  const json = await env.app.inject({
    method: 'POST',
    url: '/trpc/campuses.create',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ campus: { ...campus, name: big } }),
  });
  assert.is(json.statusCode, 413);
  // tRPC reads JSON only.
  const multipart = await env.app.inject({
    method: 'POST',
    url: '/trpc/campuses.create',
    headers: { ...headers, 'content-type': MULTIPART },
    payload: field('campus[name]', big),
  });
  assert.is(multipart.statusCode, 400);
  assert.type(JSON.parse(multipart.body).error, 'string');
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('without credentials a write is refused with a 419 before its body is looked at', async () => {
  for (const [type, payload] of [
    ['application/json', '{bad'],
    ['application/json', JSON.stringify({ campus: { ...campus, name: 'x'.repeat(2_000_000) } })],
    [MULTIPART, 'not multipart'],
    ['multipart/form-data', 'no boundary'],
    ['application/x-foo', 'campus[name]=X'],
  ]) {
    const res = await send('POST', '/api/campuses', type, payload);
    assert.is(res.status, 419, `${type} ${payload.slice(0, 20)}`);
    assert.is(res.body.error, 'No authentication details provided. Authentication is required to access this resource.');
  }
  const forged = await send('POST', '/api/campuses', MULTIPART, campusFields(), { username: 'aadmin', token: 'forged' });
  assert.is(forged.status, 419);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test.run();
