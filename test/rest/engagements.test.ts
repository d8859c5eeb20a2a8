// Check-ins (docs/check-ins.md): evidence as a URL or a file (images re-encoded, PDFs checked),
// never both; the role rules of every route; the delete windows; replies; the students CSV count;
// and the report per tutorial per week in a fixed number of statements.
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { readAll } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, signedIn, travelTo, type Actor, type People } from '../support/fixtures.ts';
import { api, type RequestOptions } from '../support/http.ts';
import { samplePdf, samplePng, sampleZip } from '../support/sample-files.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedEnrolmentIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST check-ins (engagements)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const other = await signedIn(env, 'bstudent', 'Student');
  const otherProject = await enrol(env, other.user, unit);
  const tutorial = await seedTutorialRow(env, unit, 'LA1', { tutor: tutorRole });
  await seedEnrolmentIn(env, project, tutorial);
  return { unit, project, other, otherProject, tutorial, tutorRole };
}

const base = (project: number) => `/api/projects/${project}/engagements`;
const FIELDS = { engagement_type: 'check-in', note: 'Talked through the week 1 task', occurred_at: '2026-03-01T10:00:00Z' };
const record = (as: Actor, project: number, body: RequestOptions = { json: FIELDS }) => api(env, 'POST', base(project), { as: as.creds, ...body });
const rows = () => db(env.orm.em.fork()).selectFrom('engagements').selectAll().orderBy('id').execute();
const stored = async (key: string | null) => (key === null ? false : env.services.storage.exists(key));
/** A file is removed once its change is committed, just after the answer: wait for it (a while, not a set time). */
async function gone(key: string | null): Promise<boolean> {
  for (let i = 0; i < 500 && (await stored(key)); i++) await new Promise((r) => setTimeout(r, 10));
  return !(await stored(key));
}

/** A JPEG with EXIF (a GPS-like text in it) and bytes appended after its end: what re-encoding must drop. */
async function jpegWithSecrets(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'GPS -37.8136 144.9631', ImageDescription: 'secret location' } })
    .toBuffer();
  return Buffer.concat([jpeg, Buffer.from('<script>hidden payload</script>')]);
}

test('tutor records a check-in with a URL (JSON); it lists with the author name and no file', async () => {
  const w = await world();
  const res = await record(people.tutor, w.project, { json: { ...FIELDS, evidence_url: 'https://example.edu/notes/1' } });
  assert.is(res.status, 201, res.text);
  assert.equal(
    [
      res.body.engagement_type,
      res.body.note,
      res.body.occurred_at,
      res.body.evidence_url,
      res.body.attachment_filename,
      res.body.author_name,
      res.body.comments,
    ],
    ['check-in', FIELDS.note, '2026-03-01T10:00:00.000Z', 'https://example.edu/notes/1', null, 'Atutor Tester', []],
  );
  const list = await api(env, 'GET', base(w.project), { as: people.student.creds });
  assert.is(list.status, 200);
  assert.equal(
    list.body.map((e: { id: number }) => e.id),
    [res.body.id],
  );
  const one = await api(env, 'GET', `${base(w.project)}/${res.body.id}`, { as: people.student.creds });
  assert.equal(one.body, res.body);
});

test('no evidence is fine (form body); both evidence kinds at once are 400 and nothing is written', async () => {
  const w = await world();
  const plain = await record(people.convenor, w.project, { form: FIELDS });
  assert.is(plain.status, 201, plain.text);
  assert.equal([plain.body.evidence_url, plain.body.attachment_bytes], [null, null]);
  const both = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, evidence_url: 'https://example.edu', attachment: { filename: 'a.pdf', contentType: 'application/pdf', data: samplePdf() } },
  });
  assert.equal([both.status, both.body], [400, { error: 'Give either evidence_url or an attachment, not both' }]);
  assert.is((await rows()).length, 1);
});

