// Discussion prompts (docs/discussion-prompts.md): the prompt routes' role rules and bad input, the
// project's prompts for the tasks now in discuss or demonstrate (order, staff only, one statement),
// and prompts carried by rollover and the task-definition CSV (an import replaces them).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { readCsv } from '../../src/domain/csv.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST discussion prompts');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'P1');
  const other = await seedTaskDefinition(env, unit, 'P2');
  return { unit, project, td, other };
}

const url = (td: number | string) => `/api/task_definitions/${td}/discussion_prompts`;
const create = (as: Actor, td: number | string, body: Record<string, unknown>) => api(env, 'POST', url(td), { as: as.creds, json: body });
const prompts = () => db(env.orm.em.fork()).selectFrom('discussion_prompts').select(['task_definition_id', 'content', 'priority']).orderBy('id').execute();

test('convenors and tutors add prompts (JSON and form); staff list them by priority; the answer is the prompt', async () => {
  const w = await world();
  const res = await create(people.convenor, w.td, { content: '  Why this loop?  ', priority: 2 });
  assert.is(res.status, 201, res.text);
  assert.equal(
    { ...res.body, created_at: typeof res.body.created_at, updated_at: typeof res.body.updated_at },
    { id: res.body.id, task_definition_id: w.td, content: 'Why this loop?', priority: 2, created_at: 'string', updated_at: 'string' },
  );
  const form = await api(env, 'POST', url(w.td), { as: people.tutor.creds, form: { content: 'Explain the test', priority: '-1' } });
  assert.is(form.status, 201, form.text);
  assert.is(form.body.priority, -1);
  const byDefault = await create(people.admin, w.td, { content: 'What would you change?' });
  assert.is(byDefault.status, 201, byDefault.text);
  assert.is(byDefault.body.priority, 0);
  for (const who of [people.tutor, people.convenor, people.admin]) {
    const list = await api(env, 'GET', url(w.td), { as: who.creds });
    assert.is(list.status, 200, list.text);
    assert.equal(
      list.body.map((p: { content: string }) => p.content),
      ['Explain the test', 'What would you change?', 'Why this loop?'],
    );
  }
});

test('students and staff of other units get 403 for every route, and nothing changes', async () => {
  const w = await world();
  const id = (await create(people.convenor, w.td, { content: 'Q1' })).body.id;
  const outsider = await signedIn(env, 'outsider', 'Convenor');
  const otherUnit = await seedUnit(env, { code: 'OTH101' });
  await employ(env, outsider.user, otherUnit, 'Convenor');
  for (const who of [people.student, outsider]) {
    const list = await api(env, 'GET', url(w.td), { as: who.creds });
    assert.is(list.status, 403, list.text);
    assert.match(list.body.error, /Not authorised to see the discussion prompts/);
    const made = await create(who, w.td, { content: 'x' });
    assert.is(made.status, 403, made.text);
    assert.match(made.body.error, /Not authorised to change the discussion prompts/);
    assert.is((await api(env, 'PUT', `${url(w.td)}/${id}`, { as: who.creds, json: { content: 'y' } })).status, 403);
    assert.is((await api(env, 'DELETE', `${url(w.td)}/${id}`, { as: who.creds })).status, 403);
  }
  assert.equal(await prompts(), [{ task_definition_id: w.td, content: 'Q1', priority: 0 }]);
});

