// No role is spelled out outside src/policy (and schema/, which defines the vocabulary): who may do
// what is asked of the policy tables (`canInUnit(role, 'update')`, never `role === 'Convenor'`), and
// a role that is stored or handed on (a new user's, a unit role row, an automatic change's actor)
// comes from src/policy's ROLE constants. docs/authorisation.md states the rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('architecture: no role literal outside src/policy');

const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['src', 'compat', 'workers', 'scripts'];
// The REST types are generated from the OpenAPI document (npm run generate:client-types), whose
// enums name the roles a client reads; they are the document's words, not a rule of the service.
const EXEMPT = ['src/policy/', 'src/client/rest-types.ts'];
/** A role name as a whole string literal, in any quotes: 'Tutor', "Admin", `Student`, 'Auditor'. */
const ROLE_LITERAL = /(['"`])(Convenor|Tutor|Student|Admin|Auditor)\1/;
/** A person's name that happens to be a role's (the demo's "Morgan Convenor") is not a role. */
const PERSON_NAME = /\b(first|last)Name: (['"`])\w+\2/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

test('no file outside src/policy spells out a role', () => {
  const files = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .map((path) => relative(ROOT, path).split(sep).join('/'))
    .filter((path) => !EXEMPT.some((prefix) => path.startsWith(prefix)));
  // The scan must see the code it guards, or it would pass by finding nothing.
  assert.ok(files.length > 200, `only ${files.length} files scanned`);
  const found = files.flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, i) => (ROLE_LITERAL.test(line.replace(PERSON_NAME, '')) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.equal(found, [], `role literals outside src/policy (use a policy action, or ROLE from src/policy):\n${found.join('\n')}`);
});

test.run();
