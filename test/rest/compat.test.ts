// The request conventions of the real web client (web-client.md §2), checked against whatever
// operations exist, and a deterministic fuzz of every REST route: nothing may answer 500, and
// every error carries an `error` string.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import qs from 'qs';
import { restRoutes } from '../../src/trpc/rest-routes.ts';
import {
  ActivityType,
  Break,
  Campus,
  Group,
  GroupSet,
  LearningOutcome,
  OverseerImage,
  Task,
  TaskComment,
  TaskDefinition,
  Tutorial,
  TutorialEnrolment,
  TutorialStream,
  User,
  Webcal,
} from '../../schema/index.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { appRouter } from '../../src/routers/index.ts';
import { type TestEnv, resetDatabase } from '../support/env.ts';
import { type People, everyone, signedIn } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api, rawRequest, type Credentials } from '../support/http.ts';
import { employ, enrol, seedCampus, seedPeriod, seedUnit } from '../support/seed.ts';

const test = suite('REST compatibility conventions');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const ORIGIN = 'http://localhost:4200';

/** One of everything, each with id 1 after a reset, so that ids in paths reach real records. */
async function seedWorld(): Promise<void> {
  const period = await seedPeriod(env);
  const campus = await seedCampus(env);
  const unit = await seedUnit(env, {
    code: 'SIT101',
    name: 'Introduction',
    description: 'The first unit',
    teachingPeriod: period,
    startDate: '2026-03-02',
    endDate: '2026-06-01',
  });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  await employ(env, people.admin.user, unit, 'Convenor');
  const project = await enrol(env, people.student.user, unit, { campus });
  const em = env.orm.em.fork();
  em.create(Break, { teachingPeriod: period, startDate: '2026-04-06', numberOfWeeks: 1 } as never);
  const activityType = em.create(ActivityType, { name: 'Workshop', abbreviation: 'wrk' });
  em.create(OverseerImage, { name: 'Python', tag: 'python:3.12' });
  const stream = em.create(TutorialStream, { unit, activityType, name: 'Workshops', abbreviation: 'wrk' } as never);
  const tutorial = em.create(Tutorial, {
    unit,
    campus,
    tutorialStream: stream,
    tutor: tutorRole,
    abbreviation: 'W01',
    meetingDay: 'Monday',
    meetingTime: '09:00',
    meetingLocation: 'Room 1',
  } as never);
  const taskDefinition = em.create(TaskDefinition, {
    unit,
    name: 'Pass task 1',
    abbreviation: 'P1',
    description: 'Do it',
    startDate: '2026-03-02',
    targetDate: '2026-03-16',
  } as never);
  em.create(LearningOutcome, { unit, iloNumber: 1, abbreviation: 'ILO1', name: 'Outcome', description: 'Know it' } as never);
  const groupSet = em.create(GroupSet, { unit, name: 'Teams' } as never);
  em.create(Group, { groupSet, tutorial, name: 'Team 1' } as never);
  em.create(TutorialEnrolment, { project, tutorial } as never);
  const task = em.create(Task, { project, taskDefinition, status: 'ready_for_feedback' } as never);
  em.create(TaskComment, { task, author: people.tutor.user.id, recipient: people.student.user.id, comment: 'Hello' } as never);
  em.create(Webcal, { user: people.admin.user.id, guid: 'guid-admin' } as never);
  await em.flush();
}

/** Every route the REST layer registers, straight from the procedures' meta. */
const compatRoutes = () => restRoutes(appRouter);

const hasError = (body: unknown) => typeof (body as { error?: unknown } | undefined)?.error === 'string';

// ---------------------------------------------------------------------------------------------
// Paths

