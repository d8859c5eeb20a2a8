import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OverseerImage, TaskDefinition } from '../../schema/index.ts';
import { isImageReference } from '../../src/routers/admin/overseer_images/schemas.ts';
import { TEST_NOW, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { seedUnit } from '../support/seed.ts';

const test = suite('REST /api/admin/overseer_images');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const URL = '/api/admin/overseer_images';
const KEYS = ['id', 'last_pulled_date', 'name', 'pulled_image_status', 'pulled_image_text', 'status', 'tag'];
const python = { name: 'Python 3', tag: 'lmsdoubtfire/overseer-python3:latest' };
const DISABLED = 'Overseer is not enabled. Enable Overseer before updating settings.';

async function insertImage(
  fields: Partial<{ name: string; tag: string; pullStatus: 'pending' | 'pulled' | 'failed'; pullOutput: string; lastPulledAt: Date }> = {},
) {
  const em = env.orm.em.fork();
  const image = em.create(OverseerImage, { name: 'C++', tag: 'lmsdoubtfire/overseer-cpp:1.2', ...fields });
  await em.flush();
  return image;
}

async function rows() {
  return (await env.orm.em.fork().find(OverseerImage, {}, { orderBy: { id: 'asc' } })).map((i) => ({
    name: i.name,
    tag: i.tag,
    pullStatus: i.pullStatus ?? null,
    pullOutput: i.pullOutput ?? null,
  }));
}

async function jobCount(): Promise<number> {
  const [row] = await env.orm.em.fork().execute<{ n: string }[]>('select count(*) as n from graphile_worker._private_jobs');
  return Number(row.n);
}

test('an admin adds an image from a form body; it starts never pulled', async () => {
  const res = await api(env, 'POST', URL, { as: people.admin.creds, form: { overseer_image: python } });
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), KEYS);
  assert.equal(res.body, {
    id: res.body.id,
    ...python,
    status: null,
    pulled_image_status: null,
    pulled_image_text: null,
    last_pulled_date: null,
  });
  assert.type(res.body.id, 'number');
  assert.equal(await rows(), [{ ...python, pullStatus: null, pullOutput: null }]);
});

test('the web client adds an image with a JSON wrapper, its Auth-Token header and a trailing slash', async () => {
  const res = await api(env, 'POST', `${URL}/`, {
    as: people.admin.creds,
    hyphenHeader: true,
    json: { overseer_image: { name: 'Java', tag: 'ghcr.io/school/overseer/java:21' } },
  });
  assert.is(res.status, 201);
  assert.equal([res.body.name, res.body.tag, res.body.status], ['Java', 'ghcr.io/school/overseer/java:21', null]);
});

test('admins and convenors list images ordered by id with their pull state', async () => {
  const pulled = await insertImage({
    name: 'Pulled',
    tag: 'registry.example.edu:5000/overseer/pulled:3',
    pullStatus: 'pulled',
    pullOutput: 'Status: Downloaded newer image',
    lastPulledAt: new Date('2026-02-01T10:00:00.000Z'),
  });
  const failed = await insertImage({ name: 'Failed', tag: 'overseer/failed', pullStatus: 'failed', pullOutput: 'pull access denied' });
  const pending = await insertImage({ name: 'Pending', tag: 'overseer/pending', pullStatus: 'pending' });
  const fresh = await insertImage({ name: 'Fresh', tag: 'overseer/fresh' });
  const expected = [
    {
      id: pulled.id,
      name: 'Pulled',
      tag: 'registry.example.edu:5000/overseer/pulled:3',
      status: 'pulled',
      pulled_image_status: 'success',
      pulled_image_text: 'Status: Downloaded newer image',
      last_pulled_date: '2026-02-01T10:00:00.000Z',
    },
    {
      id: failed.id,
      name: 'Failed',
      tag: 'overseer/failed',
      status: 'failed',
      pulled_image_status: 'failed',
      pulled_image_text: 'pull access denied',
      last_pulled_date: null,
    },
    {
      id: pending.id,
      name: 'Pending',
      tag: 'overseer/pending',
      status: 'pending',
      pulled_image_status: 'pending',
      pulled_image_text: null,
      last_pulled_date: null,
    },
    { id: fresh.id, name: 'Fresh', tag: 'overseer/fresh', status: null, pulled_image_status: null, pulled_image_text: null, last_pulled_date: null },
  ];
  for (const who of [people.admin, people.convenor]) {
    const res = await api(env, 'GET', `${URL}/`, { as: who.creds, hyphenHeader: true });
    assert.is(res.status, 200);
    assert.equal(res.body, expected);
  }
});

