import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerBodyParsers } from '../../compat/bodies.ts';
import { registerErrorHandlers, registerRestRoutes } from '../../compat/plugin.ts';
import { authedMutation, publicProcedure, router } from '../../src/trpc/core.ts';
import { badRequest } from '../../src/lib/errors.ts';
import { fileResult, uploadedFile, type UploadedFile } from '../../src/lib/files.ts';
import { formBool } from '../../src/trpc/fields.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { type TestEnv, testEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';

// Files and text answers go through the same compat mechanism the spec's downloads will use
// (task sheets, CSVs, calendars). A probe router proves it before those operations exist.
const probe = router({
  download: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/file', protect: false }, rest: { file: true } })
    .input(z.object({ as_attachment: formBool().optional().default(false) }))
    .output(fileResult())
    .query(({ input }) => ({
      filename: 'sheet "1".pdf',
      contentType: 'application/pdf',
      data: Buffer.from('%PDF-1.4 probe'),
      asAttachment: input.as_attachment,
    })),
  text: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/text', protect: false }, rest: { text: true } })
    .input(z.object({}))
    .output(z.string())
    .query(() => 'Submission 1: 2026-03-02T00:00:00.000Z'),
  upload: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/api/probe/upload', protect: false }, rest: { upload: {} } })
    .input(z.object({ file: uploadedFile(), note: z.string().optional() }))
    .output(z.object({ filename: z.string(), contentType: z.string(), bytes: z.number(), content: z.string(), note: z.string().nullable() }))
    .mutation(async ({ input }) => ({
      filename: input.file.filename,
      contentType: input.file.contentType,
      bytes: input.file.size,
      content: await readFile(input.file.path, 'utf8'),
      note: input.note ?? null,
    })),
  // Repeated names: `files[]` several times, and `note` twice.
  uploadMany: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/api/probe/uploads', protect: false }, rest: { upload: { maxBytes: 64 } } })
    .input(z.object({ files: z.array(uploadedFile()), note: z.array(z.string()) }))
    .output(z.object({ contents: z.array(z.string()), note: z.array(z.string()) }))
    .mutation(async ({ input }) => ({ contents: await Promise.all(input.files.map((f) => readFile(f.path, 'utf8'))), note: input.note })),
  // Signed-in only, and fails after the upload was taken in.
  refuse: authedMutation
    .meta({ openapi: { method: 'POST', path: '/api/probe/refuse' }, rest: { upload: { maxBytes: 64 } } })
    .input(z.object({ file: uploadedFile() }))
    .output(z.object({}))
    .mutation(({ input }) => {
      seen.push(input.file);
      throw badRequest(`refused ${input.file.filename} (${existsSync(input.file.path) ? 'on disk' : 'gone'})`);
    }),
});

/** Uploads the procedures saw, to check afterwards that their temporary files are gone. */
const seen: UploadedFile[] = [];

const test = suite('compat: file, text and upload answers');
let app: FastifyInstance;
let env: TestEnv;

test.before(async () => {
  env = await testEnv();
  app = Fastify({ bodyLimit: env.config.maxBodyBytes });
  await registerBodyParsers(app);
  registerErrorHandlers(app);
  registerRestRoutes(app, probe, env.services);
  await app.ready();
});

test.after(() => app.close());

const boundary = 'probeboundary';
const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, filename: string, content: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`;
const end = `--${boundary}--\r\n`;

/** Temporary upload files still on disk. */
function leftovers(): string[] {
  const dir = join(env.config.dataDir, 'incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
}

test('a file result is sent as its bytes with its type, shown inline unless asked to be an attachment', async () => {
  const inline = await app.inject({ method: 'GET', url: '/api/probe/file' });
  assert.is(inline.statusCode, 200);
  assert.is(inline.headers['content-type'], 'application/pdf');
  assert.is(inline.body, '%PDF-1.4 probe');
  assert.is(inline.headers['content-disposition'], `inline; filename=sheet__1_.pdf; filename*=UTF-8''sheet%20%221%22.pdf`);
  const attached = await app.inject({ method: 'GET', url: '/api/probe/file?as_attachment=true' });
  assert.is(attached.headers['content-disposition'], `attachment; filename=sheet__1_.pdf; filename*=UTF-8''sheet%20%221%22.pdf`);
});

test('a text result is sent as text/plain', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/probe/text' });
  assert.is(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), 'text/plain');
  assert.is(res.body, 'Submission 1: 2026-03-02T00:00:00.000Z');
});

test('a multipart file part reaches the procedure as a temporary file with its name, type and size; a missing one is a 400', async () => {
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nfirst draft\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="main.py"\r\nContent-Type: text/x-python\r\n\r\nprint(1)\n\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  const res = await app.inject({ method: 'POST', url: '/api/probe/upload', headers, payload: body });
  assert.is(res.statusCode, 201);
  assert.equal(JSON.parse(res.body), { filename: 'main.py', contentType: 'text/x-python', bytes: 9, content: 'print(1)\n', note: 'first draft' });
  assert.equal(leftovers(), [], 'the temporary file is deleted when the request ends');
  const missing = await app.inject({
    method: 'POST',
    url: '/api/probe/upload',
    headers,
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${boundary}--\r\n`,
  });
  assert.is(missing.statusCode, 400);
  assert.equal(JSON.parse(missing.body), { error: 'file is missing' });
  const nul = await app.inject({ method: 'POST', url: '/api/probe/upload', headers, payload: file('file', 'a\u0000.py', 'x') + end });
  assert.equal([nul.statusCode, JSON.parse(nul.body)], [400, { error: 'file[filename] is invalid (contains a NUL byte)' }]);
  assert.equal(leftovers(), []);
});

