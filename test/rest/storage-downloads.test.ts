import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { z } from 'zod';
import { registerBodyParsers } from '../../compat/bodies.ts';
import { contentDisposition, registerErrorHandlers, registerRestRoutes } from '../../compat/plugin.ts';
import { publicProcedure, router } from '../../src/trpc/core.ts';
import { fileResult, type FileResult, type StoredBytes } from '../../src/lib/files.ts';
import { formBool } from '../../src/trpc/fields.ts';
import { notFound } from '../../src/lib/errors.ts';
import { testEnv, type TestEnv } from '../support/env.ts';

// A stored file goes out as a stream from storage: its bytes unchanged, its length, its type, and
// a Content-Disposition the browser may read (CORS exposes it).
const KEY = 'probe/downloads/file.bin';
const probe = router({
  stored: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/stored', protect: false }, rest: { file: true } })
    .input(z.object({ name: z.string(), as_attachment: formBool().optional().default(false) }))
    .output(fileResult())
    .query(async ({ ctx, input }): Promise<FileResult> => {
      const file = await ctx.storage.open(KEY);
      if (!file) throw notFound('Unable to find requested file');
      return { filename: input.name, contentType: 'application/zip', data: file.stream, size: file.size, asAttachment: input.as_attachment };
    }),
  // A stored file opened as it is sent; `input.said` is the size the procedure saw (it may be stale).
  opened: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/opened', protect: false }, rest: { file: true } })
    .input(z.object({ said: z.coerce.number() }))
    .output(fileResult())
    .query(async ({ ctx, input }): Promise<FileResult> => {
      const data: StoredBytes = {
        size: input.said,
        open: (range) => {
          opens++;
          return ctx.storage.open(KEY, range);
        },
      };
      return { filename: 'take.wav', contentType: 'audio/wav', data, size: input.said, asAttachment: false, ranges: true };
    }),
});

let opens = 0;

const test = suite('storage: downloads streamed from storage');
let app: FastifyInstance;
let env: TestEnv;

test.before(async () => {
  env = await testEnv();
  app = Fastify();
  await app.register(cors, { origin: '*', exposedHeaders: ['Content-Disposition'] });
  await registerBodyParsers(app);
  registerErrorHandlers(app);
  registerRestRoutes(app, probe, env.services);
  await app.ready();
});
test.after(async () => {
  await env.services.storage.delete(KEY);
  await app.close();
});

test('a stored file is sent byte for byte with its type and length; a zip is always an attachment', async () => {
  const bytes = Buffer.alloc(300_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
  await env.services.storage.put(KEY, Readable.from([bytes]));
  const inline = await app.inject({ method: 'GET', url: '/api/probe/stored?name=res.zip', headers: { origin: 'http://web.example' } });
  assert.is(inline.statusCode, 200);
  assert.is(inline.headers['content-type'], 'application/zip');
  assert.is(inline.headers['content-length'], String(bytes.length));
  assert.is(inline.headers['content-disposition'], 'attachment; filename=res.zip', 'only media is shown in the page');
  assert.is(inline.headers['access-control-expose-headers'], 'Content-Disposition');
  assert.equal(inline.rawPayload, bytes);
  const attached = await app.inject({ method: 'GET', url: '/api/probe/stored?name=res.zip&as_attachment=true' });
  assert.is(attached.headers['content-disposition'], 'attachment; filename=res.zip');
  assert.equal(attached.rawPayload, bytes);
});

test('a missing stored file is a 404 with an error body, not a broken stream', async () => {
  await env.services.storage.delete(KEY);
  const res = await app.inject({ method: 'GET', url: '/api/probe/stored?name=x.zip' });
  assert.is(res.statusCode, 404);
  assert.equal(JSON.parse(res.body), { error: 'Unable to find requested file' });
});

test('a stored file replaced since its size was read is asked again with its new size; a HEAD opens nothing; one gone since is a 404', async () => {
  const bytes = Buffer.from(Array.from({ length: 50 }, (_, i) => i));
  await env.services.storage.put(KEY, Readable.from([bytes]));
  // The procedure saw 100 bytes; there are 50 now: the last 10 are bytes 40-49 of 50.
  const tail = await app.inject({ method: 'GET', url: '/api/probe/opened?said=100', headers: { Range: 'bytes=-10' } });
  assert.is(tail.statusCode, 206);
  assert.is(tail.headers['content-range'], 'bytes 40-49/50');
  assert.equal(tail.rawPayload, bytes.subarray(40));
  const whole = await app.inject({ method: 'GET', url: '/api/probe/opened?said=100' });
  assert.equal([whole.statusCode, whole.headers['content-length'], whole.headers['accept-ranges']], [200, '50', 'bytes']);
  assert.equal(whole.rawPayload, bytes);
  const beyond = await app.inject({ method: 'GET', url: '/api/probe/opened?said=50', headers: { Range: 'bytes=50-' } });
  assert.equal([beyond.statusCode, beyond.headers['content-range']], [416, 'bytes */50']);
  opens = 0;
  const head = await app.inject({ method: 'HEAD', url: '/api/probe/opened?said=50', headers: { Range: 'bytes=10-19' } });
  assert.equal([head.statusCode, head.headers['content-range'], head.headers['content-length'], head.rawPayload.length], [206, 'bytes 10-19/50', '10', 0]);
  assert.is(opens, 0, 'a HEAD opens nothing');
  await env.services.storage.delete(KEY);
  const gone = await app.inject({ method: 'GET', url: '/api/probe/opened?said=50', headers: { Range: 'bytes=0-9' } });
  assert.equal([gone.statusCode, JSON.parse(gone.body)], [404, { error: 'File missing' }]);
});

test('file names cannot break the header or name a path; names beyond ASCII also go as filename*', () => {
  assert.is(contentDisposition('a"b\\c/d\r\ne.pdf', true), "attachment; filename=a_b_c_d__e.pdf; filename*=UTF-8''a%22b_c_d__e.pdf");
  assert.is(contentDisposition('SIT101-1.1P.pdf', false), 'inline; filename=SIT101-1.1P.pdf');
  assert.is(contentDisposition("Tâche (1)'s.pdf", true), "attachment; filename=T_che__1__s.pdf; filename*=UTF-8''T%C3%A2che%20%281%29%27s.pdf");
});

test.run();
