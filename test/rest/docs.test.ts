import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { restRoutes } from '../../src/trpc/rest-routes.ts';
import { appRouter } from '../../src/routers/index.ts';
import { resetDatabase, testEnv } from '../support/env.ts';
import { api } from '../support/http.ts';

const test = suite('REST API documentation');
let env: Awaited<ReturnType<typeof testEnv>>;

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
});

/** `/api/units/:unit_id/outcomes/:id` as OpenAPI writes it: `/api/units/{unit_id}/outcomes/{id}`. */
// A route's wildcard (`*`, RestMeta.tail) is documented as its tail parameter.
const openApiPath = (url: string, tail?: string) => (tail && url.endsWith('/*') ? `${url.slice(0, -1)}{${tail}}` : url).replace(/:([A-Za-z0-9_]+)/g, '{$1}');

test('GET /api/openapi.json is an OpenAPI 3 document, public and JSON', async () => {
  const res = await api(env, 'GET', '/api/openapi.json');
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), 'application/json');
  assert.match(res.body.openapi, /^3\.\d+\.\d+$/);
  assert.type(res.body.info?.title, 'string');
  assert.type(res.body.info?.version, 'string');
  assert.type(res.body.paths, 'object');
  // The same document without the suffix, as the compat layer treats `.json` as the plain route.
  const plain = await api(env, 'GET', '/api/openapi');
  assert.equal(plain.body, res.body);
});

test('every REST route is documented with its method and path', async () => {
  const doc = (await api(env, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const routes = restRoutes(appRouter).filter((route) => !route.alias);
  assert.ok(routes.length > 0);
  const missing = routes
    .filter((route) => !doc.paths[openApiPath(route.url, route.tail)]?.[route.method.toLowerCase()])
    .map((route) => `${route.method} ${openApiPath(route.url, route.tail)} (${route.procedure})`);
  assert.equal(missing, []);
});

test('documented operations are those the REST layer serves, path parameters included', async () => {
  const doc = (await api(env, 'GET', '/api/openapi.json')).body as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  };
  const served = new Set(restRoutes(appRouter).map((r) => `${r.method.toLowerCase()} ${openApiPath(r.url, r.tail)}`));
  const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      assert.ok(served.has(`${method} ${path}`), `${method.toUpperCase()} ${path} is documented but not served`);
      const named = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (operation.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      assert.equal(declared, named, `${method.toUpperCase()} ${path} declares its path parameters`);
    }
  }
});

test('the documentation explains how to authenticate', async () => {
  const doc = (await api(env, 'GET', '/api/openapi.json')).body;
  const schemes = doc.components?.securitySchemes ?? {};
  const headers = Object.values(schemes as Record<string, { in?: string; name?: string }>)
    .filter((s) => s.in === 'header')
    .map((s) => s.name);
  assert.ok(headers.includes('Username'), 'Username header scheme');
  assert.ok(headers.includes('Auth-Token') || headers.includes('Auth_Token'), 'token header scheme');
  // A protected operation names the schemes; a public one does not need them.
  assert.ok(doc.paths['/api/unit_roles'].get.security?.length > 0, 'GET /api/unit_roles is protected');
  assert.not.ok(doc.paths['/api/campuses'].get.security?.length, 'GET /api/campuses is public');
});

test('GET /api/docs and /api/docs/ serve an HTML page that loads the document', async () => {
  const doc = (await api(env, 'GET', '/api/openapi.json')).body;
  for (const url of ['/api/docs', '/api/docs/']) {
    const res = await api(env, 'GET', url);
    assert.is(res.status, 200, url);
    assert.match(String(res.headers['content-type']), 'text/html', url);
    assert.match(res.text, /<html/i, url);
    // The page runs an initializer script that points the viewer at the JSON document.
    const scripts = [...res.text.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
    const initializer = scripts.find((src) => src.includes('initializer'));
    assert.ok(initializer, `${url} loads an initializer script: ${scripts.join(', ')}`);
    const script = await api(env, 'GET', new URL(initializer!, 'http://host/api/docs/').pathname);
    assert.is(script.status, 200);
    const target = /url:\s*resolveUrl\('([^']+)'\)/.exec(script.text)?.[1] ?? /url:\s*["']([^"']+)["']/.exec(script.text)?.[1];
    assert.ok(target, 'the initializer names the document address');
    // The viewer resolves the address against the page, which it treats as a folder.
    const documentUrl = new URL(target!, 'http://host/api/docs/').pathname;
    const served = await api(env, 'GET', documentUrl);
    assert.is(served.status, 200, documentUrl);
    assert.equal(served.body, doc, `${documentUrl} is the same document as /api/openapi.json`);
  }
});

test('the documentation pages are reachable across origins like the rest of the API', async () => {
  const res = await api(env, 'GET', '/api/openapi.json', { headers: { Origin: 'http://localhost:4200' } });
  assert.is(res.headers['access-control-allow-origin'], '*');
});

test.run();