test('double slashes, a trailing slash and a .json suffix name the same route', async () => {
  const campus = await seedCampus(env);
  const plain = await api(env, 'GET', '/api/campuses');
  assert.is(plain.status, 200);
  assert.is(plain.body.length, 1);
  for (const url of ['/api//campuses', '/api/campuses/', '/api/campuses.json', '/api//campuses//', '/api/campuses.json?ignored=1']) {
    const res = await api(env, 'GET', url);
    assert.is(res.status, 200, url);
    assert.equal(res.body, plain.body, url);
  }
  for (const url of [`/api/campuses/${campus}.json`, `/api//campuses/${campus}/`, `/api/campuses//${campus}`]) {
    const res = await api(env, 'GET', url);
    assert.is(res.status, 200, url);
    assert.equal(res.body, plain.body[0], url);
  }
  // The query string survives the rewriting.
  const roles = await api(env, 'GET', '/api//unit_roles.json?active_only=maybe', { as: people.tutor.creds });
  assert.is(roles.status, 400);
  assert.is(roles.body.error, 'active_only is invalid');
  const projects = await api(env, 'GET', '/api//projects/?include_inactive=false', { as: people.student.creds, hyphenHeader: true });
  assert.is(projects.status, 200);
  assert.equal(projects.body, []);
});

