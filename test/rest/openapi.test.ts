import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { z } from 'zod';
import { restRoutes } from '../../src/trpc/rest-routes.ts';
import { buildOpenApiDocument } from '../../src/openapi.ts';
import { appRouter } from '../../src/routers/index.ts';
import { authedProcedure, publicProcedure, router } from '../../src/trpc/core.ts';
import { formBool, idField, requiredString } from '../../src/trpc/fields.ts';
import { fileResult, uploadedFile } from '../../src/lib/files.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';

// The document is what client generators and API explorers read; each test holds it to what
// the REST layer really does.

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  format?: string;
  $ref?: string;
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
}
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema; encoding?: Record<string, { style: string }> }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { name: string }>; schemas: Record<string, Schema> };
}

const test = suite('REST API documentation: the OpenAPI document is valid and truthful');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

// A route's wildcard (`*`, RestMeta.tail) is documented as its tail parameter.
const openApiPath = (url: string, tail?: string) => (tail && url.endsWith('/*') ? `${url.slice(0, -1)}{${tail}}` : url).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const served = async (): Promise<Document> => (await api(env, 'GET', '/api/openapi.json')).body;
const documented = () => restRoutes(appRouter).filter((route) => !route.alias);
const operationOf = (doc: Document, route: { method: string; url: string; tail?: string }) =>
  doc.paths[openApiPath(route.url, route.tail)]![route.method.toLowerCase()]!;

test('the served document passes a real OpenAPI validator', async () => {
  const doc = await served();
  try {
    await SwaggerParser.validate(structuredClone(doc) as never);
  } catch (error) {
    assert.unreachable(String(error).slice(0, 2000));
  }
});

