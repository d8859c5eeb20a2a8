// Assessment steps (docs/assessment-steps.md): the step routes' role rules, the 403 while automated
// assessment is off, bad input, and steps carried by rollover and the task-definition CSV.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { readCsv } from '../../src/domain/csv.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST overseer steps');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'P1', { assessmentEnabled: true });
  const off = await seedTaskDefinition(env, unit, 'P2');
  return { unit, td, off };
}

const stepsUrl = (unit: number, td: number) => `/api/units/${unit}/task_definitions/${td}/overseer_steps`;
const STEP = {
  name: 'sum',
  run_command: 'sh sum.sh',
  expected_output_file: 'expected.txt',
  feedback_message: 'Check the sum',
  status_on_failure: 'fix_and_resubmit',
};

const create = (as: Actor, unit: number, td: number, step: Record<string, unknown> = STEP) =>
  api(env, 'POST', stepsUrl(unit, td), { as: as.creds, json: { overseer_step: step } });

test('the convenor adds a step (JSON); defaults fill the rest; staff list the steps in order, students may not', async () => {
  const w = await world();
  const res = await create(people.convenor, w.unit, w.td);
  assert.is(res.status, 201, res.text);
  assert.equal(
    {
      name: res.body.name,
      td: res.body.task_definition_id,
      sort_order: res.body.sort_order,
      timeout_ms: res.body.timeout_ms,
      enabled: res.body.enabled,
      comparison: res.body.output_comparison,
      on_failure: res.body.status_on_failure,
      on_success: res.body.status_on_success,
      show_stdout: res.body.show_stdout,
    },
    {
      name: 'sum',
      td: w.td,
      sort_order: 0,
      timeout_ms: 30000,
      enabled: true,
      comparison: 'exact',
      on_failure: 'fix_and_resubmit',
      on_success: null,
      show_stdout: false,
    },
  );
  const second = await create(people.convenor, w.unit, w.td, { name: 'build', run_command: 'make' });
  assert.is(second.body.sort_order, 1, 'a new step goes after the last');
  const list = await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.tutor.creds });
  assert.is(list.status, 200, list.text);
  assert.equal(
    list.body.map((s: { name: string }) => s.name),
    ['sum', 'build'],
  );
  assert.is((await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.student.creds })).status, 403);
});

test('bracketed form keys work as the web client sends them, with strings for booleans and numbers', async () => {
  const w = await world();
  const res = await api(env, 'POST', stepsUrl(w.unit, w.td), {
    as: people.admin.creds,
    form: {
      'overseer_step[name]': 'hello',
      'overseer_step[run_command]': 'echo hello',
      'overseer_step[timeout_ms]': '2500',
      'overseer_step[show_stdout]': 'true',
      'overseer_step[halt_on_failure]': '1',
      'overseer_step[output_comparison]': 'whitespace',
      'overseer_step[status_on_success]': '',
    },
  });
  assert.is(res.status, 201, res.text);
  assert.equal(
    [res.body.timeout_ms, res.body.show_stdout, res.body.halt_on_failure, res.body.output_comparison, res.body.status_on_success],
    [2500, true, true, 'whitespace', null],
  );
});

test('only a convenor of the unit or an admin changes steps; tutors, students and other convenors get 403', async () => {
  const w = await world();
  const outsider = await signedIn(env, 'outsider', 'Convenor');
  const id = (await create(people.convenor, w.unit, w.td)).body.id;
  for (const who of [people.tutor, people.student, outsider]) {
    assert.is((await create(who, w.unit, w.td, { name: 'x', run_command: 'y' })).status, 403, who.creds.username);
    assert.is((await api(env, 'PUT', `${stepsUrl(w.unit, w.td)}/${id}`, { as: who.creds, json: { overseer_step: { name: 'z' } } })).status, 403);
    const del = await api(env, 'DELETE', `/api/overseer_steps/${id}`, { as: who.creds });
    assert.is(del.status, 403, del.text);
    assert.match(del.body.error, /Not authorised/);
  }
  const steps = await db(env.orm.em.fork()).selectFrom('overseer_steps').select(['name']).execute();
  assert.equal(steps, [{ name: 'sum' }], 'nothing changed');
  assert.is((await create(people.admin, w.unit, w.td, { name: 'by admin', run_command: 'true' })).status, 201);
});

