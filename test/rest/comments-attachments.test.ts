import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { sampleGif, samplePdf, samplePng } from '../support/sample-files.ts';
import { sampleWav } from '../support/sample-audio.ts';
import { taskWorld } from '../support/task-world.ts';
import { db } from '../../src/db/kysely.ts';
import { readAll, storageKeys } from '../../src/storage/index.ts';

const test = suite('REST comment attachments: kinds by content, storage, download with ranges');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const base = (w: { project: number; td: number }) => `/api/projects/${w.project}/task_def_id/${w.td}/comments`;
const attach = (w: { project: number; td: number }, filename: string, contentType: string, data: Buffer, extra: Record<string, string> = {}) =>
  api(env, 'POST', base(w), { as: people.student.creds, multipart: { ...extra, attachment: { filename, contentType, data } } });
const commentRows = () =>
  db(env.orm.em.fork()).selectFrom('task_comments').select(['id', 'kind', 'comment', 'attachment_path', 'attachment_content_type']).execute();
const storedComments = () => {
  const dir = join(env.config.storageRoot, 'comments');
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
};

test('a PNG, a GIF, a PDF and a WAV become image, image, pdf and audio comments with their fixed texts, stored as uploaded', async () => {
  const w = await taskWorld(env, people);
  const cases: [string, string, Buffer, string, string, string][] = [
    // name and claimed type are ignored: the bytes decide
    ['photo.jpg', 'application/octet-stream', samplePng(), 'image', 'image comment', 'image/png'],
    ['anim.gif', 'image/gif', sampleGif(), 'image', 'image comment', 'image/gif'],
    ['notes.bin', 'text/plain', samplePdf('Notes'), 'pdf', 'pdf document', 'application/pdf'],
    ['voice.webm', 'audio/webm', sampleWav(), 'audio', 'audio comment', 'audio/wav'],
  ];
  for (const [name, claimed, data, type, text, mime] of cases) {
    const res = await attach(w, name, claimed, data);
    assert.is(res.status, 201, name);
    assert.equal([res.body.type, res.body.comment, res.body.has_attachment, res.body.is_new], [type, text, true, false], name);
    const row = (await commentRows()).find((r) => r.id === res.body.id)!;
    assert.is(row.attachment_content_type, mime);
    assert.equal(await readAll(env.services.storage, row.attachment_path!, Infinity), data, name);
    const download = await api(env, 'GET', `${base(w)}/${res.body.id}`, { as: people.tutor.creds });
    assert.is(download.status, 200);
    assert.is(download.headers['content-type'], mime);
    assert.is(download.headers['accept-ranges'], 'bytes');
    assert.is(download.headers['content-length'], String(data.length));
  }
  assert.is(storedComments().length, 4);
});

test('anything else is refused with 403, an empty file with 400, and neither leaves a comment or a file', async () => {
  const w = await taskWorld(env, people);
  const text = await attach(w, 'photo.png', 'image/png', Buffer.from('just some text pretending to be a picture\n'));
  assert.equal([text.status, text.body], [403, { error: 'Please upload only images, audio or PDF documents' }]);
  const zip = await attach(w, 'a.pdf', 'application/pdf', Buffer.from('PK\u0003\u0004not really'));
  assert.is(zip.status, 403);
  // A PDF cut off before its end marker is not a whole PDF.
  const cut = await attach(w, 'cut.pdf', 'application/pdf', samplePdf('Cut').subarray(0, 200));
  assert.is(cut.status, 403);
  const empty = await attach(w, 'empty.png', 'image/png', Buffer.alloc(0), { comment: 'with text' });
  assert.equal([empty.status, empty.body], [400, { error: 'Attachment is empty.' }]);
  assert.equal(await commentRows(), []);
  assert.equal(storedComments(), []);
  assert.equal(await db(env.orm.em.fork()).selectFrom('tasks').select('id').execute(), []);
});

test("an attachment of 30,000,000 bytes is refused (413) with the original's message and nothing is kept", async () => {
  const w = await taskWorld(env, people);
  const big = Buffer.alloc(30_000_000);
  samplePng().copy(big);
  const res = await attach(w, 'big.png', 'image/png', big);
  assert.equal([res.status, res.body], [413, { error: 'Attachment exceeds the maximum attachment size of 30MB.' }]);
  const over = await attach(w, 'bigger.png', 'image/png', Buffer.concat([big, Buffer.alloc(10)]));
  assert.is(over.status, 413);
  assert.equal(await commentRows(), []);
  assert.equal(storedComments(), []);
});

test('download: inline by default, `comment-<id><ext>` as an attachment, byte ranges 206, 404 for text comments', async () => {
  const w = await taskWorld(env, people);
  const wav = sampleWav(1000);
  const res = await attach(w, 'v.wav', 'audio/wav', wav);
  const url = `${base(w)}/${res.body.id}`;
  const inline = await api(env, 'GET', url, { as: people.student.creds });
  assert.match(String(inline.headers['content-disposition']), /^inline/);
  const saved = await api(env, 'GET', `/api//projects/${w.project}/task_def_id/${w.td}/comments/${res.body.id}`, {
    as: people.student.creds,
    query: { as_attachment: 'true' },
  });
  assert.is(saved.headers['content-disposition'], `attachment; filename=comment-${res.body.id}.wav`);

  const part = await env.app.inject({
    method: 'GET',
    url,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token, Range: 'bytes=10-19' },
  });
  assert.is(part.statusCode, 206);
  assert.is(part.headers['content-range'], `bytes 10-19/${wav.length}`);
  assert.is(part.headers['content-length'], '10');
  assert.equal(part.rawPayload, wav.subarray(10, 20));
  const tail = await env.app.inject({
    method: 'GET',
    url,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token, Range: 'bytes=2000-' },
  });
  assert.is(tail.statusCode, 206);
  assert.equal(tail.rawPayload, wav.subarray(2000));
  assert.is(tail.headers['content-range'], `bytes 2000-${wav.length - 1}/${wav.length}`);
  const beyond = await env.app.inject({
    method: 'GET',
    url,
    headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token, Range: `bytes=${wav.length}-` },
  });
  assert.is(beyond.statusCode, 416);
  assert.is(beyond.headers['content-range'], `bytes */${wav.length}`);

  const text = await api(env, 'POST', base(w), { as: people.student.creds, multipart: { comment: 'Plain' } });
  const none = await api(env, 'GET', `${base(w)}/${text.body.id}`, { as: people.student.creds });
  assert.equal([none.status, none.body], [404, { error: 'No attachment for this comment.' }]);
  assert.is((await api(env, 'GET', `${base(w)}/99999`, { as: people.student.creds })).status, 404);
});

test('deleting an attachment comment removes its file once committed', async () => {
  const w = await taskWorld(env, people);
  const res = await attach(w, 'p.png', 'image/png', samplePng());
  const key = storageKeys.commentAttachment(res.body.id, 'png');
  assert.ok(await env.services.storage.exists(key));
  assert.is((await api(env, 'DELETE', `${base(w)}/${res.body.id}`, { as: people.student.creds })).status, 204);
  for (let i = 0; i < 50 && (await env.services.storage.exists(key)); i++) await new Promise((r) => setTimeout(r, 10));
  assert.not.ok(await env.services.storage.exists(key));
  assert.equal(await commentRows(), []);
});

test.run();