test('openapi-typescript generates types in which the campus create body requires every field', async () => {
  const types = astToString(await openapiTS(structuredClone(await served()) as never));
  const start = types.indexOf('"campuses-create": {');
  assert.ok(start >= 0, 'the campus create operation has types');
  const create = types.slice(start, types.indexOf('responses:', start));
  for (const content of ['application/json', 'application/x-www-form-urlencoded']) {
    assert.match(
      create,
      new RegExp(
        `"${content}": \\{\\s*campus: \\{\\s*name: string;\\s*(/\\*\\*[^*]*\\*/\\s*)?` +
          `mode: "timetable" \\| "automatic" \\| "manual";\\s*abbreviation: string;\\s*active: boolean;`,
      ),
      content,
    );
  }
  // Path parameters are required in the generated client too.
  assert.match(types, /"campuses-update": \{\s*parameters: \{\s*query\?: never;\s*header\?: never;\s*path: \{\s*id: number;/);
});

test('each operation documents the success status the REST layer answers with, 204 without a body', async () => {
  const doc = await served();
  for (const route of documented()) {
    const responses = operationOf(doc, route).responses;
    // A redirect (e.g. the LTI login's 302) is that route's success; a page that may also redirect (the LTI launch) has both.
    const successes = Object.keys(responses).filter((status) => /^[23]/.test(status));
    assert.equal(successes, [String(route.status), ...(route.html && route.redirect ? ['302'] : [])], `${route.method} ${route.url}`);
    if (route.status === 204) assert.is(responses['204']!.content, undefined, `${route.method} ${route.url} has no body`);
  }
  assert.ok(doc.paths['/api/campuses']!.post!.responses['201'], 'POST /api/campuses documents 201');
  const created = await api(env, 'POST', '/api/campuses', {
    as: people.admin.creds,
    json: { campus: { name: 'Burwood', mode: 'timetable', abbreviation: 'B', active: true } },
  });
  assert.is(created.status, 201);
  assert.ok(doc.paths['/api/campuses/{id}']!.delete!.responses['204'], 'DELETE /api/campuses/{id} documents 204');
  assert.ok(doc.paths['/api/teaching_periods/{teaching_period_id}/breaks']!.post!.responses['200'], 'break POST answers 200 as the spec says');
});

test('protected operations need both headers together, and only they answer 419 without them', async () => {
  const doc = await served();
  const schemes = Object.entries(doc.components.securitySchemes).map(([key, scheme]) => [key, scheme.name]);
  assert.equal(schemes.map(([, header]) => header).sort(), ['Auth-Token', 'Username']);
  const both = { [schemes[0]![0]!]: [], [schemes[1]![0]!]: [] };
  for (const route of documented()) {
    const operation = operationOf(doc, route);
    const url = route.url.replace(/:[A-Za-z0-9_]+/g, '1');
    const res = await api(env, route.method, url);
    if (operation.security?.length) {
      assert.equal(operation.security, [both], `${route.method} ${route.url}: one requirement naming both headers`);
      assert.is(res.status, 419, `${route.method} ${route.url} is documented as protected`);
    } else {
      assert.is.not(res.status, 419, `${route.method} ${route.url} is documented as public`);
    }
  }
});

test('request bodies are documented as JSON and as forms with bracketed keys, with the same fields', async () => {
  const doc = await served();
  let bodies = 0;
  for (const route of documented()) {
    const body = operationOf(doc, route).requestBody;
    if (!body) continue;
    bodies++;
    // Operations that take files are documented as multipart only (src/openapi.ts).
    if (route.upload) {
      assert.equal(Object.keys(body.content), ['multipart/form-data'], `${route.method} ${route.url}`);
      continue;
    }
    assert.equal(Object.keys(body.content).sort(), ['application/json', 'application/x-www-form-urlencoded'], `${route.method} ${route.url}`);
    assert.equal(body.content['application/x-www-form-urlencoded']!.schema, body.content['application/json']!.schema);
  }
  assert.ok(bodies > 10);
  const form = doc.paths['/api/campuses']!.post!.requestBody!.content['application/x-www-form-urlencoded']!;
  assert.equal(form.encoding?.campus?.style, 'deepObject', 'campus[name]=... is deepObject style');
  // And a form body sent as documented is accepted.
  const res = await api(env, 'POST', '/api/campuses', {
    as: people.admin.creds,
    form: { campus: { name: 'Online', mode: 'manual', abbreviation: 'O', active: 'false' } },
  });
  assert.is(res.status, 201);
});

/** The object a field holds once optional, default, nullable and preprocess wrappers are looked through. */
function objectWithin(schema: z.ZodType): z.ZodObject | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType };
  if (def.innerType) return objectWithin(def.innerType);
  if (def.type === 'pipe') return objectWithin(def.in!._zod.def.type === 'transform' ? def.out! : def.in!);
  return def.type === 'object' ? (schema as z.ZodObject) : undefined;
}

/** Where the document's `required` disagrees with what parsing really demands. */
function requiredMismatches(input: z.ZodObject, json: Schema | undefined, where: string, inHeaderInstead: string[] = []): string[] {
  if (!json?.properties) return [];
  const listed = new Set(json.required ?? []);
  return Object.entries(input.shape).flatMap(([key, field]) => {
    if (!json.properties![key]) return [];
    // A field that may come as a header instead is not required in the body alone.
    const demanded = !inHeaderInstead.includes(key) && !(field as z.ZodType).safeParse(undefined).success;
    const own = demanded === listed.has(key) ? [] : [`${where}.${key} is ${demanded ? 'required' : 'optional'} but documented otherwise`];
    const inner = objectWithin(field as z.ZodType);
    return inner ? [...own, ...requiredMismatches(inner, json.properties![key], `${where}.${key}`)] : own;
  });
}

test('required lists and parameters say exactly which fields a request must carry', async () => {
  const doc = await served();
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: z.ZodType[] } }>;
  const mismatches: string[] = [];
  for (const route of documented()) {
    const operation = operationOf(doc, route);
    const input = procedures[route.procedure]!._def.inputs[0] as z.ZodObject | undefined;
    if (!input) continue;
    const where = `${route.method} ${openApiPath(route.url, route.tail)}`;
    const body = operation.requestBody?.content['application/json']?.schema;
    mismatches.push(...requiredMismatches(input, body, `${where} body`, route.headerFields));
    for (const parameter of operation.parameters ?? []) {
      const field = input.shape[parameter.name] as z.ZodType | undefined;
      if (!field) continue;
      const demanded = !(parameter.in === 'header' && route.headerFields.includes(parameter.name)) && !field.safeParse(undefined).success;
      if (demanded !== !!parameter.required) mismatches.push(`${where} ${parameter.in} ${parameter.name} is ${demanded ? 'required' : 'optional'}`);
      if (parameter.in === 'path') assert.ok(parameter.required, `${where} path ${parameter.name} is required`);
    }
  }
  assert.equal(mismatches, []);
  const campus = doc.paths['/api/campuses']!.post!.requestBody!.content['application/json']!.schema.properties!.campus!;
  assert.equal(campus.required, ['name', 'mode', 'abbreviation', 'active']);
  // SAMLResponse comes in the body or as a header: each place says the other will do.
  const jwt = doc.paths['/api/auth/jwt']!.post!;
  assert.equal(jwt.parameters, [
    { in: 'header', name: 'SAMLResponse', schema: { type: 'string' }, description: 'Required here or as the body field `SAMLResponse`.' },
  ]);
  assert.is(jwt.requestBody!.content['application/json']!.schema.required, undefined);
});