test('tutors and students may not list images; without credentials it is 419', async () => {
  await insertImage();
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'GET', URL, { as: who.creds });
    assert.is(res.status, 403);
    assert.is(res.body.error, 'Not authorised to get overseer images');
  }
  const anonymous = await api(env, 'GET', URL);
  assert.is(anonymous.status, 419);
  assert.type(anonymous.body.error, 'string');
});

test('while Overseer is disabled the list is empty and adding, changing and pulling are refused', async () => {
  const image = await insertImage();
  env.config.overseerEnabled = false;
  for (const who of [people.admin, people.convenor]) {
    const list = await api(env, 'GET', URL, { as: who.creds });
    assert.is(list.status, 200);
    assert.equal(list.body, []);
  }
  // Permission is checked first: a student still hears 403 for the list.
  assert.is((await api(env, 'GET', URL, { as: people.student.creds })).status, 403);
  const post = await api(env, 'POST', URL, { as: people.admin.creds, json: { overseer_image: python } });
  assert.equal([post.status, post.body.error], [403, DISABLED]);
  const put = await api(env, 'PUT', `${URL}/${image.id}`, { as: people.admin.creds, json: { overseer_image: { name: 'Renamed' } } });
  assert.equal([put.status, put.body.error], [403, DISABLED]);
  const pull = await api(env, 'PUT', `${URL}/${image.id}/pull_image`, { as: people.admin.creds });
  assert.equal([pull.status, pull.body.error], [403, DISABLED]);
  assert.equal(await rows(), [{ name: 'C++', tag: 'lmsdoubtfire/overseer-cpp:1.2', pullStatus: null, pullOutput: null }]);
  assert.is(await jobCount(), 0);
  // Removing an unused image is housekeeping and stays possible, as in the original.
  const del = await api(env, 'DELETE', `${URL}/${image.id}`, { as: people.admin.creds });
  assert.is(del.status, 204);
  assert.equal(await rows(), []);
});

test('convenors, tutors and students may not add, change, delete or pull images', async () => {
  const image = await insertImage();
  const messages: Record<string, string> = {
    POST: 'Not authorised to create overseer images',
    PUT: 'Not authorised to update an overseer image',
    DELETE: 'Not authorised to delete an overseer image',
    PULL: 'Not authorised to pull an overseer image',
  };
  for (const who of [people.convenor, people.tutor, people.student]) {
    const post = await api(env, 'POST', URL, { as: who.creds, json: { overseer_image: python } });
    assert.equal([post.status, post.body.error], [403, messages.POST]);
    const put = await api(env, 'PUT', `${URL}/${image.id}`, { as: who.creds, form: { overseer_image: { name: 'Changed' } } });
    assert.equal([put.status, put.body.error], [403, messages.PUT]);
    const del = await api(env, 'DELETE', `${URL}/${image.id}`, { as: who.creds });
    assert.equal([del.status, del.body.error], [403, messages.DELETE]);
    const pull = await api(env, 'PUT', `${URL}/${image.id}/pull_image`, { as: who.creds });
    assert.equal([pull.status, pull.body.error], [403, messages.PULL]);
  }
  assert.equal(await rows(), [{ name: 'C++', tag: 'lmsdoubtfire/overseer-cpp:1.2', pullStatus: null, pullOutput: null }]);
  assert.is(await jobCount(), 0);
});

