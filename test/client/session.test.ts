// The client package's session handling, in process against a listening app: one renewal and
// retry when a session expires (419), through tRPC and the REST helper, and errors as
// CourseServiceError. test/client/package.test.ts runs the packed package as a consumer would.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EventSource } from 'eventsource';
import { CourseServiceError, createCourseClient, signIn } from '../../src/client/index.ts';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import { PASSWORD, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('client package: sessions, renewal and errors');
let env: TestEnv;
let people: People;
let baseUrl: string;

test.before(async () => {
  env = await testEnv();
  baseUrl = await listeningBaseUrl(env);
});

freshEachTest(test, (world) => ({ env, people } = world));

const THREE_HOURS = 3 * 3600_000;

test('a client made by signIn signs in again once when its session expires, and retries the call', async () => {
  const w = await taskWorld(env, people);
  const client = await signIn(baseUrl, { username: people.convenor.user.username, password: PASSWORD }, { EventSource });
  const first = client.$session.authToken;
  assert.equal(
    (await client.units.list.query({})).map((u) => u.id),
    [w.unit],
  );
  env.clock.advance(THREE_HOURS); // tokens last two hours
  assert.equal(
    (await client.units.list.query({})).map((u) => u.id),
    [w.unit],
  );
  const second = client.$session.authToken;
  assert.is.not(second, first, 'signed in again');
  env.clock.advance(THREE_HOURS);
  const viaRest = await client.$rest.GET('/api/units/{id}', { params: { path: { id: w.unit } } });
  assert.is(viaRest.response.status, 200);
  assert.is(viaRest.data?.id, w.unit);
  assert.is.not(client.$session.authToken, second, 'the REST helper signs in again too');
});

test('without a password a 419 is thrown as a CourseServiceError; other failures carry their status and message', async () => {
  await taskWorld(env, people);
  const client = createCourseClient({ baseUrl, ...credsOf(people.convenor) });
  env.clock.advance(THREE_HOURS);
  const expired = await client.units.list.query({}).catch((e: unknown) => e);
  assert.instance(expired, CourseServiceError);
  assert.is((expired as CourseServiceError).status, 419);
  assert.ok((expired as CourseServiceError).sessionExpired);
  const rest = await client.$rest.GET('/api/units');
  assert.is(rest.response.status, 419);
  assert.type(rest.error?.error, 'string');

  const student = createCourseClient({ baseUrl, username: people.student.user.username, authToken: 'not a token' });
  const refused = await student.units.list.query({}).catch((e: unknown) => e);
  assert.is((refused as CourseServiceError).status, 419);
  const wrong = await signIn(baseUrl, { username: people.student.user.username, password: 'wrong' }).catch((e: unknown) => e);
  assert.instance(wrong, CourseServiceError);
  assert.is((wrong as CourseServiceError).status, 401);
  assert.type((wrong as CourseServiceError).error, 'string');
});

test('a refused call is a CourseServiceError with the REST status and the message; tRPC data stays', async () => {
  await taskWorld(env, people);
  const student = await signIn(baseUrl, { username: people.student.user.username, password: PASSWORD });
  const refused = await student.units.list.query({}).catch((e: unknown) => e);
  assert.instance(refused, CourseServiceError);
  assert.is((refused as CourseServiceError).status, 403);
  assert.is((refused as CourseServiceError).error, 'Unable to list units');
  assert.is((refused as CourseServiceError).data?.code, 'FORBIDDEN');
});

const credsOf = (actor: People['convenor']) => ({ username: actor.creds.username, authToken: actor.creds.token });

test.run();