test('errors are documented as {"error"} bodies, 419 for missing credentials', async () => {
  const doc = await served();
  assert.equal(doc.components.schemas.Error, {
    type: 'object',
    properties: { error: { type: 'string', description: 'What went wrong, for a person to read' } },
    required: ['error'],
  });
  const create = doc.paths['/api/campuses']!.post!.responses;
  assert.ok(create['419'] && !create['401'], 'missing credentials are 419');
  for (const status of ['400', '403', '413', '419', '503']) assert.is(create[status]!.content!['application/json']!.schema.$ref, '#/components/schemas/Error');
  assert.not.ok(doc.paths['/api/campuses']!.get!.responses['413'], 'a GET has no body to be too large');
  const refused = await api(env, 'POST', '/api/campuses', { json: {} });
  assert.is(refused.status, 419);
  assert.type(refused.body.error, 'string');
});

test('every status an operation can answer is documented: protected 403/419, a path record 404, sign-in 401/429, bodies 413', async () => {
  const doc = await served();
  for (const route of documented()) {
    const operation = operationOf(doc, route);
    const statuses = Object.keys(operation.responses);
    const where = `${route.method} ${route.url}`;
    for (const status of ['400', '503']) assert.ok(statuses.includes(status), `${where} documents ${status}`);
    if (operation.security?.length) for (const status of ['403', '419']) assert.ok(statuses.includes(status), `${where} documents ${status}`);
    if (route.url.includes(':')) assert.ok(statuses.includes('404'), `${where} documents 404`);
    if (operation.requestBody) assert.ok(statuses.includes('413'), `${where} documents 413`);
    for (const status of statuses.filter((s) => Number(s) >= 400)) {
      assert.is(operation.responses[status]!.content!['application/json']!.schema.$ref, '#/components/schemas/Error', `${where} ${status}`);
    }
  }
  const signIn = Object.keys(doc.paths['/api/auth']!.post!.responses);
  for (const status of ['401', '429']) assert.ok(signIn.includes(status), `sign-in documents ${status}`);
  assert.not.ok(signIn.includes('419'), 'sign-in is public: no 419');
  const wrong = await api(env, 'POST', '/api/auth', { json: { username: people.student.user.username, password: 'wrong' } });
  assert.is(wrong.status, 401);
  assert.type(wrong.body.error, 'string');
});

// Downloads, text answers and uploads come with later operations; a probe router documents one
// of each through the same generator.
const probe = router({
  sheet: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/{id}/sheet' }, rest: { file: true } })
    .input(z.object({ id: idField(), as_attachment: formBool().optional() }))
    .output(fileResult().meta({ contentMediaType: 'application/pdf' }))
    .query(() => {
      throw new Error('not called');
    }),
  archive: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/archive' }, rest: { file: true } })
    .input(z.object({}))
    .output(fileResult())
    .query(() => {
      throw new Error('not called');
    }),
  calendar: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/api/probe/text', protect: false }, rest: { text: true } })
    .input(z.object({ guid: requiredString() }))
    .output(z.string())
    .query(() => ''),
  upload: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/api/probe/{id}/upload' }, rest: { upload: {} } })
    .input(z.object({ id: idField(), file: uploadedFile(), comment: z.string().optional() }))
    .output(z.boolean())
    .mutation(() => true),
});

test('file answers are binary with their type, text answers text/plain, uploads multipart with binary files', async () => {
  const doc = buildOpenApiDocument(probe) as unknown as Document;
  await SwaggerParser.validate(structuredClone(doc) as never);
  assert.equal(doc.paths['/api/probe/{id}/sheet']!.get!.responses['200']!.content, {
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  });
  assert.equal(doc.paths['/api/probe/archive']!.get!.responses['200']!.content, {
    'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
  });
  assert.equal(doc.paths['/api/probe/text']!.get!.responses['200']!.content, { 'text/plain': { schema: { type: 'string' } } });
  assert.equal(doc.paths['/api/probe/text']!.get!.parameters, [{ in: 'query', name: 'guid', schema: { type: 'string' }, required: true }]);
  const upload = doc.paths['/api/probe/{id}/upload']!.post!;
  assert.equal(Object.keys(upload.requestBody!.content), ['multipart/form-data']);
  const schema = upload.requestBody!.content['multipart/form-data']!.schema;
  assert.equal(schema.properties!.file, { type: 'string', format: 'binary' });
  assert.equal(schema.required, ['file']);
  assert.ok(upload.responses['201'], 'an upload POST answers 201');
});

test.run();
