// Compares the spec's operation list with the routes the service registers, and prints the
// README's "implemented / not yet" tables. Usage: npm run -s coverage [-- --markdown]
//
// The operation list is scripts/spec/endpoints.json, a verbatim copy of the spec's
// `spec/endpoints.json` (the table behind `spec/service-spec.md` §4), kept here so the
// project works without the spec beside it. When `../shared/spec/endpoints.json` is there
// and differs, a note on stderr says the copy is stale.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { restRoutes } from '../src/trpc/rest-routes.ts';
import { appRouter } from '../src/routers/index.ts';
import { sectionOf, type SpecEndpoint } from './spec/sections.ts';

const specPath = resolve(import.meta.dirname, 'spec/endpoints.json');
const upstreamPath = resolve(import.meta.dirname, '../../shared/spec/endpoints.json');
const text = readFileSync(specPath, 'utf8');
if (existsSync(upstreamPath) && readFileSync(upstreamPath, 'utf8') !== text) {
  console.error(`note: ${upstreamPath} differs from scripts/spec/endpoints.json; copy it over to refresh the list`);
}
const spec = JSON.parse(text) as SpecEndpoint[];
const shape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
const served = new Set(restRoutes(appRouter).map((r) => shape(r.method, r.url.replace(/:([A-Za-z_]+)/g, '{$1}'))));

const bySection = new Map<string, { done: SpecEndpoint[]; todo: SpecEndpoint[] }>();
// Sections in the spec's order, before any operation is filed, so a regrouped one keeps its place.
for (const e of spec) if (sectionOf(e, spec) === e.section) bySection.set(e.section, bySection.get(e.section) ?? { done: [], todo: [] });
for (const e of spec) {
  const entry = bySection.get(sectionOf(e, spec))!;
  (served.has(shape(e.method, e.path)) ? entry.done : entry.todo).push(e);
}
const done = spec.filter((e) => served.has(shape(e.method, e.path))).length;

if (process.argv.includes('--markdown')) {
  console.log(`${done} of ${spec.length} spec operations are implemented.\n`);
  console.log('| Section | Implemented | Not yet |');
  console.log('|---|---|---|');
  for (const [section, { done: d, todo }] of bySection) {
    const list = (xs: SpecEndpoint[]) => (xs.length ? xs.map((e) => `\`${e.method} ${e.path}\``).join('<br>') : '—');
    console.log(`| ${section} | ${list(d)} | ${list(todo)} |`);
  }
} else {
  console.log(`${done} of ${spec.length} spec operations implemented`);
  for (const [section, { done: d, todo }] of bySection) console.log(`${section}: ${d.length} done, ${todo.length} to do`);
}
