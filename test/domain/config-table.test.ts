// The README's configuration table against the schema of the environment (src/config/schema.ts):
// the same variables, each with the same default and meaning, so neither can drift from the other.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { documentedVariables } from '../../src/config/schema.ts';

const test = suite('configuration table');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HEADER = '| Variable | Default | Meaning |';

/**
 * In the table but not service settings, so not in the schema: each is read, with its own default,
 * by the one tool it names in its meaning.
 */
const TOOL_VARIABLES: Record<string, { readIn: string[]; meaningStarts: string }> = {
  TEST_TIMEOUT_SECONDS: { readIn: ['test'], meaningStarts: 'Tests only:' },
  DEMO_PASSWORD: { readIn: ['scripts'], meaningStarts: '`npm run seed:demo` only:' },
};

interface Row {
  line: string;
  names: string[];
  defaultLabel: string;
  meaning: string;
}

interface Table {
  file: string;
  /** The heading the table sits under. */
  heading: string;
  rows: Row[];
}

/** Markdown files that may hold such tables: the README and the pages under docs/. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.map((f) => join('docs', f))];
}

function row(line: string): Row {
  const cells = /^\| (.+?) \| (.+?) \| (.+) \|$/.exec(line);
  assert.ok(cells, `a row of three cells: ${line}`);
  return { line, names: [...cells[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]), defaultLabel: cells[2], meaning: cells[3] };
}

/** Every table with the `| Variable | Default | Meaning |` header. */
function variableTables(): Table[] {
  return markdownFiles().flatMap((file) => {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    const tables: Table[] = [];
    let heading = '';
    lines.forEach((line, i) => {
      if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
      if (line !== HEADER) return;
      const end = lines.findIndex((next, j) => j > i && !next.startsWith('|'));
      tables.push({ file, heading, rows: lines.slice(i + 2, end < 0 ? undefined : end).map(row) });
    });
    return tables;
  });
}

/** The complete table, the one under a "Configuration" heading (in the README, or on a docs/ page if it moves there). */
function configurationTable(): Row[] {
  const tables = variableTables().filter((t) => t.heading === 'Configuration');
  assert.is(tables.length, 1, `one "${HEADER}" table under a "Configuration" heading in README.md or docs/`);
  return tables[0].rows;
}

/** Whether some .ts file under `folder` reads `process.env.NAME`. */
function readUnder(folder: string, name: string): boolean {
  const files = readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const read = new RegExp(`process\\.env\\.${name}\\b`);
  return files.some((f) => read.test(readFileSync(join(ROOT, folder, f), 'utf8')));
}

test('every variable in the schema is in the table, with its default and meaning', () => {
  const rows = configurationTable();
  for (const variable of documentedVariables()) {
    const expected = `| \`${variable.name}\` | ${variable.defaultLabel} | ${variable.meaning} |`;
    const row = rows.find((r) => r.names.includes(variable.name));
    assert.ok(row, `${variable.name} is missing from the table; its row is:\n${expected}`);
    assert.is(row.defaultLabel, variable.defaultLabel, `${variable.name}'s default, as the schema has it:\n${expected}`);
    assert.is(row.meaning, variable.meaning, `${variable.name}'s meaning, as the schema describes it:\n${expected}`);
  }
});

test('every variable in the table is in the schema, or is one of the few a tool reads for itself', () => {
  const inSchema = new Set(documentedVariables().map((v) => v.name));
  for (const row of configurationTable()) {
    assert.ok(row.names.length > 0, `a row that names a variable: ${row.line}`);
    for (const name of row.names) {
      if (inSchema.has(name)) continue;
      const tool = TOOL_VARIABLES[name];
      assert.ok(tool, `${name} is in the table but src/config/schema.ts does not read it`);
      assert.ok(row.meaning.startsWith(tool.meaningStarts), `${name}'s meaning says who reads it: ${row.line}`);
      assert.ok(
        tool.readIn.some((folder) => readUnder(folder, name)),
        `${name} is still read under ${tool.readIn.join(' or ')}`,
      );
    }
  }
  for (const name of Object.keys(TOOL_VARIABLES)) assert.not.ok(inSchema.has(name), `${name} is a tool's, not a service setting`);
});

test("the operating pages' own tables name variables of the schema, with the same literal defaults", () => {
  const schema = new Map(documentedVariables().map((v) => [v.name, v]));
  for (const table of variableTables().filter((t) => t.heading !== 'Configuration')) {
    for (const { names, defaultLabel, line } of table.rows) {
      for (const name of names) {
        const variable = schema.get(name);
        assert.ok(variable, `${table.file}: ${name} is not read by src/config/schema.ts`);
        // A computed default ("cores − 1") may be worded for the page; a value must be the value.
        if (variable.defaultLabel.startsWith('`')) assert.is(defaultLabel, variable.defaultLabel, `${table.file}: ${line}`);
      }
    }
  }
});

test.run();