test('bad input: 400 naming the field; unknown definitions and prompts 404; nothing written', async () => {
  const w = await world();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{}, /content/],
    [{ content: '' }, /content/],
    [{ content: '    ' }, /content/],
    [{ content: 'x'.repeat(2001) }, /content.*too long/],
    [{ content: 'ok', priority: 1.5 }, /priority/],
    [{ content: 'ok', priority: 'high' }, /priority/],
    [{ content: 'ok', priority: 10_000_000 }, /priority/],
  ];
  for (const [body, message] of cases) {
    const res = await create(people.convenor, w.td, body);
    assert.is(res.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${res.text}`);
    assert.match(res.body.error, message, JSON.stringify(body).slice(0, 60));
  }
  const formBad = await api(env, 'POST', url(w.td), { as: people.convenor.creds, form: { content: 'ok', priority: '2.5' } });
  assert.is(formBad.status, 400, formBad.text);
  assert.equal(await prompts(), []);

  for (const bad of ['abc', '0', '-3']) {
    const res = await api(env, 'GET', url(bad), { as: people.convenor.creds });
    assert.is(res.status, 400, `${bad}: ${res.text}`);
  }
  for (const unknown of ['999999', '99999999999']) {
    const res = await api(env, 'GET', url(unknown), { as: people.convenor.creds });
    assert.is(res.status, 404, `${unknown}: ${res.text}`);
    assert.is(res.body.error, 'Unable to find requested Task Definition');
    assert.is((await create(people.convenor, unknown, { content: 'x' })).status, 404);
  }

  const id = (await create(people.convenor, w.td, { content: 'Q1', priority: 1 })).body.id;
  // A prompt is addressed under its own definition only.
  const elsewhere = await api(env, 'PUT', `${url(w.other)}/${id}`, { as: people.convenor.creds, json: { content: 'moved' } });
  assert.is(elsewhere.status, 404, elsewhere.text);
  assert.is(elsewhere.body.error, 'Unable to find requested Discussion prompt');
  assert.is((await api(env, 'DELETE', `${url(w.other)}/${id}`, { as: people.convenor.creds })).status, 404);
  assert.is((await api(env, 'PUT', `${url(w.td)}/999999`, { as: people.convenor.creds, json: { content: 'x' } })).status, 404);
  assert.is((await api(env, 'DELETE', `${url(w.td)}/99999999999`, { as: people.convenor.creds })).status, 404);
  const blank = await api(env, 'PUT', `${url(w.td)}/${id}`, { as: people.convenor.creds, json: { content: ' ' } });
  assert.is(blank.status, 400, blank.text);
  const notInt = await api(env, 'PUT', `${url(w.td)}/${id}`, { as: people.convenor.creds, form: { priority: 'first' } });
  assert.is(notInt.status, 400, notInt.text);
  assert.equal(await prompts(), [{ task_definition_id: w.td, content: 'Q1', priority: 1 }]);
});

test('update changes the fields given; delete removes the prompt', async () => {
  const w = await world();
  const id = (await create(people.convenor, w.td, { content: 'Q1', priority: 1 })).body.id;
  const res = await api(env, 'PUT', `${url(w.td)}/${id}`, { as: people.tutor.creds, form: { priority: '5' } });
  assert.is(res.status, 200, res.text);
  assert.equal([res.body.content, res.body.priority], ['Q1', 5]);
  const text = await api(env, 'PUT', `${url(w.td)}/${id}`, { as: people.convenor.creds, json: { content: 'Q1, again' } });
  assert.equal([text.body.content, text.body.priority], ['Q1, again', 5]);
  const del = await api(env, 'DELETE', `${url(w.td)}/${id}`, { as: people.tutor.creds });
  assert.is(del.status, 200, del.text);
  assert.equal(del.body, { id, deleted: true });
  assert.is((await api(env, 'DELETE', `${url(w.td)}/${id}`, { as: people.tutor.creds })).status, 404);
  assert.equal(await prompts(), []);
});

test("the project's prompts: tasks in discuss or demonstrate only, by abbreviation then priority; staff only; staff only", async () => {
  const w = await world();
  const third = await seedTaskDefinition(env, w.unit, 'A0');
  const fourth = await seedTaskDefinition(env, w.unit, 'Z9');
  await create(people.convenor, w.td, { content: 'P1 second', priority: 5 });
  await create(people.convenor, w.td, { content: 'P1 first', priority: 1 });
  await create(people.convenor, w.other, { content: 'P2 only' });
  await create(people.convenor, third, { content: 'A0 only' });
  await create(people.convenor, fourth, { content: 'Z9 not in discuss' });
  const trigger = async (td: number, word: string) => {
    const res = await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${td}`, { as: people.tutor.creds, json: { trigger: word } });
    assert.is(res.status, 200, res.text);
    return res.body.id as number;
  };
  const p1 = await trigger(w.td, 'discuss');
  const a0 = await trigger(third, 'demonstrate');
  await trigger(w.other, 'fix_and_resubmit');
  await trigger(fourth, 'ready_for_feedback');

  const path = `/api/projects/${w.project}/discussion_prompts`;
  const res = await api(env, 'GET', path, { as: people.tutor.creds });
  assert.is(res.status, 200, res.text);
  assert.equal(
    res.body.map((r: Record<string, unknown>) => [r.abbreviation, r.task_id, r.task_status, r.content, r.priority]),
    [
      ['A0', a0, 'demonstrate', 'A0 only', 0],
      ['P1', p1, 'discuss', 'P1 first', 1],
      ['P1', p1, 'discuss', 'P1 second', 5],
    ],
  );
  assert.equal(Object.keys(res.body[0]).sort(), ['abbreviation', 'content', 'id', 'priority', 'task_definition_id', 'task_id', 'task_status']);
  assert.is(res.body[0].task_definition_id, third);

  // The student, other units' staff and a non-staff admin are refused: the questions are the tutor's.
  const outsider = await signedIn(env, 'outsider', 'Tutor');
  await employ(env, outsider.user, await seedUnit(env, { code: 'OTH101' }), 'Tutor');
  for (const who of [people.student, outsider, people.admin]) {
    const refused = await api(env, 'GET', path, { as: who.creds });
    assert.is(refused.status, 403, `${who.creds.username}: ${refused.text}`);
    assert.match(refused.body.error, /Not authorised to see the discussion prompts of this project/);
  }
  assert.is((await api(env, 'GET', '/api/projects/999999/discussion_prompts', { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'GET', '/api/projects/nope/discussion_prompts', { as: people.tutor.creds })).status, 400);
  assert.equal((await api(env, 'GET', path, { as: people.convenor.creds })).body.length, 3);
});

