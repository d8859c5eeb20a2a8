// The database goes away under a running service (its link is cut) and comes back: routes answer
// 503 with an error instead of 500, readiness says so while liveness does not, nothing is half
// written, and the service recovers by itself without a restart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCError } from '@trpc/server';
import { Campus } from '../../schema/index.ts';
import { buildApp } from '../../src/app.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createContext, createServices } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { tcpCut, type TcpCut } from '../support/tcp-cut.ts';

const test = suite('operations: the database goes away and comes back');
let env: TestEnv;
let people: People;
let link: TcpCut;
let orm: Orm;
let service: TestEnv;

freshEachTest(test, (world) => ({ env, people } = world));

test.before(async () => {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  link = await tcpCut(Number(url.port));
  url.port = String(link.port);
  orm = await createOrm(url.toString());
});

test.before.each(async () => {
  // A service of its own behind the cuttable link, sharing the test database; no session cache,
  // so that every authenticated request needs the database.
  const services = createServices(orm, { ...env.config, sessionCacheSeconds: 0 }, env.clock, env.services.logger);
  service = { ...env, orm, services, app: await buildApp(services) };
});

test.after.each(async () => {
  await link.restore().catch(() => {});
  await service.app.close();
});

test.after(async () => {
  await orm.close();
  await link.close();
});

async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) if (await check()) return;
  assert.unreachable(`not true within ${ms} ms`);
}

test('health stays 200, readiness and every database route answer 503 with an error, then all recover', async () => {
  assert.is((await api(service, 'GET', '/api/ready')).status, 200);
  assert.is((await api(service, 'GET', '/api/campuses')).status, 200);

  await link.cut();
  assert.equal((await api(service, 'GET', '/api/health')).body, { status: 'ok' });
  const ready = await api(service, 'GET', '/api/ready');
  assert.is(ready.status, 503);
  assert.match(ready.body.error, 'database unavailable');
  for (const [method, url, as] of [
    ['GET', '/api/campuses', undefined],
    ['GET', '/api/users', people.admin.creds],
    ['GET', '/api/unit_roles', people.student.creds],
  ] as const) {
    const res = await api(service, method, url, { as });
    assert.is(res.status, 503, `${method} ${url}`);
    assert.match(res.body.error, 'database is not available');
  }
  const create = await api(service, 'POST', '/api/campuses', {
    as: people.admin.creds,
    form: { campus: { name: 'Geelong', mode: 'automatic', abbreviation: 'G' } },
  });
  assert.is(create.status, 503);

  await link.restore();
  await eventually(async () => (await api(service, 'GET', '/api/ready')).status === 200);
  assert.is((await api(service, 'GET', '/api/campuses')).status, 200);
  assert.is((await api(service, 'GET', '/api/users', { as: people.admin.creds })).status, 200);
  assert.is(await env.orm.em.fork().count(Campus, {}), 0, 'the refused create wrote nothing');
});

test('a tRPC caller sees SERVICE_UNAVAILABLE while the database is away', async () => {
  await link.cut();
  const caller = createCallerFactory(appRouter)(createContext(service.services, {}));
  try {
    await caller.campuses.list({});
    assert.unreachable('the call should fail');
  } catch (error) {
    assert.instance(error, TRPCError);
    assert.is((error as TRPCError).code, 'SERVICE_UNAVAILABLE');
  }
});

test.run();