test('writes through a trailing slash, a double slash and a .json suffix reach the operation', async () => {
  const campus = { name: 'Online', mode: 'manual', abbreviation: 'O', active: true };
  const created = await api(env, 'POST', '/api/campuses/', { as: people.admin.creds, hyphenHeader: true, json: { campus } });
  assert.is(created.status, 201);
  const updated = await api(env, 'PUT', `/api//campuses/${created.body.id}.json`, { as: people.admin.creds, json: { campus: { name: 'Remote' } } });
  assert.is(updated.status, 200);
  assert.is(updated.body.name, 'Remote');
  const removed = await api(env, 'DELETE', `/api//campuses/${created.body.id}/`, { as: people.admin.creds });
  assert.is(removed.status, 204);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

// ---------------------------------------------------------------------------------------------
// Credentials

test('credentials are read from Auth-Token or Auth_Token headers, in any letter case', async () => {
  const { username, token } = people.tutor.creds;
  const headerSets: Record<string, string>[] = [
    { Username: username, 'Auth-Token': token },
    { Username: username, Auth_Token: token },
    { username, 'auth-token': token },
    { USERNAME: username, AUTH_TOKEN: token },
  ];
  for (const headers of headerSets) {
    const res = await api(env, 'GET', '/api/unit_roles', { headers });
    assert.is(res.status, 200, JSON.stringify(Object.keys(headers)));
    assert.equal(res.body, []);
  }
  const wrong = await api(env, 'GET', '/api/unit_roles', { headers: { Username: username, 'Auth-Token': 'forged' } });
  assert.is(wrong.status, 419);
  assert.ok(hasError(wrong.body));
  const noUser = await api(env, 'GET', '/api/unit_roles', { headers: { 'Auth-Token': token } });
  assert.is(noUser.status, 419);
});

test('credentials in the query string are ignored: they would land in logs (web-client.md §1.3)', async () => {
  const { username, token } = people.tutor.creds;
  for (const query of [
    { Username: username, 'Auth-Token': token },
    { username, auth_token: token },
    { Username: username, Auth_Token: token },
    { username, authToken: token },
  ]) {
    const res = await api(env, 'GET', '/api/unit_roles', { query: { ...query, active_only: 'true' } });
    assert.is(res.status, 419, JSON.stringify(Object.keys(query)));
    assert.ok(hasError(res.body));
  }
  const admin = people.admin.creds;
  const created = await api(env, 'POST', `/api/campuses?Username=${admin.username}&Auth-Token=${encodeURIComponent(admin.token)}`, {
    json: { campus: { name: 'Geelong', mode: 'timetable', abbreviation: 'G', active: true } },
  });
  assert.is(created.status, 419);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
  // Headers still work when the query carries other credentials.
  const headers = await api(env, 'GET', `/api/unit_roles?Username=x&Auth-Token=y`, { as: people.tutor.creds });
  assert.is(headers.status, 200);
});

// ---------------------------------------------------------------------------------------------
// CORS

test('a CORS preflight from another origin is allowed for the headers the client sends', async () => {
  for (const url of ['/api/campuses/', '/api//units/5/tasks/inbox', '/api/projects/1/task_def_id/2/comments/', '/api/auth']) {
    const res = await env.app.inject({
      method: 'OPTIONS',
      url,
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'Auth-Token, Username, Content-Type' },
    });
    assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${url}: ${res.statusCode}`);
    assert.is(res.headers['access-control-allow-origin'], '*', url);
    const methods = String(res.headers['access-control-allow-methods']).toUpperCase();
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) assert.ok(methods.includes(method), `${url} allows ${method}`);
    const allowed = String(res.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const header of ['auth-token', 'auth_token', 'username', 'content-type']) assert.ok(allowed.includes(header), `${url} allows ${header}`);
  }
});

test('every response, errors included, allows any origin and exposes Content-Disposition', async () => {
  const ok = await api(env, 'GET', '/api/campuses/', { headers: { Origin: ORIGIN } });
  assert.is(ok.status, 200);
  assert.is(ok.headers['access-control-allow-origin'], '*');
  assert.ok(
    String(ok.headers['access-control-expose-headers'])
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes('content-disposition'),
  );
  // The client must be able to read a 419 across origins to sign out.
  const expired = await api(env, 'GET', '/api/unit_roles', { headers: { Origin: ORIGIN } });
  assert.is(expired.status, 419);
  assert.is(expired.headers['access-control-allow-origin'], '*');
  const missing = await api(env, 'GET', '/api/no_such_thing', { headers: { Origin: ORIGIN } });
  assert.is(missing.headers['access-control-allow-origin'], '*');
  const bad = await api(env, 'POST', '/api/auth', { headers: { Origin: ORIGIN, 'content-type': 'application/json' } });
  assert.is(bad.status, 400);
  assert.is(bad.headers['access-control-allow-origin'], '*');
});

// ---------------------------------------------------------------------------------------------
// Bodies and errors

const raw = (method: string, url: string, contentType: string | undefined, payload: string, as?: Credentials) =>
  rawRequest(env, method, url, contentType, payload, as);

test('malformed JSON is a 400 with an error message; without credentials it is never read (419)', async () => {
  for (const payload of ['{bad', '{"campus": ', '[1,', '{"a":1}}', "{'a':1}", '\u0000']) {
    for (const [as, status] of [
      [undefined, 419],
      [people.admin.creds, 400],
    ] as const) {
      const res = await raw('POST', '/api/campuses', 'application/json', payload, as);
      assert.is(res.status, status, payload);
      assert.ok(hasError(res.body), payload);
      assert.match(res.type, 'application/json');
    }
    // A public operation reads it, and refuses it.
    const signIn = await raw('POST', '/api/auth', 'application/json', payload);
    assert.is(signIn.status, 400, payload);
  }
  const renew = await raw('PUT', '/api/auth', 'application/json; charset=utf-8', '{"username":', people.admin.creds);
  assert.is(renew.status, 400);
  assert.ok(hasError(renew.body));
  const empty = await raw('POST', '/api/auth', 'application/json', '');
  assert.is(empty.status, 400);
  assert.ok(hasError(empty.body));
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('an unknown content type is a 400 with an error message', async () => {
  for (const type of ['application/x-foo', 'application/xml', 'image/png', 'application/octet-stream']) {
    const res = await raw('POST', '/api/campuses', type, 'campus[name]=X', people.admin.creds);
    assert.is(res.status, 400, type);
    assert.ok(hasError(res.body), type);
  }
  const signIn = await raw('POST', '/api/auth', 'application/x-foo', 'username=a&password=b');
  assert.is(signIn.status, 400);
  assert.ok(hasError(signIn.body));
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('an unknown route or method is a 404 with an error message', async () => {
  for (const [method, url] of [
    ['GET', '/api/no_such_thing'],
    ['GET', '/api/campuses/1/nothing'],
    ['POST', '/api/campuses/1'],
    ['PATCH', '/api/campuses'],
    ['DELETE', '/api/campuses'],
    ['GET', '/api'],
    ['GET', '/nothing'],
    ['GET', '/api/../etc/passwd'],
  ]) {
    const res = await raw(method, url, undefined, '', people.admin.creds);
    assert.is(res.status, 404, `${method} ${url}`);
    assert.ok(hasError(res.body), `${method} ${url}`);
  }
});

test('JSON nulls, empty wrappers and bodies on DELETE are accepted where the client sends them', async () => {
  const campus = await seedCampus(env);
  const original = (await api(env, 'GET', `/api/campuses/${campus}`)).body;
  // Partial updates: an empty wrapper, no wrapper at all, or a JSON null body change nothing.
  for (const payload of ['{"campus":{}}', '{}', 'null']) {
    const res = await raw('PUT', `/api/campuses/${campus}`, 'application/json', payload, people.admin.creds);
    assert.is(res.status, 200, payload);
    assert.equal(res.body, original, payload);
  }
  // Renewal sends JSON with a boolean, sign-out nothing at all.
  const renew = await api(env, 'PUT', '/api/auth', { as: people.tutor.creds, hyphenHeader: true, json: { username: 'atutor', remember: false } });
  assert.ok(renew.status < 300);
  // Tutorial enrolment changes send DELETE with a JSON `{}` body.
  const removed = await raw('DELETE', `/api/campuses/${campus}`, 'application/json', '{}', people.admin.creds);
  assert.is(removed.status, 204);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0);
});

test('the nulls and sentinels of task updates, tutorials and webcal are not rejected as ill-typed (where those operations exist)', async () => {
  await seedWorld();
  const routes = compatRoutes();
  const has = (method: string, url: string) => routes.some((r) => r.method === method && r.url === url);
  const taskUpdate = '/api/projects/:id/task_def_id/:task_definition_id';
  const taskUpdateAlt = '/api/projects/:project_id/task_def_id/:task_definition_id';
  if (has('PUT', taskUpdate) || has('PUT', taskUpdateAlt)) {
    const res = await api(env, 'PUT', '/api//projects/1/task_def_id/1', {
      as: people.tutor.creds,
      hyphenHeader: true,
      json: { trigger: 'complete', grade: null, quality_pts: -1 },
    });
    assert.ok(res.status < 500, `task update: ${res.status}`);
    if (res.status === 400) assert.not.match(res.body.error, /grade|quality_pts/, res.body.error);
  }
  if (has('PUT', '/api/webcal')) {
    // Turning the reminder off sends it as null.
    const res = await api(env, 'PUT', '/api/webcal', { as: people.admin.creds, hyphenHeader: true, json: { webcal: { reminder: null } } });
    assert.ok(res.status < 300, `webcal reminder null: ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (has('POST', '/api/tutorials')) {
    const res = await api(env, 'POST', '/api/tutorials/', {
      as: people.admin.creds,
      json: {
        tutorial: {
          meeting_day: 'Tuesday',
          meeting_time: '10:00',
          meeting_location: 'Room 2',
          abbreviation: 'W02',
          campus_id: -1,
          capacity: 20,
          tutor_id: people.tutor.user.id,
          tutorial_stream_abbr: null,
          unit_id: 1,
        },
      },
    });
    assert.ok(res.status < 500, `tutorial create: ${res.status}`);
    if (res.status === 400) assert.not.match(res.body.error, /campus_id|tutorial_stream_abbr/, res.body.error);
  }
});

// ---------------------------------------------------------------------------------------------
// Fuzz

/** mulberry32: a small seeded generator, so every run sends the same inputs. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

const SCALARS: unknown[] = [
  '',
  ' ',
  'abc',
  '-1',
  '0',
  '1',
  '2',
  '1.5',
  '1e309',
  '99999999999999999999999',
  'NaN',
  'null',
  'true',
  'false',
  'undefined',
  '2026-13-45',
  '2026-02-30T25:61:00Z',
  '2026-03-02',
  '2026-03-02T10:00:00.000Z',
  "'; drop table users; --",
  '../../etc/passwd',
  '\u0000',
  'ü🙂\u202e',
  '<script>alert(1)</script>',
  'x'.repeat(5000),
  -1,
  0,
  1,
  2 ** 53,
  -(2 ** 31) - 1,
  1.5,
  1e308,
  true,
  false,
  null,
  [],
  {},
];

// Mostly ids that exist (every seeded record is number 1), then everything else.
const PATH_VALUES = [
  '1',
  '1',
  '1',
  '1',
  '1',
  '1',
  '2',
  'abc',
  '-1',
  '0',
  '99999999999',
  '1.5',
  'null',
  '1e3',
  '9007199254740993',
  '%20',
  'x'.repeat(300),
  '%C3%BC%F0%9F%99%82',
  'guid-admin',
  'P1',
  'W01',
];

type KeyTree = { [key: string]: KeyTree | null };

/** The field names a procedure's input knows (nested wrappers included), read from its zod schema. */
function knownKeys(schema: unknown, depth = 0): KeyTree | null {
  const def = (schema as { _zod?: { def?: Record<string, unknown> & { type: string } } } | undefined)?._zod?.def;
  if (!def || depth > 3) return null;
  switch (def.type) {
    case 'object': {
      const tree: KeyTree = {};
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) tree[key] = knownKeys(value, depth + 1);
      return tree;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return knownKeys(def.innerType, depth);
    case 'pipe':
      return knownKeys(def.in, depth) ?? knownKeys(def.out, depth);
    case 'array':
      return knownKeys(def.element, depth);
    case 'intersection':
      return { ...(knownKeys(def.left, depth) ?? {}), ...(knownKeys(def.right, depth) ?? {}) };
    default:
      return null;
  }
}

function inputKeys(procedure: string): KeyTree {
  const def = (routerProcedures()[procedure] as { _def: { inputs?: unknown[] } } | undefined)?._def;
  const tree: KeyTree = {};
  for (const input of def?.inputs ?? []) Object.assign(tree, knownKeys(input) ?? {});
  return tree;
}

function routerProcedures(): Record<string, unknown> {
  return (appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures;
}

function randomValue(rand: () => number, keys: KeyTree | null, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const r = rand();
  if (keys && r < 0.5) return randomObject(rand, keys, depth + 1);
  if (depth < 3 && r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, null, depth + 1));
  if (depth < 3 && r < 0.7) return randomObject(rand, { a: null, b: null, '0': null }, depth + 1);
  return pick(SCALARS);
}

function randomObject(rand: () => number, keys: KeyTree, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(keys)) if (rand() < 0.75) out[key] = randomValue(rand, sub, depth);
  if (rand() < 0.3) out[`extra${Math.floor(rand() * 100)}`] = randomValue(rand, null, depth + 1);
  return out;
}

/** Multipart and form fields are flat strings with bracketed names. */
function flatten(value: unknown, prefix: string, out: Record<string, string>): void {
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) out[prefix] = '';
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}[${k}]` : k, out);
  } else {
    out[prefix] = value == null ? '' : String(value);
  }
}

function multipart(fields: Record<string, string>, withFile: boolean): { payload: Buffer; type: string } {
  const boundary = '----fuzzboundary7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '')}"\r\n\r\n${value}\r\n`));
  }
  if (withFile) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file0"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.from('%PDF-1.4 not really'),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