test('every write without valid credentials gets 419 and changes nothing', async () => {
  const image = await insertImage();
  const badToken = { ...people.admin.creds, token: 'nope' };
  for (const as of [undefined, badToken]) {
    assert.is((await api(env, 'POST', URL, { as, json: { overseer_image: python } })).status, 419);
    assert.is((await api(env, 'PUT', `${URL}/${image.id}`, { as, json: { overseer_image: { name: 'x' } } })).status, 419);
    assert.is((await api(env, 'DELETE', `${URL}/${image.id}`, { as })).status, 419);
    assert.is((await api(env, 'PUT', `${URL}/${image.id}/pull_image`, { as })).status, 419);
  }
  assert.is((await rows()).length, 1);
  assert.is(await jobCount(), 0);
});

test('missing, blank and ill-typed fields get 400 naming the field, and nothing is written', async () => {
  const cases: [unknown, string][] = [
    [{}, 'overseer_image is missing'],
    [{ overseer_image: { name: 'Python' } }, 'overseer_image[tag] is missing'],
    [{ overseer_image: { tag: 'python' } }, 'overseer_image[name] is missing'],
    [{ overseer_image: { name: '  ', tag: 'python' } }, 'overseer_image[name] is empty'],
    [{ overseer_image: { name: 'Python', tag: '' } }, 'overseer_image[tag] is empty'],
    [{ overseer_image: { name: 'Python', tag: ['python'] } }, 'overseer_image[tag] is invalid'],
    [{ overseer_image: { name: { first: 'x' }, tag: 'python' } }, 'overseer_image[name] is invalid'],
    [{ overseer_image: { name: 'x'.repeat(256), tag: 'python' } }, 'overseer_image[name] is invalid'],
    [{ overseer_image: 'python' }, 'overseer_image is invalid'],
  ];
  for (const [json, message] of cases) {
    const res = await api(env, 'POST', URL, { as: people.admin.creds, json });
    assert.is(res.status, 400, JSON.stringify(json));
    assert.match(res.body.error, message);
  }
  const form = await api(env, 'POST', URL, { as: people.admin.creds, form: { overseer_image: { name: 'Python' } } });
  assert.equal([form.status, form.body.error], [400, 'overseer_image[tag] is missing']);
  assert.equal(await rows(), []);
});

test('a tag that is not a container image reference is refused with 400', async () => {
  const bad = ['Python3', 'my image', 'python:', 'python::3', '/python', 'python/', 'a//b', 'repo:tag:more', 'repo@sha256:abc', 'x'.repeat(256), 'repo:-bad'];
  for (const [i, tag] of bad.entries()) {
    const res = await api(env, 'POST', URL, { as: people.admin.creds, json: { overseer_image: { name: `Image ${i}`, tag } } });
    assert.is(res.status, 400, tag);
    assert.is(res.body.error, 'overseer_image[tag] is invalid', tag);
  }
  const image = await insertImage();
  const put = await api(env, 'PUT', `${URL}/${image.id}`, { as: people.admin.creds, json: { overseer_image: { tag: 'school/Overseer' } } });
  assert.equal([put.status, put.body.error], [400, 'overseer_image[tag] is invalid']);
  assert.is((await rows()).length, 1);
});

test('image references follow [registry[:port]/]repo[/path][:tag][@digest]', () => {
  const digest = `sha256:${'a1'.repeat(32)}`;
  for (const good of [
    'python',
    'python:3.12-slim',
    'lmsdoubtfire/overseer-python3:latest',
    'ghcr.io/school/overseer/java:21',
    'localhost:5000/overseer/python',
    'Registry.Example.edu:443/a/b/c:v1.0_rc',
    `python@${digest}`,
    `docker.io/library/python:3@${digest}`,
    'my_org/my__img/with-dashes--x.y',
  ]) {
    assert.ok(isImageReference(good), good);
  }
  for (const bad of [
    '',
    'Python',
    'py thon',
    'python:',
    ':tag',
    'a/',
    '-python',
    'python_',
    'py..thon',
    'host:port/img',
    `python@${digest.slice(0, 20)}`,
    'a:b:c',
  ]) {
    assert.not.ok(isImageReference(bad), bad);
  }
});

