import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/routers/index.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { createContext } from '../../src/trpc/context.ts';
import { appRouter } from '../../src/routers/index.ts';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { typedClient } from '../support/trpc-client.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('tRPC: typed clients');
let env: TestEnv;
let people: People;
let baseUrl: string;

test.before(async () => {
  env = await testEnv();
  baseUrl = await listeningBaseUrl(env);
});

freshEachTest(test, (world) => ({ env, people } = world));

const client = (creds?: Credentials) => typedClient(baseUrl, creds);

test('a typed client over HTTP calls the same procedures as REST, with inferred types', async () => {
  const admin = client(people.admin.creds);
  const created = await admin.campuses.create.mutate({ campus: { name: 'Geelong', mode: 'automatic', abbreviation: 'G', active: true } });
  const id: number = created.id;
  const fetched = await client().campuses.get.query({ id });
  assert.equal(fetched, created);
  const list = await client().campuses.list.query({});
  assert.is(list.length, 1);
});

test('permission and credential failures reach the typed client as tRPC errors', async () => {
  const err = await client(people.student.creds)
    .campuses.create.mutate({ campus: { name: 'X', mode: 'manual', abbreviation: 'X', active: true } })
    .catch((e: unknown) => e);
  assert.instance(err, TRPCClientError);
  assert.is((err as TRPCClientError<AppRouter>).data?.code, 'FORBIDDEN');
  const anonymous = await client()
    .campuses.delete.mutate({ id: 1 })
    .catch((e: unknown) => e);
  assert.is((anonymous as TRPCClientError<AppRouter>).data?.code, 'UNAUTHORIZED');
});

test('the server-side caller runs procedures without HTTP (background jobs, scripts)', async () => {
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.admin.creds));
  const created = await caller.campuses.create({ campus: { name: 'Waurn Ponds', mode: 'manual', abbreviation: 'WP', active: false } });
  assert.is(created.active, false);
  const fromRest = await env.app.inject({ method: 'GET', url: `/api/campuses/${created.id}` });
  assert.equal(JSON.parse(fromRest.body), created);
});

test.run();