interface FuzzCase {
  mode: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  shown: string;
}

function fuzzCases(route: { method: string; url: string; procedure: string }, count: number): FuzzCase[] {
  const keys = inputKeys(route.procedure);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const rand = generator(hash(`${route.method} ${route.url} ${i}`));
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
    const path = route.url.replace(/:([A-Za-z_]+)/g, () => pick(PATH_VALUES));
    const data = randomObject(rand, keys);
    const queryData = route.method === 'GET' || rand() < 0.3 ? randomObject(rand, keys) : {};
    const query = Object.keys(queryData).length ? `?${qs.stringify(queryData)}` : '';
    const url = `${path}${query}`;
    const mode = route.method === 'GET' ? pick(['query', 'query', 'json']) : pick(['json', 'json', 'form', 'multipart', 'json-top', 'none']);
    const headers: Record<string, string> = {};
    let payload: string | Buffer | undefined;
    if (mode === 'json') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(data);
    } else if (mode === 'json-top') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(pick<unknown>([null, [], [data], 'text', 42, true, [[[]]]]));
    } else if (mode === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = qs.stringify(data);
    } else if (mode === 'multipart') {
      const fields: Record<string, string> = {};
      flatten(data, '', fields);
      const body = multipart(fields, rand() < 0.5);
      headers['content-type'] = body.type;
      payload = body.payload;
    }
    const shownBody = typeof payload === 'string' ? payload : payload ? `multipart ${JSON.stringify(data)}` : '';
    cases.push({ mode, url, headers, payload, shown: `${route.method} ${url.slice(0, 300)} [${mode}] ${shownBody.slice(0, 400)}` });
  }
  return cases;
}