test('a duplicate name or tag is a 400 validation error, not a 500', async () => {
  await api(env, 'POST', URL, { as: people.admin.creds, json: { overseer_image: python } });
  const sameName = await api(env, 'POST', URL, { as: people.admin.creds, json: { overseer_image: { ...python, tag: 'other/image' } } });
  assert.equal([sameName.status, sameName.body.error], [400, 'Validation failed: Name has already been taken']);
  const sameTag = await api(env, 'POST', URL, { as: people.admin.creds, json: { overseer_image: { ...python, name: 'Other' } } });
  assert.equal([sameTag.status, sameTag.body.error], [400, 'Validation failed: Tag has already been taken']);
  const other = await insertImage();
  const put = await api(env, 'PUT', `${URL}/${other.id}`, { as: people.admin.creds, json: { overseer_image: { tag: python.tag } } });
  assert.equal([put.status, put.body.error], [400, 'Validation failed: Tag has already been taken']);
  assert.is((await rows()).length, 2);
});

test('an admin renames an image and keeps its pull result; changing the tag clears it', async () => {
  const image = await insertImage({
    pullStatus: 'pulled',
    pullOutput: 'Status: Downloaded newer image',
    lastPulledAt: new Date('2026-02-01T10:00:00.000Z'),
  });
  // The web client sends only what changed, and may echo read-only keys: those are ignored.
  const rename = await api(env, 'PUT', `${URL}/${image.id}`, {
    as: people.admin.creds,
    hyphenHeader: true,
    json: { overseer_image: { name: 'C++ 20', pulled_image_status: 'failed', last_pulled_date: null } },
  });
  assert.is(rename.status, 200);
  assert.equal(rename.body, {
    id: image.id,
    name: 'C++ 20',
    tag: 'lmsdoubtfire/overseer-cpp:1.2',
    status: 'pulled',
    pulled_image_status: 'success',
    pulled_image_text: 'Status: Downloaded newer image',
    last_pulled_date: '2026-02-01T10:00:00.000Z',
  });
  const empty = await api(env, 'PUT', `${URL}/${image.id}`, { as: people.admin.creds, json: { overseer_image: {} } });
  assert.equal([empty.status, empty.body], [200, rename.body]);
  const sameTag = await api(env, 'PUT', `${URL}/${image.id}`, { as: people.admin.creds, form: { overseer_image: { tag: 'lmsdoubtfire/overseer-cpp:1.2' } } });
  assert.equal([sameTag.status, sameTag.body.status], [200, 'pulled']);
  const retag = await api(env, 'PUT', `${URL}/${image.id}`, { as: people.admin.creds, form: { overseer_image: { tag: 'lmsdoubtfire/overseer-cpp:2.0' } } });
  assert.is(retag.status, 200);
  assert.equal(retag.body, {
    id: image.id,
    name: 'C++ 20',
    tag: 'lmsdoubtfire/overseer-cpp:2.0',
    status: null,
    pulled_image_status: null,
    pulled_image_text: null,
    last_pulled_date: null,
  });
  const stored = await env.orm.em.fork().findOneOrFail(OverseerImage, { id: image.id });
  assert.equal([stored.name, stored.tag, stored.pullStatus, stored.lastPulledAt ?? null], ['C++ 20', 'lmsdoubtfire/overseer-cpp:2.0', null, null]);
});

test('an admin deletes an unused image with 204 and an empty body', async () => {
  const keep = await insertImage({ name: 'Keep', tag: 'keep/me' });
  const image = await insertImage();
  const del = await api(env, 'DELETE', `${URL}/${image.id}`, { as: people.admin.creds, hyphenHeader: true });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  assert.equal(
    (await rows()).map((r) => r.name),
    [keep.name],
  );
});