test('the listing is one statement whatever the number of tasks in discuss', async () => {
  const w = await world();
  const path = `/api/projects/${w.project}/discussion_prompts`;
  const measure = () => countStatements(() => api(env, 'GET', path, { as: people.tutor.creds }));
  await measure(); // the first request also reads the session, later ones find it cached
  const before = await measure();
  for (let i = 0; i < 6; i++) {
    const td = await seedTaskDefinition(env, w.unit, `D${i}`);
    await create(people.convenor, td, { content: `Q${i}` });
    await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${td}`, { as: people.tutor.creds, json: { trigger: 'discuss' } });
  }
  const after = await measure();
  assert.is(after, before, 'statements do not grow with the tasks in discuss');
});

test('rollover copies the prompts; the CSV carries them as JSON; an import replaces them, a bad cell is a row error', async () => {
  const w = await world();
  await create(people.convenor, w.td, { content: 'Why, "exactly"?', priority: 2 });
  await create(people.convenor, w.td, { content: 'First, this', priority: 1 });
  await api(env, 'PUT', `/api/units/${w.unit}/task_definitions/${w.td}`, { as: people.convenor.creds, form: { 'task_def[requires_discussion]': 'true' } });

  const roll = await api(env, 'POST', `/api/units/${w.unit}/rollover`, { as: people.admin.creds, json: { start_date: '2031-03-03', end_date: '2031-06-27' } });
  assert.is(roll.status, 201, roll.text);
  const copy = await db(env.orm.em.fork())
    .selectFrom('task_definitions')
    .select(['id', 'requires_discussion'])
    .where('unit_id', '=', roll.body.id)
    .where('abbreviation', '=', 'P1')
    .executeTakeFirstOrThrow();
  assert.is(copy.requires_discussion, true, 'rollover keeps requires_discussion');
  const copied = (await api(env, 'GET', url(copy.id), { as: people.admin.creds })).body;
  assert.equal(
    copied.map((p: { content: string; priority: number }) => [p.content, p.priority]),
    [
      ['First, this', 1],
      ['Why, "exactly"?', 2],
    ],
  );

  const download = await api(env, 'GET', '/api/csv/task_definitions', { as: people.convenor.creds, query: { unit_id: w.unit } });
  assert.is(download.status, 200, download.text);
  const { rows } = await readCsv(download.text);
  const p1 = rows.find((r) => r.abbreviation === 'P1')!;
  assert.equal(JSON.parse(p1.discussion_prompts), [
    { content: 'First, this', priority: 1 },
    { content: 'Why, "exactly"?', priority: 2 },
  ]);
  assert.is(p1.requires_discussion, 'true');
  const p2 = rows.find((r) => r.abbreviation === 'P2')!;
  assert.equal([p2.discussion_prompts, p2.requires_discussion], ['[]', 'false']);

  const upload = (text: string) =>
    api(env, 'POST', '/api/csv/task_definitions', {
      as: people.convenor.creds,
      multipart: { unit_id: String(w.unit), file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(text) } },
    });
  const cell = (value: unknown) => JSON.stringify(value).replaceAll('"', '""');
  const replaced = download.text.replace(cell(JSON.parse(p1.discussion_prompts)), cell([{ content: 'Only this one' }]));
  assert.ok(replaced !== download.text);
  const up = await upload(replaced);
  assert.is(up.status, 201, up.text);
  assert.equal(up.body.errors, []);
  assert.equal(
    (await prompts()).filter((p) => p.task_definition_id === w.td),
    [{ task_definition_id: w.td, content: 'Only this one', priority: 0 }],
  );

  for (const [bad, message] of [
    ['not json', /discussion_prompts is not JSON/],
    [cell([{ content: '  ' }]), /discussion_prompts 0: Content is empty/],
    [cell([{ content: 'x', priority: 'high' }]), /discussion_prompts 0.priority/],
    [cell({ content: 'x' }), /discussion_prompts/],
  ] as const) {
    const broken = download.text.replace(cell(JSON.parse(p1.discussion_prompts)), bad);
    const refused = await upload(broken);
    assert.is(refused.status, 201, refused.text);
    assert.is(refused.body.errors.length, 1, refused.text);
    assert.match(refused.body.errors[0].message, message);
  }
  assert.equal((await prompts()).filter((p) => p.task_definition_id === w.td).length, 1, 'a refused row leaves the prompts alone');

  // requires_discussion goes back to false through the CSV.
  const off = replaced.replace(/,true,"\[/, ',false,"[');
  assert.ok(off !== replaced);
  assert.equal((await upload(off)).body.errors, []);
  const after = await db(env.orm.em.fork()).selectFrom('task_definitions').select('requires_discussion').where('id', '=', w.td).executeTakeFirstOrThrow();
  assert.is(after.requires_discussion, false);
});

test.run();