test("the web client's known-bad calls reach their operations: POST to a period's address edits it, PUT /api/users creates", async () => {
  const admin = await signedIn(env, 'aliasadmin', 'Admin');
  const period = {
    period: 'T1',
    year: 2027,
    start_date: '2027-03-01',
    end_date: '2027-05-28',
    active_until: '2027-06-30',
  };
  const created = await api(env, 'POST', '/api/teaching_periods/', { as: admin.creds, json: { teaching_period: period } });
  assert.is(created.status, 201);
  // The edit dialog re-uses "store": the whole wrapper, with `active` and the period's units (web-client.md §3).
  const edit = { teaching_period: { ...period, period: 'T2', active: true, units: [] } };
  const edited = await api(env, 'POST', `/api/teaching_periods/${created.body.id}`, { as: admin.creds, json: edit });
  assert.is(edited.status, 200);
  assert.is(edited.body.period, 'T2');
  assert.is(edited.body.year, 2027);

  // The "Add New User" dialog: flat camelCase, no username, no password (issue 5, §6).
  const addNewUser = {
    firstName: 'Newbie',
    lastName: 'Person',
    nickname: 'Newb',
    email: 'newbie1@example.com',
    systemRole: 'Student',
    studentId: '99001',
    pronouns: '',
    optInToResearch: false,
    hasRunFirstTimeSetup: true,
  };
  const put = await api(env, 'PUT', '/api/users/', { as: admin.creds, json: addNewUser });
  assert.is(put.status, 201);
  assert.is(put.body.username, 'newbie1');
  const row = await env.orm.em.fork().findOneOrFail(User, { id: put.body.id });
  assert.equal(
    [
      row.username,
      row.email,
      row.firstName,
      row.lastName,
      row.nickname,
      row.studentId,
      row.systemRole,
      row.pronouns,
      row.optInToResearch,
      row.hasRunFirstTimeSetup,
      row.passwordHash,
    ],
    ['newbie1', 'newbie1@example.com', 'Newbie', 'Person', 'Newb', '99001', 'Student', null, false, true, null],
  );
  // The same dialog again for another person with the same local part gets the next free username.
  const again = await api(env, 'PUT', '/api/users/', { as: admin.creds, json: { ...addNewUser, email: 'newbie1@other.example.com', studentId: '99002' } });
  assert.is(again.status, 201);
  assert.is(again.body.username, 'newbie12');
});

