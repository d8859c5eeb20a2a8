// Compares the spec's operation list with the routes the service registers, and prints the
// README's "implemented / not yet" tables. Usage: npm run -s coverage [-- --markdown]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { restRoutes } from '../compat/routes.ts';
import { appRouter } from '../src/routers/index.ts';

interface SpecEndpoint {
  section: string;
  method: string;
  path: string;
}

const specPath = resolve(import.meta.dirname, '../../shared/spec/endpoints.json');
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as SpecEndpoint[];
const shape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
const served = new Set(restRoutes(appRouter).map((r) => shape(r.method, r.url.replace(/:([A-Za-z_]+)/g, '{$1}'))));

const bySection = new Map<string, { done: SpecEndpoint[]; todo: SpecEndpoint[] }>();
for (const e of spec) {
  const entry = bySection.get(e.section) ?? { done: [], todo: [] };
  (served.has(shape(e.method, e.path)) ? entry.done : entry.todo).push(e);
  bySection.set(e.section, entry);
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
