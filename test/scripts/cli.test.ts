import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { COMMANDS, HELP, parseCli, UsageError } from '../../scripts/cli/args.ts';
import { runCommand, type CliIo } from '../../scripts/cli/commands.ts';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { employ, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('npm run cli: bulk work through the same operations');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const progress: (string | number)[] = [];
  const value: CliIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    progress: { start: (n) => progress.push(`start ${n}`), update: (n) => progress.push(n), stop: () => progress.push('stop') },
  };
  return { value, out, err, progress };
}

const csvFile = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'cli-test-')), 'in.csv');
  writeFileSync(path, text);
  return path;
};

test('the arguments: --help lists every command with an example; mistakes are usage errors naming the problem', () => {
  for (const c of COMMANDS) {
    assert.ok(HELP.includes(c.name), c.name);
    assert.ok(HELP.includes(c.example), c.example);
  }
  const usage = (argv: string[]) => {
    try {
      parseCli(argv);
    } catch (e) {
      assert.instance(e, UsageError);
      return (e as Error).message;
    }
    throw new Error('no usage error');
  };
  assert.is(usage(['--help']), HELP);
  assert.match(usage(['frobnicate']), 'unknown command "frobnicate"');
  assert.match(usage(['enrol', '12']), 'enrol takes <unit id> <students.csv>');
  assert.match(usage(['enrol', 'x', 'a.csv']), 'unit id must be a positive whole number');
  assert.match(usage(['rollover', '12']), 'rollover needs --teaching-period');
  assert.match(usage(['enrol', '12', 'a.csv', '--batch', '0']), '--batch must be a positive whole number');
  assert.equal(parseCli(['enrol', '12', 'a.csv', '--as=aconvenor', '--batch', '2']), {
    command: 'enrol',
    args: ['12', 'a.csv'],
    as: 'aconvenor',
    batch: 2,
    options: {},
  });
});

test('enrol uploads the unit CSV in batches with progress, prints the summary, exits 0; a failed row makes it exit 1 with the row in the table', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const rows = ['unit_code,username,student_id,first_name,last_name,email'];
  for (let i = 1; i <= 5; i++) rows.push(`SIT101,new${i},s${i},New,Student${i},new${i}@example.edu`);
  const ok = io();
  const code = await runCommand(
    env.services,
    parseCli(['enrol', String(unit), csvFile(`${rows.join('\n')}\n`), '--as', 'aconvenor', '--batch', '2']),
    ok.value,
  );
  assert.is(code, 0, ok.out.join('\n'));
  assert.equal(ok.progress, ['start 5', 2, 4, 5, 'stop']);
  assert.is(ok.out[0], 'success 5, ignored 0, errors 0');
  const enrolled = await db(env.orm.em.fork())
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('unit_id', '=', unit)
    .executeTakeFirstOrThrow();
  assert.is(Number(enrolled.n), 5);

  const bad = io();
  const failed = await runCommand(
    env.services,
    parseCli(['enrol', String(unit), csvFile('unit_code,username\nSIT101,\nSIT101,new1\n'), '--as', 'aconvenor']),
    bad.value,
  );
  assert.is(failed, 1);
  assert.is(bad.out[0], 'success 0, ignored 0, errors 2', 'a missing username and a missing e-mail');
  assert.ok(
    bad.out.some((l) => l.startsWith('error')),
    bad.out.join('\n'),
  );
});

test('a command is refused for a user the operation refuses (a tutor cannot enrol), and export-grades writes the CSV file', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const refused = await runCommand(env.services, parseCli(['enrol', String(unit), csvFile('unit_code,username\n'), '--as', 'atutor']), io().value).catch(
    (e: Error) => e,
  );
  assert.instance(refused, Error);
  const out = join(mkdtempSync(join(tmpdir(), 'cli-grades-')), 'grades.csv');
  const done = io();
  assert.is(await runCommand(env.services, parseCli(['export-grades', String(unit), '--out', out, '--as', 'aadmin']), done.value), 0);
  assert.match(readFileSync(out, 'utf8').split('\n')[0]!, /username/i);
});

test('import-users creates the users of the users CSV and reports the rows it ignored', async () => {
  const csv =
    'email,first_name,last_name,username,nickname,role,student_id\n' +
    'nu1@example.edu,Nu,One,nu1,,Student,s9001\n' +
    'nu2@example.edu,Nu,Two,nu2,,Tutor,\n' +
    'astudent@example.edu,A,Student,astudent,,Student,\n';
  const run = io();
  assert.is(await runCommand(env.services, parseCli(['import-users', csvFile(csv), '--as', 'aadmin']), run.value), 0, run.out.join('\n'));
  assert.is(run.out[0], 'success 2, ignored 1, errors 0');
  assert.ok(
    run.out.some((l) => l.startsWith('ignored') && l.includes('astudent')),
    run.out.join('\n'),
  );
  const users = await db(env.orm.em.fork()).selectFrom('users').select('username').where('username', 'in', ['nu1', 'nu2']).execute();
  assert.is(users.length, 2);
});

test('`npm run cli -- --help` exits 0 and prints the commands; a wrong command exits 2', () => {
  const tsx = resolve('node_modules/tsx/dist/cli.mjs');
  const help = spawnSync(process.execPath, [tsx, 'scripts/cli.ts', '--help'], { encoding: 'utf8', timeout: 30_000 });
  assert.is(help.status, 0, help.stderr);
  for (const c of COMMANDS) assert.ok(help.stdout.includes(c.name), c.name);
  const wrong = spawnSync(process.execPath, [tsx, 'scripts/cli.ts', 'frobnicate'], { encoding: 'utf8', timeout: 30_000 });
  assert.is(wrong.status, 2);
  assert.match(wrong.stderr, 'unknown command');
});

test.run();
