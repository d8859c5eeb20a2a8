// What an error answer carries, over REST and over /trpc: the status, the code and the message the
// client reads, and nothing of the server's insides (no stack, no source path), in every
// environment. An unexpected error's own message stays in the log.
import { writeFileSync } from 'node:fs';
import Fastify from 'fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../../src/trpc/context.ts';
import { publicProcedure, router } from '../../src/trpc/core.ts';
import { badRequest, notFound } from '../../src/lib/errors.ts';
import { testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('error answers: status and message only, never a stack');
let env: TestEnv;
let people: People;

test.before(async () => {
  env = await testEnv();
});

freshEachTest(test, (world) => ({ env, people } = world));

/** What must never reach a client: a stack, a source file, a module URL. */
function assertNoInsides(label: string, text: string) {
  assert.not.ok(/"stack"/.test(text), `${label}: the answer carries a stack: ${text}`);
  assert.not.ok(/file:\/\/|\/src\/|\.ts:\d+|\n\s+at /.test(text), `${label}: the answer names server code: ${text}`);
}

const campus = { campus: { name: 'Geelong', mode: 'automatic', abbreviation: 'G', active: true } };

async function trpc(method: 'GET' | 'POST', path: string, input: unknown, as?: { username: string; token: string }) {
  const headers: Record<string, string> = as ? { Username: as.username, Auth_Token: as.token } : {};
  const res =
    method === 'GET'
      ? await env.app.inject({ method, url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, headers })
      : await env.app.inject({ method, url: `/trpc/${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(input) });
  return { status: res.statusCode, retryAfter: res.headers['retry-after'], type: res.headers['content-type'], text: res.body };
}

async function rest(method: string, url: string, options: Parameters<typeof api>[3] = {}) {
  const res = await api(env, method, url, options);
  return { status: res.status, retryAfter: res.headers['retry-after'], type: res.headers['content-type'], text: res.text };
}

test('REST and tRPC refusals answer their status, code and message, without a stack', async () => {
  await rest('POST', '/api/campuses', { as: people.admin.creds, json: campus });
  const answers: Record<string, { status: number; retryAfter: unknown; type: unknown; text: string }> = {
    'rest 404 unknown unit': await rest('GET', '/api/units/999999', { as: people.admin.creds }),
    'rest 419 no credentials': await rest('GET', '/api/units'),
    'rest 401 wrong password': await rest('POST', '/api/auth', { json: { username: people.admin.user.username, password: 'wrong' } }),
    'rest 400 bad input': await rest('POST', '/api/campuses', { as: people.admin.creds, json: { campus: { name: 'X' } } }),
    'rest 400 taken': await rest('POST', '/api/campuses', { as: people.admin.creds, json: campus }),
    'rest 403 refused': await rest('POST', '/api/campuses', { as: people.student.creds, json: campus }),
    'rest 404 no route': await rest('GET', '/api/no_such_thing'),
    'trpc anonymous': await trpc('GET', 'units.list', {}),
    'trpc expired': await trpc('GET', 'units.list', {}, { username: people.admin.user.username, token: 'not-a-token' }),
    'trpc not found': await trpc('GET', 'units.get', { id: 999999 }, people.admin.creds),
    'trpc refused': await trpc('POST', 'campuses.create', campus, people.student.creds),
    'trpc bad input': await trpc('POST', 'campuses.create', { campus: { name: 'X' } }, people.admin.creds),
    'trpc taken': await trpc('POST', 'campuses.create', campus, people.admin.creds),
    'trpc wrong password': await trpc('POST', 'auth.signIn', { username: people.admin.user.username, password: 'wrong' }),
    'trpc no procedure': await trpc('GET', 'no.such.procedure', {}),
  };
  if (process.env.ERROR_ANSWERS_DUMP) {
    const stripped = Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, { ...v, text: v.text.replace(/,"stack":"(?:[^"\\]|\\.)*"/, '') }]));
    writeFileSync(process.env.ERROR_ANSWERS_DUMP, `${JSON.stringify(stripped, null, 2)}\n`);
  }
  for (const [label, answer] of Object.entries(answers)) {
    assert.ok(answer.status >= 400, `${label}: ${answer.status}`);
    assertNoInsides(label, answer.text);
  }
  const anonymous = JSON.parse(answers['trpc anonymous'].text);
  // tRPC says 401 for both; `status` is what the REST route answers, 419: sign in again.
  assert.equal(anonymous.error.data, { code: 'UNAUTHORIZED', httpStatus: 401, path: 'units.list', status: 419 });
  assert.equal(JSON.parse(answers['rest 404 unknown unit'].text), { error: 'Unable to find requested Unit' });
  assert.is(answers['rest 419 no credentials'].status, 419);
});

test('an unexpected error answers over tRPC with the generic message and code only, and is logged', async () => {
  const logged: unknown[] = [];
  const probe = router({
    boom: publicProcedure.query(() => {
      throw new Error('relation "secret_table" does not exist at /srv/app/src/operations/x.ts:12');
    }),
    refused: publicProcedure.query(() => {
      throw badRequest('That will not do.');
    }),
    missing: publicProcedure.query(() => {
      throw notFound('Unable to find requested Thing');
    }),
  });
  const app = Fastify({ logger: false });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: { router: probe, createContext: () => createContext(env.services, {}), onError: ({ error }: { error: unknown }) => logged.push(error) },
  });
  try {
    const boom = await app.inject({ method: 'GET', url: '/trpc/boom' });
    assert.is(boom.statusCode, 500);
    assertNoInsides('boom', boom.body);
    assert.not.ok(boom.body.includes('secret_table'), boom.body);
    assert.equal(JSON.parse(boom.body).error, {
      message: 'Sorry... something went wrong with your request.',
      code: -32603,
      data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, path: 'boom', status: 500 },
    });
    assert.ok(logged.length >= 1, 'the unexpected error reaches onError');

    const refused = await app.inject({ method: 'GET', url: '/trpc/refused' });
    assert.is(refused.statusCode, 400);
    assert.equal(JSON.parse(refused.body).error, {
      message: 'That will not do.',
      code: -32600,
      data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'refused', status: 400 },
    });
    const missing = await app.inject({ method: 'GET', url: '/trpc/missing' });
    assert.is(missing.statusCode, 404);
    assert.equal(JSON.parse(missing.body).error, {
      message: 'Unable to find requested Thing',
      code: -32004,
      data: { code: 'NOT_FOUND', httpStatus: 404, path: 'missing', status: 404 },
    });
  } finally {
    await app.close();
  }
});

test('an unexpected error over REST answers the generic message without a stack', async () => {
  // An unknown content type is refused as bad input; a broken JSON body too: neither names code.
  const broken = await env.app.inject({
    method: 'POST',
    url: '/api/campuses',
    headers: { Username: people.admin.creds.username, Auth_Token: people.admin.creds.token, 'content-type': 'application/json' },
    payload: '{"campus":',
  });
  assert.is(broken.statusCode, 400);
  assertNoInsides('broken JSON', broken.body);
});

test.run();