test('an image that a unit or a task definition uses cannot be deleted', async () => {
  const forUnit = await insertImage({ name: 'Unit image', tag: 'unit/image' });
  const forTask = await insertImage({ name: 'Task image', tag: 'task/image' });
  const unit = await seedUnit(env, { code: 'SIT101', overseerImage: forUnit.id });
  const em = env.orm.em.fork();
  em.create(TaskDefinition, {
    unit,
    name: 'Pass task 1',
    abbreviation: 'P1',
    description: 'First task',
    startDate: '2026-03-02',
    targetDate: '2026-03-09',
    overseerImage: forTask.id,
  } as never);
  await em.flush();
  for (const image of [forUnit, forTask]) {
    const res = await api(env, 'DELETE', `${URL}/${image.id}`, { as: people.admin.creds });
    assert.equal([res.status, res.body.error], [403, 'Cannot delete overseer image with associated units and/or task definitions']);
  }
  assert.is((await rows()).length, 2);
});

test('pulling marks the image pending, stamps the request time and queues one job per image', async () => {
  const image = await insertImage({ pullStatus: 'failed', pullOutput: 'earlier failure' });
  const res = await api(env, 'PUT', `${URL}/${image.id}/pull_image`, { as: people.admin.creds, hyphenHeader: true, json: { id: image.id } });
  assert.is(res.status, 200);
  assert.equal(res.body, {
    id: image.id,
    name: 'C++',
    tag: 'lmsdoubtfire/overseer-cpp:1.2',
    status: 'pending',
    pulled_image_status: 'pending',
    pulled_image_text: 'earlier failure',
    last_pulled_date: null,
  });
  const stored = await env.orm.em.fork().findOneOrFail(OverseerImage, { id: image.id });
  assert.equal([stored.pullStatus, stored.pullRequestedAt?.toISOString()], ['pending', TEST_NOW.toISOString()]);
  // Asking again before the worker ran replaces the queued job instead of adding a second.
  const again = await api(env, 'PUT', `${URL}/${image.id}/pull_image`, { as: people.admin.creds });
  assert.is(again.status, 200);
  const jobs = await env.orm.em
    .fork()
    .execute<{ task_identifier: string; payload: unknown; key: string }[]>(
      "select t.identifier as task_identifier, j.payload::jsonb - '_requestId' as payload, j.key from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id",
    );
  assert.equal(jobs, [{ task_identifier: 'pull_overseer_image', payload: { imageId: image.id }, key: `pull_overseer_image:${image.id}` }]);
});

test('unknown ids get 404 and non-numeric ids get 400 on every operation', async () => {
  const notFound = 'Unable to find requested Overseer Image';
  const put = await api(env, 'PUT', `${URL}/999`, { as: people.admin.creds, json: { overseer_image: { name: 'x' } } });
  assert.equal([put.status, put.body.error], [404, notFound]);
  const del = await api(env, 'DELETE', `${URL}/999`, { as: people.admin.creds });
  assert.equal([del.status, del.body.error], [404, notFound]);
  const pull = await api(env, 'PUT', `${URL}/999/pull_image`, { as: people.admin.creds });
  assert.equal([pull.status, pull.body.error], [404, notFound]);
  assert.is((await api(env, 'PUT', `${URL}/abc`, { as: people.admin.creds, json: { overseer_image: { name: 'x' } } })).status, 400);
  assert.is((await api(env, 'DELETE', `${URL}/abc`, { as: people.admin.creds })).status, 400);
  assert.is((await api(env, 'PUT', `${URL}/abc/pull_image`, { as: people.admin.creds })).status, 400);
  assert.is((await api(env, 'PUT', `${URL}/0/pull_image`, { as: people.admin.creds })).status, 400);
  assert.is(await jobCount(), 0);
});

test.run();