test('repeated names keep every part: files and fields become lists, none overwrites another', async () => {
  const payload = field('note', 'one') + file('files[]', 'a.txt', 'first') + file('files[]', 'b.txt', 'second') + field('note', 'two') + end;
  const res = await app.inject({ method: 'POST', url: '/api/probe/uploads', headers, payload });
  assert.is(res.statusCode, 201, res.body);
  assert.equal(JSON.parse(res.body), { contents: ['first', 'second'], note: ['one', 'two'] });
  assert.equal(leftovers(), []);
});

test("files over the route's cap are a 413, and nothing is kept", async () => {
  const exactly = file('files[]', 'a.txt', 'x'.repeat(40)) + file('files[]', 'b.txt', 'y'.repeat(24)) + field('note[]', 'n') + end;
  const fits = await app.inject({ method: 'POST', url: '/api/probe/uploads', headers, payload: exactly });
  assert.is(fits.statusCode, 201, 'files of exactly the cap fit');
  const over = file('files[]', 'a.txt', 'x'.repeat(40)) + file('files[]', 'b.txt', 'y'.repeat(25)) + field('note[]', 'n') + end;
  const res = await app.inject({ method: 'POST', url: '/api/probe/uploads', headers, payload: over });
  assert.is(res.statusCode, 413);
  assert.equal(JSON.parse(res.body), { error: 'The files of this upload are larger than 64 bytes.' });
  assert.equal(leftovers(), []);
  // A declared length beyond what the route could take is refused before reading.
  const declared = await app.inject({
    method: 'POST',
    url: '/api/probe/uploads',
    headers: { ...headers, 'content-length': String(env.config.maxBodyBytes + 65) },
    payload: end,
  });
  assert.is(declared.statusCode, 413);
});

test('a temporary file is deleted when the procedure fails, and it cannot be forged from JSON', async () => {
  const user = await createUser(env, `probe${Date.now()}`, 'Student');
  const token = await issueToken(env.orm.em.fork(), user, env.clock.now(), false);
  const creds = { Username: user.username, 'Auth-Token': token };
  seen.length = 0;
  const res = await app.inject({ method: 'POST', url: '/api/probe/refuse', headers: { ...headers, ...creds }, payload: file('file', 'x.txt', 'data') + end });
  assert.equal([res.statusCode, JSON.parse(res.body)], [400, { error: 'refused x.txt (on disk)' }]);
  assert.is(seen.length, 1);
  assert.not.ok(existsSync(seen[0].path), 'deleted after the failure');
  assert.equal(leftovers(), []);
  // A JSON look-alike naming a file on the server is not an upload.
  const forged = await app.inject({
    method: 'POST',
    url: '/api/probe/refuse',
    headers: { 'content-type': 'application/json', ...creds },
    payload: JSON.stringify({ file: { filename: 'passwd', contentType: 'text/plain', path: '/etc/passwd', size: 1 } }),
  });
  assert.equal([forged.statusCode, JSON.parse(forged.body)], [400, { error: 'file is not a file' }]);
  // Without credentials the upload route answers 419 and reads nothing.
  const anonymous = await app.inject({ method: 'POST', url: '/api/probe/refuse', headers, payload: file('file', 'x.txt', 'data') + end });
  assert.is(anonymous.statusCode, 419);
  assert.is(seen.length, 1);
});

test.run();
