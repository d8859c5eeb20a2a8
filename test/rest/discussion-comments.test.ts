import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { Credentials } from '../support/http.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { samplePng } from '../support/sample-files.ts';
import { sampleWav } from '../support/sample-audio.ts';
import { anotherStudent, taskWorld, type TaskWorld } from '../support/task-world.ts';
import { db } from '../../src/db/kysely.ts';
import { readAll, storageKeys } from '../../src/storage/index.ts';

const test = suite("REST discussion comments: audio prompts, the student's reply, ranges and permissions");
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const tasksPath = (w: TaskWorld) => `/api/projects/${w.project}/task_def_id/${w.td}`;
const discussionPath = (w: TaskWorld, id: number) => `${tasksPath(w)}/comments/${id}/discussion_comment`;

/** A multipart body with repeated file fields, as the web client sends `attachments[]`. */
function filesBody(files: [string, Buffer][]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----disc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, data] of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="blob"\r\nContent-Type: audio/webm\r\n\r\n`),
      data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function post(url: string, as: Credentials, files: [string, Buffer][], extraHeaders: Record<string, string> = {}) {
  const { payload, headers } = filesBody(files);
  const res = await env.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...extraHeaders, Username: as.username, 'Auth-Token': as.token } });
  return { status: res.statusCode, body: res.body === '' ? undefined : JSON.parse(res.body), raw: res };
}

const createDiscussion = (w: TaskWorld, as: Credentials, files: [string, Buffer][]) => post(`${tasksPath(w)}/discussion_comments`, as, files);
const row = (id: number) => db(env.orm.em.fork()).selectFrom('task_comments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const get = (url: string, as: Credentials, headers: Record<string, string> = {}) =>
  env.app.inject({ method: 'GET', url, headers: { ...headers, Username: as.username, 'Auth-Token': as.token } });

test('staff post prompts as `attachments[]`; the student plays one (started), replies (complete) and staff hear the reply', async () => {
  const w = await taskWorld(env, people);
  const first = sampleWav(1000);
  const second = sampleWav(1200);
  const made = await createDiscussion(w, people.tutor.creds, [
    ['attachments[]', first],
    ['attachments[]', second],
  ]);
  assert.is(made.status, 201);
  assert.equal([made.body.type, made.body.status, made.body.number_of_prompts, made.body.is_new], ['discussion', 'not started', 2, false]);
  assert.is(made.body.time_discussion_started, null);
  assert.is(made.body.time_discussion_complete, null);
  assert.is((await row(made.body.id)).recipient_id, people.student.user.id);
  assert.equal(await readAll(env.services.storage, storageKeys.discussionPrompt(made.body.id, 2), Infinity), second);

  // Listing leaves a discussion unread for the student until they reply.
  for (let i = 0; i < 2; i++) {
    const listed = await api(env, 'GET', `${tasksPath(w)}/comments`, { as: people.student.creds });
    assert.is(listed.body.find((c: { id: number }) => c.id === made.body.id).is_new, true);
  }

  const prompt = await get(`${discussionPath(w, made.body.id)}/prompt_number/2`, people.student.creds);
  assert.is(prompt.statusCode, 200);
  assert.is(prompt.headers['content-type'], 'audio/wav');
  assert.equal(prompt.rawPayload, second);
  const started = (await row(made.body.id)).discussion_started_at;
  assert.ok(started);
  await get(`${discussionPath(w, made.body.id)}/prompt_number/1`, people.student.creds);
  assert.equal((await row(made.body.id)).discussion_started_at, started, 'only the first play starts it');
  assert.is((await get(`${discussionPath(w, made.body.id)}/prompt_number/3`, people.student.creds)).statusCode, 404);

  const none = await get(`${discussionPath(w, made.body.id)}/response`, people.tutor.creds);
  assert.equal([none.statusCode, JSON.parse(none.body)], [404, { error: 'File missing' }]);

  const reply = sampleWav(900);
  const replied = await post(`${discussionPath(w, made.body.id)}/reply`, people.student.creds, [['attachment', reply]]);
  assert.equal([replied.status, replied.raw.body], [201, 'null']);
  assert.ok((await row(made.body.id)).discussion_completed_at);
  const listed = await api(env, 'GET', `${tasksPath(w)}/comments`, { as: people.student.creds });
  const after = listed.body.find((c: { id: number }) => c.id === made.body.id);
  assert.equal([after.status, after.is_new, typeof after.time_discussion_complete], ['complete', false, 'string']);

  const heard = await get(`${discussionPath(w, made.body.id)}/response`, people.tutor.creds);
  assert.is(heard.statusCode, 200);
  assert.equal(heard.rawPayload, reply);
});

test('prompts and replies are served with byte ranges (206)', async () => {
  const w = await taskWorld(env, people);
  const wav = sampleWav(1000);
  // A form that repeats a plain `attachments` field works as well as `attachments[]`.
  const made = await createDiscussion(w, people.tutor.creds, [
    ['attachments', wav],
    ['attachments', sampleWav(10)],
  ]);
  assert.equal([made.status, made.body.number_of_prompts], [201, 2]);
  const part = await get(`${discussionPath(w, made.body.id)}/prompt_number/1`, people.student.creds, { Range: 'bytes=10-19' });
  assert.is(part.statusCode, 206);
  assert.is(part.headers['content-range'], `bytes 10-19/${wav.length}`);
  assert.equal(part.rawPayload, wav.subarray(10, 20));
  await post(`${discussionPath(w, made.body.id)}/reply`, people.student.creds, [['attachment', wav]]);
  const tail = await get(`${discussionPath(w, made.body.id)}/response`, people.tutor.creds, { Range: 'bytes=2000-' });
  assert.is(tail.statusCode, 206);
  assert.equal(tail.rawPayload, wav.subarray(2000));
});

test('roles: a student cannot post a discussion, staff cannot reply, another student cannot play or reply', async () => {
  const w = await taskWorld(env, people);
  const wav = sampleWav();
  const refused = await createDiscussion(w, people.student.creds, [['attachments[]', wav]]);
  assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to create a discussion comment' }]);
  const made = await createDiscussion(w, people.tutor.creds, [['attachments[]', wav]]);
  const staffReply = await post(`${discussionPath(w, made.body.id)}/reply`, people.tutor.creds, [['attachment', wav]]);
  assert.equal([staffReply.status, staffReply.body], [403, { error: 'Not authorised to reply to this discussion comment' }]);
  const other = await anotherStudent(env, w, 'otherstudent');
  assert.is((await get(`${discussionPath(w, made.body.id)}/prompt_number/1`, other.actor.creds)).statusCode, 403);
  assert.is((await post(`${discussionPath(w, made.body.id)}/reply`, other.actor.creds, [['attachment', wav]])).status, 403);
  assert.is((await row(made.body.id)).discussion_started_at, null);
  assert.is((await row(made.body.id)).discussion_completed_at, null);
});

test('bad input: a non-audio file is 403, an empty one 400, none 400; nothing is kept', async () => {
  const w = await taskWorld(env, people);
  const png = await createDiscussion(w, people.tutor.creds, [
    ['attachments[]', sampleWav()],
    ['attachments[]', samplePng()],
  ]);
  assert.equal([png.status, png.body], [403, { error: 'Please upload only audio files' }]);
  const empty = await createDiscussion(w, people.tutor.creds, [['attachments[]', Buffer.alloc(0)]]);
  assert.equal([empty.status, empty.body], [400, { error: 'Attachment is empty.' }]);
  assert.is((await createDiscussion(w, people.tutor.creds, [])).status, 400);
  assert.equal(await db(env.orm.em.fork()).selectFrom('task_comments').select('id').execute(), []);

  const made = await createDiscussion(w, people.tutor.creds, [['attachments[]', sampleWav()]]);
  const notAudio = await post(`${discussionPath(w, made.body.id)}/reply`, people.student.creds, [['attachment', samplePng()]]);
  assert.equal([notAudio.status, notAudio.body], [403, { error: 'Please upload only audio files' }]);
  assert.is((await row(made.body.id)).discussion_completed_at, null);
  const text = await api(env, 'POST', `${tasksPath(w)}/comments`, { as: people.student.creds, multipart: { comment: 'Hello' } });
  assert.is((await get(`${tasksPath(w)}/comments/${text.body.id}/discussion_comment/response`, people.tutor.creds)).statusCode, 404);
});

test.run();