test('403 while automated assessment is off for the definition, for every change', async () => {
  const w = await world();
  const res = await create(people.convenor, w.unit, w.off);
  assert.is(res.status, 403);
  assert.is(res.body.error, 'Automated assessment is not enabled for this task definition');
  const id = (await create(people.convenor, w.unit, w.td)).body.id;
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ assessment_enabled: false }).where('id', '=', w.td).execute();
  assert.is((await api(env, 'PUT', `${stepsUrl(w.unit, w.td)}/${id}`, { as: people.convenor.creds, json: { overseer_step: { name: 'z' } } })).status, 403);
  assert.is((await api(env, 'DELETE', `/api/overseer_steps/${id}`, { as: people.convenor.creds })).status, 403);
  // Listing still works: the steps are kept while assessment is off.
  assert.is((await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.convenor.creds })).body.length, 1);
});

test('bad input: 400 naming what is wrong, and nothing written', async () => {
  const w = await world();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...STEP, status_on_failure: 'done' }, /status_on_failure/],
    [{ ...STEP, status_on_success: 'passed' }, /status_on_success/],
    [{ ...STEP, timeout_ms: 0 }, /Timeout ms must be an integer from 1 to 600000/],
    [{ ...STEP, timeout_ms: 600_001 }, /Timeout ms/],
    [{ ...STEP, timeout_ms: 'soon' }, /timeout_ms/],
    [{ ...STEP, name: '   ' }, /name/],
    [{ ...STEP, name: 'x'.repeat(256) }, /name/],
    [{ ...STEP, run_command: '' }, /run_command/],
    [{ name: 'a' }, /run_command/],
    [{ ...STEP, stdin_input_file: '../../etc/passwd' }, /Stdin input file must be a plain file name/],
    [{ ...STEP, expected_output_file: '/etc/shadow' }, /Expected output file must be a plain file name/],
    [{ ...STEP, output_comparison: 'fuzzy' }, /output_comparison/],
    [{ ...STEP, enabled: 'perhaps' }, /enabled/],
  ];
  for (const [step, message] of cases) {
    const res = await create(people.convenor, w.unit, w.td, step);
    assert.is(res.status, 400, `${JSON.stringify(step)}: ${res.text}`);
    assert.match(res.body.error, message, JSON.stringify(step));
  }
  const none = await api(env, 'POST', stepsUrl(w.unit, w.td), { as: people.convenor.creds, json: {} });
  assert.is(none.status, 400, none.text);
  assert.equal(await db(env.orm.em.fork()).selectFrom('overseer_steps').select('id').execute(), []);

  assert.is((await create(people.convenor, w.unit, w.td)).status, 201);
  const twice = await create(people.convenor, w.unit, w.td);
  assert.is(twice.status, 400);
  assert.match(twice.body.error, /Name 'sum' is already taken/);
});

test('update changes only the fields given (null clears); unknown steps and definitions are 404; delete removes the step', async () => {
  const w = await world();
  const step = (await create(people.convenor, w.unit, w.td)).body;
  const other = (await create(people.convenor, w.unit, w.td, { name: 'other', run_command: 'true' })).body;
  const url = `${stepsUrl(w.unit, w.td)}/${step.id}`;
  const res = await api(env, 'PUT', url, {
    as: people.convenor.creds,
    json: { overseer_step: { timeout_ms: 5000, status_on_failure: null, show_stdin: true } },
  });
  assert.is(res.status, 200, res.text);
  assert.equal(
    [res.body.name, res.body.run_command, res.body.timeout_ms, res.body.status_on_failure, res.body.show_stdin, res.body.feedback_message],
    ['sum', 'sh sum.sh', 5000, null, true, 'Check the sum'],
  );
  const clash = await api(env, 'PUT', url, { as: people.convenor.creds, json: { overseer_step: { name: 'other' } } });
  assert.is(clash.status, 400);
  const bad = await api(env, 'PUT', url, { as: people.convenor.creds, json: { overseer_step: { run_command: ' ' } } });
  assert.is(bad.status, 400);
  assert.is((await api(env, 'PUT', `${stepsUrl(w.unit, w.td)}/999999`, { as: people.convenor.creds, json: { overseer_step: {} } })).status, 404);
  // A step is addressed under its own definition only.
  const elsewhere = await seedTaskDefinition(env, w.unit, 'P3', { assessmentEnabled: true });
  assert.is((await api(env, 'PUT', `${stepsUrl(w.unit, elsewhere)}/${step.id}`, { as: people.convenor.creds, json: { overseer_step: {} } })).status, 404);
  assert.is((await create(people.convenor, w.unit, 999_999)).status, 404);

  const del = await api(env, 'DELETE', `/api/overseer_steps/${step.id}`, { as: people.convenor.creds });
  assert.is(del.status, 200, del.text);
  assert.equal(del.body, { id: step.id, deleted: true });
  assert.is((await api(env, 'DELETE', `/api/overseer_steps/${step.id}`, { as: people.convenor.creds })).status, 404);
  assert.is((await api(env, 'DELETE', '/api/overseer_steps/99999999999', { as: people.convenor.creds })).status, 404);
  const left = await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.convenor.creds });
  assert.equal(
    left.body.map((s: { id: number }) => s.id),
    [other.id],
  );
});