test('an image is re-encoded: EXIF and appended bytes are gone, the pixels stay, its download has the type and headers', async () => {
  const w = await world();
  const original = await jpegWithSecrets();
  assert.ok((await sharp(original).metadata()).exif, 'the test image carries EXIF');
  const res = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 'IMG_0001.JPG', contentType: 'image/jpeg', data: original } },
  });
  assert.is(res.status, 201, res.text);
  assert.equal([res.body.attachment_filename, res.body.attachment_content_type], ['IMG_0001.jpg', 'image/jpeg']);
  const [row] = await rows();
  const bytes = (await readAll(env.services.storage, row!.attachment_path!, Infinity))!;
  assert.is(res.body.attachment_bytes, bytes.length);
  const meta = await sharp(bytes).metadata();
  assert.equal([meta.format, meta.width, meta.height, meta.exif, meta.xmp], ['jpeg', 16, 12, undefined, undefined]);
  for (const secret of ['secret location', 'GPS -37', 'hidden payload']) assert.not.ok(bytes.includes(Buffer.from(secret)), secret);

  const url = `${base(w.project)}/${res.body.id}/attachment`;
  const inline = await api(env, 'GET', url, { as: people.student.creds });
  assert.is(inline.status, 200);
  assert.equal(
    [inline.headers['content-type'], inline.headers['content-disposition'], inline.headers['content-length']],
    ['image/jpeg', `inline; filename=engagement-${res.body.id}.jpg`, String(bytes.length)],
  );
  const saved = await api(env, 'GET', url, { as: people.tutor.creds, query: { as_attachment: 'true' } });
  assert.is(saved.headers['content-disposition'], `attachment; filename=engagement-${res.body.id}.jpg`);
  assert.is(
    (await api(env, 'GET', url, { as: people.tutor.creds, query: { as_attachment: 'false' } })).headers['content-disposition'],
    `inline; filename=engagement-${res.body.id}.jpg`,
  );
});

test('a photo turned by its EXIF orientation is stored upright; an image over 40 megapixels is 400', async () => {
  const w = await world();
  const sideways = await sharp({ create: { width: 20, height: 10, channels: 3, background: 'blue' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  const res = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 'turned.jpg', contentType: 'image/jpeg', data: sideways } },
  });
  assert.is(res.status, 201, res.text);
  const [row] = await rows();
  const meta = await sharp((await readAll(env.services.storage, row!.attachment_path!, Infinity))!).metadata();
  assert.equal([meta.width, meta.height, meta.orientation], [10, 20, undefined]);
  // 7000 x 6000 of one colour: a small file, 42 megapixels once decoded.
  const huge = await sharp({ create: { width: 7000, height: 6000, channels: 3, background: 'white' } })
    .png()
    .toBuffer();
  const refused = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 'huge.png', contentType: 'image/png', data: huge } },
  });
  assert.equal([refused.status, refused.body.error], [400, 'The image is larger than 40 megapixels']);
  assert.is((await rows()).length, 1);
});

test('a PNG stays a PNG and a PDF is stored as uploaded', async () => {
  const w = await world();
  const png = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 'x.bin', contentType: 'application/octet-stream', data: samplePng() } },
  });
  assert.is(png.status, 201, png.text);
  assert.equal([png.body.attachment_content_type, png.body.attachment_filename], ['image/png', 'x.png']);
  const pdf = samplePdf('Attendance sheet');
  const res = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 'sheet.pdf', contentType: 'application/pdf', data: pdf } },
  });
  assert.is(res.status, 201, res.text);
  assert.equal([res.body.attachment_content_type, res.body.attachment_bytes], ['application/pdf', pdf.length]);
  const row = (await rows()).find((r) => r.id === res.body.id)!;
  assert.equal(await readAll(env.services.storage, row.attachment_path!, Infinity), pdf);
});