test('an impossible day is a 400, not a database error', async () => {
  const admin = await signedIn(env, 'dayadmin', 'Admin');
  const res = await api(env, 'POST', '/api/teaching_periods', {
    as: admin.creds,
    json: { teaching_period: { period: 'T9', year: 2027, start_date: '2027-02-30', end_date: '2027-05-28', active_until: '2027-06-30' } },
  });
  assert.is(res.status, 400);
  assert.match(res.body.error, 'teaching_period[start_date]');
});

/** Every scalar of `value` as a string with a NUL byte in it. */
function withNul(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNul);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withNul(v)]));
  return `${value ?? ''}\u0000x`;
}

const OVERSIZE = 'x'.repeat(1024 * 1024 + 1); // over MAX_BODY_BYTES' default

/**
 * Input that once got 500s or was read whole: NUL bytes in every field, however sent; multipart
 * bodies without a boundary, cut off or not multipart at all; files where none are taken; and
 * bodies over the size limit.
 */
function hostileCases(route: { method: string; url: string; procedure: string }): FuzzCase[] {
  const rand = generator(hash(`hostile ${route.method} ${route.url}`));
  const url = route.url.replace(/:([A-Za-z_]+)/g, '1');
  const data = withNul({ ...randomObject(rand, inputKeys(route.procedure)), extra: 'x' }) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  flatten(data, '', fields);
  const good = multipart(fields, false);
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const mp = { 'content-type': good.type };
  const cases: Omit<FuzzCase, 'shown'>[] = [
    { mode: 'nul-json', url, headers: json, payload: JSON.stringify(data) },
    {
      mode: 'nul-key',
      url,
      headers: json,
      payload: JSON.stringify({ 'k\u0000': 1, ...Object.fromEntries(Object.keys(data).map((k) => [k, { 'k\u0000': 1 }])) }),
    },
    { mode: 'nul-form', url, headers: form, payload: qs.stringify(data) },
    { mode: 'nul-query', url: `${url}?${qs.stringify(data)}`, headers: {} },
    { mode: 'nul-multipart', url, headers: mp, payload: good.payload },
    { mode: 'multipart-no-boundary', url, headers: { 'content-type': 'multipart/form-data' }, payload: good.payload },
    { mode: 'multipart-cut', url, headers: mp, payload: good.payload.subarray(0, Math.floor(good.payload.length / 2)) },
    { mode: 'multipart-garbage', url, headers: mp, payload: 'this is not multipart' },
    { mode: 'multipart-file', url, headers: mp, payload: multipart(fields, true).payload },
    { mode: 'oversize-json', url, headers: json, payload: JSON.stringify({ ...data, extra: OVERSIZE }) },
    { mode: 'oversize-form', url, headers: form, payload: `extra=${OVERSIZE}` },
    { mode: 'oversize-multipart', url, headers: mp, payload: multipart({ extra: OVERSIZE }, false).payload },
  ];
  return cases.map((c) => ({ ...c, shown: `${route.method} ${c.url.slice(0, 200)} [${c.mode}]` }));
}