test('rollover copies the steps with every setting; the CSV carries them as JSON and an import replaces them', async () => {
  const w = await world();
  await create(people.convenor, w.unit, w.td, { ...STEP, show_stdout: true, output_comparison: 'whitespace', timeout_ms: 1234 });
  await create(people.convenor, w.unit, w.td, { name: 'second', run_command: 'true', halt_on_success: true });
  const settings = (rows: Record<string, unknown>[]) => rows.map(({ id: _i, task_definition_id: _t, ...rest }) => rest);
  const before = (await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.convenor.creds })).body;

  const roll = await api(env, 'POST', `/api/units/${w.unit}/rollover`, { as: people.admin.creds, json: { start_date: '2031-03-03', end_date: '2031-06-27' } });
  assert.is(roll.status, 201, roll.text);
  const copy = await db(env.orm.em.fork())
    .selectFrom('task_definitions')
    .select('id')
    .where('unit_id', '=', roll.body.id)
    .where('abbreviation', '=', 'P1')
    .executeTakeFirstOrThrow();
  const copied = (await api(env, 'GET', stepsUrl(roll.body.id, copy.id), { as: people.admin.creds })).body;
  assert.equal(settings(copied), settings(before));

  const download = await api(env, 'GET', '/api/csv/task_definitions', { as: people.convenor.creds, query: { unit_id: w.unit } });
  assert.is(download.status, 200, download.text);
  const { rows } = await readCsv(download.text);
  const p1 = rows.find((r) => r.abbreviation === 'P1')!;
  assert.equal(JSON.parse(p1.overseer_steps), settings(before));
  assert.is(rows.find((r) => r.abbreviation === 'P2')!.overseer_steps, '[]');

  // Re-import with P1's steps replaced by one; P2's cell left blank keeps its (no) steps.
  const edited = download.text.replace(
    p1.overseer_steps.replaceAll('"', '""'),
    JSON.stringify([{ name: 'only', run_command: 'echo hi' }]).replaceAll('"', '""'),
  );
  assert.ok(edited !== download.text);
  const up = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(w.unit), file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(edited) } },
  });
  assert.is(up.status, 201, up.text);
  assert.equal(up.body.errors, []);
  const after = (await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.convenor.creds })).body;
  assert.equal(
    after.map((s: { name: string; timeout_ms: number }) => [s.name, s.timeout_ms]),
    [['only', 30000]],
  );

  // A bad cell is that row's error, and leaves its steps alone.
  const broken = download.text.replace(
    p1.overseer_steps.replaceAll('"', '""'),
    JSON.stringify([{ name: 'x', run_command: 'y', timeout_ms: -1 }]).replaceAll('"', '""'),
  );
  const refused = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(w.unit), file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(broken) } },
  });
  assert.is(refused.status, 201, refused.text);
  assert.match(refused.body.errors[0].message, /overseer_steps 'x': Timeout ms/);
  assert.equal((await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.convenor.creds })).body.length, 1);

  // A file written before the column existed still imports, and leaves the steps alone.
  const [header, ...lines] = download.text.split('\n');
  const columns = header.split(',');
  assert.is(columns.at(-1)!.trim(), 'overseer_steps');
  const withoutColumn = [columns.slice(0, -1).join(','), ...lines.map((l) => l.replace(/,("[^"]*(""[^"]*)*"|[^,]*)\r?$/, ''))].join('\n');
  const old = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(w.unit), file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(withoutColumn) } },
  });
  assert.is(old.status, 201, old.text);
  assert.equal([old.body.errors, old.body.success.length], [[], 2]);
  assert.equal((await api(env, 'GET', stepsUrl(w.unit, w.td), { as: people.convenor.creds })).body.length, 1);
});

test.run();