test('bad input: schemes other than http(s), wrong file kinds, a cut PDF, missing fields, dates out of bounds are 400; 30 MB is 413', async () => {
  const w = await world();
  for (const url of ['javascript:alert(1)', 'ftp://example.edu/x', 'data:text/html,hi', 'not a url', 'file:///etc/passwd']) {
    const res = await record(people.tutor, w.project, { json: { ...FIELDS, evidence_url: url } });
    assert.is(res.status, 400, url);
    assert.match(res.body.error, /evidence_url/);
  }
  const file = (filename: string, data: Buffer) => ({ multipart: { ...FIELDS, attachment: { filename, contentType: 'image/png', data } } });
  const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
  for (const [name, data] of [
    ['a.zip', sampleZip()],
    ['tool.png', exe],
    ['text.png', Buffer.from('only text pretending to be an image\n')],
  ] as const) {
    const res = await record(people.tutor, w.project, file(name, data));
    assert.equal([res.status, res.body.error], [400, 'Evidence must be an image (JPEG, PNG, GIF, WebP, TIFF, AVIF or HEIF) or a PDF document'], name);
  }
  const cut = await record(people.tutor, w.project, file('cut.pdf', samplePdf('Cut').subarray(0, 200)));
  assert.is(cut.status, 400);
  // A PNG signature and nothing decodable after it: libvips refuses it.
  const broken = await record(people.tutor, w.project, file('broken.png', samplePng().subarray(0, 40)));
  assert.equal([broken.status, broken.body.error], [400, 'The image could not be read']);
  const missing: [Record<string, string>, RegExp][] = [
    [{ ...FIELDS, note: '' }, /note/],
    [{ engagement_type: 'x', occurred_at: FIELDS.occurred_at }, /note/],
    [{ engagement_type: 'x', note: 'y' }, /occurred_at/],
    [{ note: 'y', occurred_at: FIELDS.occurred_at }, /engagement_type/],
    [{ ...FIELDS, engagement_type: 'x'.repeat(256) }, /engagement_type/],
    [{ ...FIELDS, occurred_at: 'yesterday' }, /occurred_at/],
    [{ ...FIELDS, occurred_at: '2026-03-04T00:00:00Z' }, /more than a day in the future/],
    [{ ...FIELDS, occurred_at: '1999-12-31T00:00:00Z' }, /before 2000/],
  ];
  for (const [body, error] of missing) {
    const res = await record(people.tutor, w.project, { json: body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.match(res.body.error, error);
  }
  const big = Buffer.alloc(30_000_000);
  samplePng().copy(big);
  const over = await record(people.tutor, w.project, file('big.png', big));
  assert.is(over.status, 413);
  const beyond = await record(people.tutor, w.project, file('bigger.png', Buffer.concat([big, Buffer.alloc(10)])));
  assert.is(beyond.status, 413);
  assert.equal(await rows(), []);
});

test('bad ids: an unknown project or engagement is 404, an engagement of another project 404, a non-numeric id 400', async () => {
  const w = await world();
  const id = (await record(people.tutor, w.project)).body.id;
  assert.is((await api(env, 'GET', base(999), { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'GET', `${base(w.project)}/999`, { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'GET', `${base(w.otherProject)}/${id}`, { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'PUT', `${base(w.otherProject)}/${id}`, { as: people.tutor.creds, json: { note: 'x' } })).status, 404);
  assert.is((await api(env, 'DELETE', `${base(w.otherProject)}/${id}`, { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'POST', `${base(w.project)}/999/comments`, { as: people.tutor.creds, json: { comment: 'x' } })).status, 404);
  assert.is((await api(env, 'GET', `${base(w.project)}/abc`, { as: people.tutor.creds })).status, 400);
  assert.is((await api(env, 'GET', `${base(w.project)}/${id}/attachment`, { as: people.tutor.creds })).status, 404, 'no file');
});

test('role rules: the student reads their own but writes none; another student is refused everything; staff and an Admin write', async () => {
  const w = await world();
  const id = (await record(people.tutor, w.project)).body.id;
  const url = `${base(w.project)}/${id}`;
  // The project's student reads.
  for (const path of [base(w.project), url]) assert.is((await api(env, 'GET', path, { as: people.student.creds })).status, 200, path);
  // ... and writes nothing.
  const create = await record(people.student, w.project);
  assert.equal([create.status, create.body], [403, { error: 'Only staff of the unit may record engagements' }]);
  assert.is((await api(env, 'PUT', url, { as: people.student.creds, json: { note: 'mine now' } })).status, 403);
  assert.is((await api(env, 'DELETE', url, { as: people.student.creds })).status, 403);
  // Another student of the unit, on this project: nothing at all.
  for (const [method, path] of [
    ['GET', base(w.project)],
    ['GET', url],
    ['GET', `${url}/attachment`],
    ['PUT', url],
    ['DELETE', url],
    ['POST', `${url}/comments`],
  ] as const) {
    const res = await api(env, method, path, { as: w.other.creds, json: method === 'GET' || method === 'DELETE' ? undefined : { note: 'x', comment: 'x' } });
    assert.is(res.status, 403, `${method} ${path}`);
  }
  assert.is((await record(w.other, w.project)).status, 403);
  // A tutor of another unit: refused too.
  const stranger = await signedIn(env, 'stranger', 'Tutor');
  assert.is((await api(env, 'GET', base(w.project), { as: stranger.creds })).status, 403);
  assert.is((await record(stranger, w.project)).status, 403);
  // The convenor and an Admin who is not staff record and read.
  assert.is((await record(people.convenor, w.project)).status, 201);
  assert.is((await record(people.admin, w.project)).status, 201);
  assert.is((await api(env, 'GET', base(w.project), { as: people.admin.creds })).body.length, 3);
  assert.is((await rows()).length, 3);
});

test('PUT: only the author edits; fields left out stay; a URL replaces a file (whose object goes); remove_evidence drops the evidence', async () => {
  const w = await world();
  const res = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 'p.png', contentType: 'image/png', data: samplePng() } },
  });
  const url = `${base(w.project)}/${res.body.id}`;
  const firstKey = (await rows())[0]!.attachment_path;
  assert.ok(await stored(firstKey));
  const byConvenor = await api(env, 'PUT', url, { as: people.convenor.creds, json: { note: 'not mine' } });
  assert.equal([byConvenor.status, byConvenor.body], [403, { error: 'Only the author of an engagement may edit it' }]);

  const edited = await api(env, 'PUT', url, { as: people.tutor.creds, form: { note: 'Edited', engagement_type: 'attendance' } });
  assert.is(edited.status, 200, edited.text);
  assert.equal(
    [edited.body.note, edited.body.engagement_type, edited.body.occurred_at, edited.body.attachment_content_type],
    ['Edited', 'attendance', '2026-03-01T10:00:00.000Z', 'image/png'],
  );

  // A new file replaces the old one: a new object, the old one removed.
  const replaced = await api(env, 'PUT', url, {
    as: people.tutor.creds,
    multipart: { attachment: { filename: 'sheet.pdf', contentType: 'application/pdf', data: samplePdf() } },
  });
  assert.is(replaced.status, 200, replaced.text);
  const secondKey = (await rows())[0]!.attachment_path;
  assert.ok(secondKey !== firstKey && (await stored(secondKey)));
  assert.ok(await gone(firstKey), 'the replaced file is deleted');

  const withUrl = await api(env, 'PUT', url, { as: people.tutor.creds, json: { evidence_url: 'http://example.edu/sheet' } });
  assert.equal([withUrl.status, withUrl.body.evidence_url, withUrl.body.attachment_filename], [200, 'http://example.edu/sheet', null]);
  assert.ok(await gone(secondKey));

  const both = await api(env, 'PUT', url, { as: people.tutor.creds, json: { evidence_url: 'http://example.edu/x', remove_evidence: true } });
  assert.is(both.status, 400);
  const removed = await api(env, 'PUT', url, { as: people.tutor.creds, json: { remove_evidence: true } });
  assert.equal([removed.status, removed.body.evidence_url, removed.body.attachment_bytes], [200, null, null]);
  const bad = await api(env, 'PUT', url, { as: people.tutor.creds, json: { evidence_url: 'javascript:alert(1)' } });
  assert.is(bad.status, 400);
  const [row] = await rows();
  assert.equal([row!.evidence_url, row!.attachment_path, row!.note], [null, null, 'Edited']);
});

test('remove_evidence deletes the stored file', async () => {
  const w = await world();
  const res = await record(people.tutor, w.project, {
    multipart: { ...FIELDS, attachment: { filename: 's.pdf', contentType: 'application/pdf', data: samplePdf() } },
  });
  const key = (await rows())[0]!.attachment_path;
  assert.ok(await stored(key));
  const removed = await api(env, 'PUT', `${base(w.project)}/${res.body.id}`, { as: people.tutor.creds, multipart: { remove_evidence: 'true' } });
  assert.is(removed.status, 200, removed.text);
  assert.ok(await gone(key));
  assert.is((await api(env, 'GET', `${base(w.project)}/${res.body.id}/attachment`, { as: people.tutor.creds })).status, 404);
});

const setCreatedAt = (id: number, agoMs: number) =>
  db(env.orm.em.fork())
    .updateTable('engagements')
    .set({ created_at: new Date(env.clock.now().getTime() - agoMs).toISOString() })
    .where('id', '=', id)
    .execute();

test('delete windows: the author within an hour, not after; the convenor within a week, not after; another tutor never; the file goes', async () => {
  const w = await world();
  const colleague = await signedIn(env, 'ctutor', 'Tutor');
  await employ(env, colleague.user, w.unit, 'Tutor');
  const HOUR = 60 * 60 * 1000;
  const make = async () =>
    (await record(people.tutor, w.project, { multipart: { ...FIELDS, attachment: { filename: 's.pdf', contentType: 'application/pdf', data: samplePdf() } } }))
      .body.id as number;
  const del = (as: Actor, id: number) => api(env, 'DELETE', `${base(w.project)}/${id}`, { as: as.creds });

  const fresh = await make();
  const key = (await rows()).find((r) => r.id === fresh)!.attachment_path;
  assert.is((await del(colleague, fresh)).status, 403, 'another tutor');
  await setCreatedAt(fresh, HOUR - 60_000);
  const own = await del(people.tutor, fresh);
  assert.is(own.status, 204, own.text);
  assert.ok(await gone(key), 'its file is deleted');

  const old = await make();
  await setCreatedAt(old, HOUR + 60_000);
  const late = await del(people.tutor, old);
  assert.equal([late.status, late.body.error], [403, "Its author may delete an engagement only within an hour of recording it; ask the unit's convenor"]);
  assert.is((await del(people.convenor, old)).status, 204, 'the convenor, within a week');

  const older = await make();
  await setCreatedAt(older, 7 * 24 * HOUR + 60_000);
  const tooLate = await del(people.convenor, older);
  assert.equal([tooLate.status, tooLate.body.error], [403, 'An engagement can no longer be deleted a week after it was recorded']);
  assert.is((await del(people.admin, older)).status, 403, 'an Admin has the convenor’s week');
  assert.equal(
    (await rows()).map((r) => r.id),
    [older],
  );
});

test("replies: staff and the project's student reply; every reply comes back with the list in one statement for any number", async () => {
  const w = await world();
  const a = (await record(people.tutor, w.project)).body.id;
  const b = (await record(people.tutor, w.project, { json: { ...FIELDS, occurred_at: '2026-03-01T12:00:00Z' } })).body.id;
  const reply = await api(env, 'POST', `${base(w.project)}/${a}/comments`, { as: people.student.creds, json: { comment: 'Thanks!' } });
  assert.is(reply.status, 201, reply.text);
  assert.equal(
    reply.body.comments.map((c: { comment: string; author_name: string }) => [c.comment, c.author_name]),
    [['Thanks!', 'Astudent Tester']],
  );
  assert.is((await api(env, 'POST', `${base(w.project)}/${a}/comments`, { as: people.convenor.creds, form: { comment: 'See you next week' } })).status, 201);
  assert.is((await api(env, 'POST', `${base(w.project)}/${b}/comments`, { as: people.admin.creds, json: { comment: 'Noted' } })).status, 201);
  const blank = await api(env, 'POST', `${base(w.project)}/${a}/comments`, { as: people.tutor.creds, json: { comment: '  ' } });
  assert.is(blank.status, 400);
  assert.is((await api(env, 'POST', `${base(w.project)}/${a}/comments`, { as: people.tutor.creds, json: { comment: 'x'.repeat(5000) } })).status, 400);

  const listed = async () => {
    let body: { id: number; comments: { comment: string }[] }[] = [];
    env.services.sessions.forgetUser(people.tutor.user.id);
    const statements = await countStatements(async () => {
      body = (await api(env, 'GET', base(w.project), { as: people.tutor.creds })).body;
    });
    return { body, statements };
  };
  const small = await listed();
  assert.equal(
    small.body.map((e) => [e.id, e.comments.map((c) => c.comment)]),
    [
      [b, ['Noted']],
      [a, ['Thanks!', 'See you next week']],
    ],
  );
  for (let i = 0; i < 10; i++) {
    const id = (await record(people.tutor, w.project)).body.id;
    await api(env, 'POST', `${base(w.project)}/${id}/comments`, { as: people.student.creds, json: { comment: `r${i}` } });
  }
  const large = await listed();
  assert.is(large.body.length, 12);
  assert.is(large.statements, small.statements, 'no statement per engagement or reply');
});

test("the unit's students CSV counts each student's engagements", async () => {
  const w = await world();
  for (let i = 0; i < 3; i++) await record(people.tutor, w.project);
  await record(people.tutor, w.otherProject);
  const res = await api(env, 'GET', `/api/csv/units/${w.unit}`, { as: people.convenor.creds });
  assert.is(res.status, 200);
  const lines = res.text.trim().split('\r\n');
  assert.ok(lines[0]!.endsWith(',engagements'));
  const count = (username: string) =>
    lines
      .find((l) => l.includes(`,${username},`))!
      .split(',')
      .at(-1);
  assert.equal([count('astudent'), count('bstudent')], ['3', '1']);
  // One grouped statement, whatever the number of students.
  const measure = async () => {
    env.services.sessions.forgetUser(people.convenor.user.id);
    return countStatements(() => api(env, 'GET', `/api/csv/units/${w.unit}`, { as: people.convenor.creds }));
  };
  const small = await measure();
  for (let i = 0; i < 8; i++) await record(people.tutor, await enrol(env, await createUser(env, `more${i}`, 'Student'), w.unit));
  assert.is(await measure(), small);
});

test('the report: counts per tutorial per teaching week, the last check-in and weeks quiet; tutors see their tutorials; students are refused', async () => {
  const w = await world();
  // Week 1 starts on Monday 2 March (the unit's start); today is in week 4.
  await travelTo(env, people, '2026-03-25T09:00:00Z');
  const at = (day: string) => ({ json: { ...FIELDS, occurred_at: `${day}T10:00:00Z` } });
  await record(people.tutor, w.project, at('2026-03-03')); // week 1
  await record(people.tutor, w.project, at('2026-03-05')); // week 1
  await record(people.tutor, w.project, at('2026-03-17')); // week 3
  await record(people.tutor, w.otherProject, at('2026-03-02')); // week 1, no tutorial
  const url = `/api/units/${w.unit}/engagements/report`;
  const res = await api(env, 'GET', url, { as: people.convenor.creds });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.current_week, 4);
  assert.equal(
    res.body.weeks.map((x: { start_date: string }) => x.start_date),
    ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23'],
  );
  const [la1, none] = res.body.tutorials;
  assert.equal([la1.abbreviation, la1.tutor_name, la1.weeks, la1.total, la1.quiet_students], ['LA1', 'Atutor Tester', [2, 0, 1, 0], 3, 0]);
  assert.equal(
    la1.students.map((s: Record<string, unknown>) => [s.username, s.weeks, s.last_engagement_at, s.weeks_quiet]),
    [['astudent', [2, 0, 1, 0], '2026-03-17T10:00:00.000Z', 1]],
  );
  assert.equal([none.tutorial_id, none.weeks, none.quiet_students, none.students[0].weeks_quiet], [null, [1, 0, 0, 0], 1, 3]);

  const tutors = await api(env, 'GET', url, { as: people.tutor.creds });
  assert.equal(
    tutors.body.tutorials.map((t: { abbreviation: string }) => t.abbreviation),
    ['LA1'],
  );
  assert.is((await api(env, 'GET', url, { as: people.admin.creds })).body.tutorials.length, 2);
  const csv = await api(env, 'GET', `${url}/csv`, { as: people.convenor.creds });
  assert.is(csv.status, 200);
  assert.is(csv.headers['content-disposition'], 'attachment; filename=SIT101-check-ins.csv');
  assert.equal(csv.text.trim().split('\r\n'), [
    'tutorial,tutor,username,name,week_1,week_2,week_3,week_4,total,last_engagement_at,weeks_quiet',
    'LA1,Atutor Tester,astudent,Astudent Tester,2,0,1,0,3,2026-03-17T10:00:00.000Z,1',
    ',,bstudent,Bstudent Tester,1,0,0,0,1,2026-03-02T10:00:00.000Z,3',
  ]);
  const tutorsCsv = await api(env, 'GET', `${url}/csv`, { as: people.tutor.creds });
  assert.is(tutorsCsv.text.trim().split('\r\n').length, 2, 'a tutor: their tutorial only');
  assert.is((await api(env, 'GET', `${url}/csv`, { as: people.student.creds })).status, 403);
  assert.is((await api(env, 'GET', url, { as: people.student.creds })).status, 403);
  assert.is((await api(env, 'GET', '/api/units/999/engagements/report', { as: people.convenor.creds })).status, 404);
});

test('the report issues as many statements for 40 students as for 4', async () => {
  const w = await world();
  const url = `/api/units/${w.unit}/engagements/report`;
  const addStudents = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const user = await createUser(env, `st${i}`, 'Student');
      const project = await enrol(env, user, w.unit);
      await seedEnrolmentIn(env, project, w.tutorial);
      await db(env.orm.em.fork())
        .insertInto('engagements')
        .values(
          [0, 1].map((n) => ({
            project_id: project,
            author_id: people.tutor.user.id,
            engagement_type: 'check-in',
            note: `n${n}`,
            occurred_at: new Date(Date.UTC(2026, 2, 2 + 7 * n + (i % 5), 10)).toISOString(),
            created_at: env.clock.now().toISOString(),
            updated_at: env.clock.now().toISOString(),
          })),
        )
        .execute();
    }
  };
  await travelTo(env, people, '2026-03-25T09:00:00Z');
  const measure = async () => {
    let body: { tutorials: { students: unknown[] }[] } = { tutorials: [] };
    env.services.sessions.forgetUser(people.convenor.user.id);
    const statements = await countStatements(async () => {
      const res = await api(env, 'GET', url, { as: people.convenor.creds });
      assert.is(res.status, 200, res.text);
      body = res.body;
    });
    return { statements, students: body.tutorials.reduce((n, t) => n + t.students.length, 0) };
  };
  await addStudents(0, 2);
  const small = await measure();
  await addStudents(2, 38);
  const large = await measure();
  assert.equal([small.students, large.students], [4, 40]);
  assert.is(large.statements, small.statements);
});

test.run();
