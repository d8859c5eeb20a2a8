import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sectionOf, type SpecEndpoint } from '../../scripts/spec/sections.ts';

const test = suite('npm run coverage: the spec operation list and its sections');
const copy = resolve(import.meta.dirname, '../../scripts/spec/endpoints.json');
const spec = JSON.parse(readFileSync(copy, 'utf8')) as SpecEndpoint[];

test('the spec operation list is kept in the repository, and matches the spec beside it when there is one', () => {
  assert.is(spec.length, 140);
  const upstream = resolve(import.meta.dirname, '../../../shared/spec/endpoints.json');
  if (existsSync(upstream)) assert.equal(spec, JSON.parse(readFileSync(upstream, 'utf8')));
});

test('operations the spec lists "with no payload detail" are filed under the section they belong to', () => {
  const filed = new Map(spec.map((e) => [`${e.method} ${e.path}`, sectionOf(e, spec)]));
  assert.is(filed.get('POST /api/users'), 'Users and students');
  assert.is(filed.get('GET /api/users/{id}'), 'Users and students');
  assert.is(filed.get('PUT /api/users/{id}'), 'Users and students');
  assert.is(filed.get('GET /api/users/tutors'), 'Users and students');
  assert.is(filed.get('GET /api/users/convenors'), 'Users and students');
  assert.is(filed.get('POST /api/units/{unit_id}/task_definitions'), 'Task definitions');
  assert.is(filed.get('DELETE /api/units/{unit_id}/task_definitions/{task_def_id}/task_sheet'), 'Task definitions');
  assert.is(filed.get('GET /api/units/{id}'), 'Units');
  assert.is(filed.get('GET /api/units/{id}/stats/task_status_pct'), 'Units');
  // Every operation lands in one of the spec's real sections.
  const sections = new Set(spec.map((e) => e.section).filter((s) => !s.endsWith('(no payload detail)')));
  assert.equal(
    [...filed.values()].filter((s) => !sections.has(s)),
    [],
  );
  // The rest keep the section the spec gave them.
  for (const e of spec) if (!e.section.endsWith('(no payload detail)')) assert.is(sectionOf(e, spec), e.section);
});

test.run();
