import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { registerErrorHandlers, registerRestRoutes } from '../../compat/plugin.ts';
import { publicProcedure, router } from '../../src/trpc/core.ts';
import { fileResult, uploadedFile } from '../../src/trpc/files.ts';
import { formBool } from '../../src/trpc/fields.ts';
import { testEnv } from '../support/env.ts';

// Files and text answers go through the same compat mechanism the spec's downloads will use
// (task sheets, CSVs, calendars). A probe router proves it before those operations exist.
const probe = router({
  download: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/file' }, rest: { file: true } })
    .input(z.object({ as_attachment: formBool().optional().default(false) }))
    .output(fileResult())
    .query(({ input }) => ({
      filename: 'sheet "1".pdf',
      contentType: 'application/pdf',
      data: Buffer.from('%PDF-1.4 probe'),
      asAttachment: input.as_attachment,
    })),
  text: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/text' }, rest: { text: true } })
    .input(z.object({}))
    .output(z.string())
    .query(() => 'Submission 1: 2026-03-02T00:00:00.000Z'),
  upload: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/api/probe/upload' } })
    .input(z.object({ file: uploadedFile(), note: z.string().optional() }))
    .output(z.object({ filename: z.string(), contentType: z.string(), bytes: z.number(), note: z.string().nullable() }))
    .mutation(({ input }) => ({
      filename: input.file.filename,
      contentType: input.file.contentType,
      bytes: input.file.data.length,
      note: input.note ?? null,
    })),
});

const test = suite('compat: file, text and upload answers');
let app: FastifyInstance;

test.before(async () => {
  const env = await testEnv();
  app = Fastify();
  await app.register(multipart);
  registerErrorHandlers(app);
  registerRestRoutes(app, probe, env.services);
  await app.ready();
});

test.after(() => app.close());

test('a file result is sent as its bytes with its type, shown inline unless asked to be an attachment', async () => {
  const inline = await app.inject({ method: 'GET', url: '/api/probe/file' });
  assert.is(inline.statusCode, 200);
  assert.is(inline.headers['content-type'], 'application/pdf');
  assert.is(inline.body, '%PDF-1.4 probe');
  assert.is(inline.headers['content-disposition'], 'inline; filename="sheet _1_.pdf"');
  const attached = await app.inject({ method: 'GET', url: '/api/probe/file?as_attachment=true' });
  assert.is(attached.headers['content-disposition'], 'attachment; filename="sheet _1_.pdf"');
});

test('a text result is sent as text/plain', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/probe/text' });
  assert.is(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), 'text/plain');
  assert.is(res.body, 'Submission 1: 2026-03-02T00:00:00.000Z');
});

test('a multipart file part reaches the procedure with its name, type and bytes; a missing one is a 400', async () => {
  const boundary = 'probeboundary';
  const body = [
    `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nfirst draft\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="main.py"\r\nContent-Type: text/x-python\r\n\r\nprint(1)\n\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const res = await app.inject({ method: 'POST', url: '/api/probe/upload', headers, payload: body });
  assert.is(res.statusCode, 201);
  assert.equal(JSON.parse(res.body), { filename: 'main.py', contentType: 'text/x-python', bytes: 9, note: 'first draft' });
  const missing = await app.inject({
    method: 'POST',
    url: '/api/probe/upload',
    headers,
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${boundary}--\r\n`,
  });
  assert.is(missing.statusCode, 400);
  assert.equal(JSON.parse(missing.body), { error: 'file is missing' });
});

test.run();