/** The request's answer, or 'hung' if none came within `ms`. */
/** Only a request that never answers fails: a busy machine may make any request slow (timings belong in npm run bench). */
const HANG_MS = 60_000;

async function bounded<T>(request: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  try {
    return await Promise.race([request, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** A full collection, so memory figures are what is held rather than what the collector has not reached yet. */
setFlagsFromString('--expose_gc');
const collectGarbage = runInNewContext('gc') as () => void;

test('fuzz: no route answers 500 or hangs, every error has an error message, and memory stays bounded', async () => {
  const routes = compatRoutes();
  assert.ok(routes.length >= 10, 'the REST routes are listed');
  const failures: string[] = [];
  const CASES = 8;
  const MiB = 1024 * 1024;
  collectGarbage();
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  let slowest = 0;
  let requests = 0;
  // Reads first, on one shared world; every write then starts from a fresh one (a reset costs
  // more than all of a route's requests together).
  const ordered = [...routes.filter((r) => r.method === 'GET'), ...routes.filter((r) => r.method !== 'GET')];
  let fresh = false;
  for (const route of ordered) {
    // The peak should show what a route holds (a body buffered whole), not how late the collector
    // runs: garbage from earlier routes is collected before each route.
    collectGarbage();
    if (!fresh || route.method !== 'GET') {
      await resetDatabase(env);
      people = await everyone(env);
      await seedWorld();
      fresh = true;
    }
    for (const fuzz of [...fuzzCases(route, CASES), ...hostileCases(route)]) {
      // Each request is made by a signed-in admin, whatever the previous one did to the account.
      const em = env.orm.em.fork();
      await em.nativeUpdate(User, { id: people.admin.user.id }, { systemRole: 'Admin', username: 'aadmin' });
      const admin = await em.findOneOrFail(User, { id: people.admin.user.id });
      const token = await issueToken(em, admin, env.clock.now(), false);
      const started = performance.now();
      const res = await bounded(
        env.app.inject({
          method: route.method as never,
          url: fuzz.url,
          headers: { ...fuzz.headers, Username: 'aadmin', 'Auth-Token': token },
          payload: fuzz.payload,
        }),
        HANG_MS,
      );
      slowest = Math.max(slowest, performance.now() - started);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      requests++;
      if (res === 'hung') {
        failures.push(`no answer within ${HANG_MS / 1000} s ${route.procedure}: ${fuzz.shown}`);
        continue;
      }
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        body = undefined;
      }
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${route.procedure}: ${fuzz.shown} -> ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400 && !hasError(body))
        failures.push(`${res.statusCode} without error ${route.procedure}: ${fuzz.shown} -> ${res.body.slice(0, 200)}`);
    }
  }
  console.log(
    `\n  fuzz: ${requests} requests, slowest ${Math.round(slowest)} ms, RSS ${(startRss / MiB).toFixed(0)} MiB at the start, ` +
      `peak ${(peakRss / MiB).toFixed(0)} MiB`,
  );
  assert.equal(failures, [], `\n${failures.slice(0, 30).join('\n')}\n`);
  // The test's own payloads are at most a few MiB; the server buffers none beyond MAX_BODY_BYTES.
  assert.ok(peakRss - startRss < 256 * MiB, `RSS grew by ${((peakRss - startRss) / MiB).toFixed(0)} MiB during the fuzz`);
});

test('fuzz: odd credentials never answer 500', async () => {
  const token = people.admin.creds.token;
  const failures: string[] = [];
  const variants: Record<string, string>[] = [
    { Username: '', 'Auth-Token': '' },
    { Username: 'aadmin', 'Auth-Token': 'x'.repeat(10_000) },
    { Username: 'x'.repeat(10_000), 'Auth-Token': token },
    { Username: "aadmin' or '1'='1", 'Auth-Token': "' or '1'='1" },
    { Username: 'AADMIN', Auth_Token: token },
    { Username: 'aadmin', 'Auth-Token': `${token} ` },
  ];
  const queries = [
    '?Username[]=aadmin&Auth-Token[]=x',
    '?Username[a]=aadmin&Auth-Token[b]=x',
    `?Username=aadmin&Auth-Token=${encodeURIComponent(token)}&Auth-Token[x]=1`,
    '?username=&auth_token=',
  ];
  for (const route of compatRoutes()) {
    const url = route.url.replace(/:([A-Za-z_]+)/g, '1');
    for (const headers of variants) {
      const res = await env.app.inject({ method: route.method as never, url, headers });
      if (res.statusCode >= 500 || (res.statusCode >= 400 && !res.body.includes('"error"')))
        failures.push(`${res.statusCode} ${route.method} ${url} ${JSON.stringify(headers).slice(0, 100)}`);
    }
    for (const query of queries) {
      const res = await env.app.inject({ method: route.method as never, url: url + query });
      if (res.statusCode >= 500 || (res.statusCode >= 400 && !res.body.includes('"error"'))) failures.push(`${res.statusCode} ${route.method} ${url}${query}`);
    }
  }
  assert.equal(failures, [], `\n${failures.slice(0, 30).join('\n')}\n`);
});

test.run();
