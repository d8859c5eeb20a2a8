import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sql } from 'kysely';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { countStatements } from '../support/statements.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedTemplates } from '../../src/operations/units/feedback_templates/seed-templates.ts';

const test = suite('REST feedback templates and enforced feedback');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const k = () => db(env.orm.em.fork());
const count = async (table: 'feedback_template_groups' | 'feedback_templates' | 'feedback_template_uses' | 'task_comments') =>
  Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(k())).rows[0].n);

async function group(w: TaskWorld, body: Record<string, unknown> = { name: 'General' }) {
  const res = await api(env, 'POST', `/api/units/${w.unit}/feedback_template_groups`, { as: people.convenor.creds, json: body });
  assert.is(res.status, 201, res.text);
  return res.body.id as number;
}
async function template(w: TaskWorld, groupId: number, body: Record<string, unknown>) {
  const res = await api(env, 'POST', `/api/units/${w.unit}/feedback_templates`, { as: people.convenor.creds, json: { group_id: groupId, ...body } });
  assert.is(res.status, 201, res.text);
  return res.body.id as number;
}
const applyUrl = (w: TaskWorld) => `/api/projects/${w.project}/task_def_id/${w.td}/feedback_templates`;
const taskStatus = async (w: TaskWorld) =>
  (await k().selectFrom('tasks').select('status').where('project_id', '=', w.project).where('task_definition_id', '=', w.td).executeTakeFirst())?.status;

test('groups and templates: convenor and Admin manage, tutors read, students 403; unknown placeholders reported', async () => {
  const w = await taskWorld(env, people);
  const g = await group(w, { name: 'General' });
  const scoped = await group(w, { name: 'P1 issues', task_definition_id: w.td });
  const t = await template(w, g, { title: 'Hi', text: 'Hi {student_first_name} {mark}', suggested_status: 'discuss' });
  const list = await api(env, 'GET', `/api/units/${w.unit}/feedback_template_groups`, { as: people.tutor.creds });
  assert.is(list.status, 200, list.text);
  assert.equal(
    list.body.map((x: { id: number; task_definition_id: number | null }) => [x.id, x.task_definition_id]),
    [
      [g, null],
      [scoped, w.td],
    ],
  );
  assert.equal(list.body[0].templates[0], {
    id: t,
    group_id: g,
    title: 'Hi',
    text: 'Hi {student_first_name} {mark}',
    suggested_status: 'discuss',
    unknown_placeholders: ['mark'],
    usage_count: 0,
  });
  for (const [method, url, body] of [
    ['GET', `/api/units/${w.unit}/feedback_template_groups`, undefined],
    ['POST', `/api/units/${w.unit}/feedback_template_groups`, { name: 'x' }],
    ['PUT', `/api/units/${w.unit}/feedback_templates/${t}`, { title: 'x' }],
    ['DELETE', `/api/units/${w.unit}/feedback_template_groups/${g}`, undefined],
  ] as const) {
    const res = await api(env, method, url, { as: people.student.creds, json: body });
    assert.is(res.status, 403, `${method} ${url}: ${res.text}`);
  }
  const tutorWrite = await api(env, 'POST', `/api/units/${w.unit}/feedback_template_groups`, { as: people.tutor.creds, json: { name: 'x' } });
  assert.is(tutorWrite.status, 403);
  const admin = await api(env, 'PUT', `/api/units/${w.unit}/feedback_templates/${t}`, {
    as: people.admin.creds,
    json: { title: 'Hello', suggested_status: '' },
  });
  assert.is(admin.status, 200, admin.text);
  assert.equal([admin.body.title, admin.body.suggested_status], ['Hello', null]);
  const gone = await api(env, 'DELETE', `/api/units/${w.unit}/feedback_template_groups/${g}`, { as: people.convenor.creds });
  assert.is(gone.status, 204);
  assert.is(await count('feedback_templates'), 0);
});

test("bad input: 400 for bad fields, 404 for unknown or other units' records, never 500", async () => {
  const w = await taskWorld(env, people);
  const other = await taskWorld(env, people, {}, {}, 'SIT202');
  const g = await group(w);
  const otherGroup = await group(other);
  const cases: [string, string, unknown, number][] = [
    ['POST', `/api/units/${w.unit}/feedback_template_groups`, { name: '' }, 400],
    ['POST', `/api/units/${w.unit}/feedback_template_groups`, { name: 'x', task_definition_id: other.td }, 404],
    ['POST', `/api/units/${w.unit}/feedback_templates`, { group_id: g, title: 'x', text: 'y', suggested_status: 'nope' }, 400],
    ['POST', `/api/units/${w.unit}/feedback_templates`, { group_id: g, title: 'x', text: '' }, 400],
    ['POST', `/api/units/${w.unit}/feedback_templates`, { group_id: otherGroup, title: 'x', text: 'y' }, 404],
    ['POST', `/api/units/${w.unit}/feedback_templates`, { group_id: 'abc', title: 'x', text: 'y' }, 400],
    ['PUT', `/api/units/${w.unit}/feedback_template_groups/${otherGroup}`, { name: 'x' }, 404],
    ['DELETE', `/api/units/${w.unit}/feedback_templates/999999`, undefined, 404],
    ['GET', `/api/units/999999/feedback_template_groups`, undefined, 404],
  ];
  for (const [method, url, json, status] of cases) {
    const res = await api(env, method, url, { as: people.convenor.creds, json });
    assert.is(res.status, status, `${method} ${url} ${JSON.stringify(json)}: ${res.text}`);
    assert.type(res.body.error, 'string');
  }
});

test("updates write only the fields given: a template moves to another of the unit's groups, a group becomes unit-wide; another unit's group or definition is 404 and changes nothing", async () => {
  const w = await taskWorld(env, people);
  const other = await taskWorld(env, people, {}, {}, 'SIT202');
  const g = await group(w, { name: 'General' });
  const scoped = await group(w, { name: 'P1 issues', task_definition_id: w.td });
  const otherGroup = await group(other);
  const t = await template(w, g, { title: 'Hi', text: 'Hello', suggested_status: 'discuss' });
  const put = (url: string, json: Record<string, unknown>) => api(env, 'PUT', `/api/units/${w.unit}/${url}`, { as: people.convenor.creds, json });
  const moved = await put(`feedback_templates/${t}`, { group_id: scoped });
  assert.is(moved.status, 200, moved.text);
  assert.equal(moved.body, { id: t, group_id: scoped, title: 'Hi', text: 'Hello', suggested_status: 'discuss', unknown_placeholders: [], usage_count: 0 });
  assert.is((await put(`feedback_templates/${t}`, { group_id: otherGroup, title: 'Moved' })).status, 404);
  const widened = await put(`feedback_template_groups/${scoped}`, { task_definition_id: null });
  assert.is(widened.status, 200, widened.text);
  assert.equal([widened.body.name, widened.body.task_definition_id, widened.body.templates.length], ['P1 issues', null, 1]);
  assert.is((await put(`feedback_template_groups/${scoped}`, { name: 'Moved', task_definition_id: other.td })).status, 404);
  assert.equal(await k().selectFrom('feedback_templates').select(['group_id', 'title']).execute(), [{ group_id: scoped, title: 'Hi' }]);
  assert.equal(await k().selectFrom('feedback_template_groups').select(['name', 'task_definition_id']).where('id', '=', scoped).execute(), [
    { name: 'P1 issues', task_definition_id: null },
  ]);
});

test('apply: one comment from rendered templates, uses counted, suggested status through changeTask', async () => {
  const w = await taskWorld(env, people);
  const g = await group(w);
  const a = await template(w, g, { title: 'A', text: 'Hi {student_first_name}, {task_name} by {due_date}.', suggested_status: 'fix_and_resubmit' });
  const b = await template(w, g, { title: 'B', text: 'See {unknown}.' });
  const first = (await k().selectFrom('users').select('first_name').where('id', '=', people.student.user.id).executeTakeFirstOrThrow()).first_name;
  const comments = await count('task_comments');
  const res = await api(env, 'POST', applyUrl(w), { as: people.tutor.creds, json: { template_ids: [a, b], apply_status: true } });
  assert.is(res.status, 201, res.text);
  assert.is(res.body.status, 'fix_and_resubmit');
  assert.ok(res.body.comment.comment.startsWith(`Hi ${first}, `), res.body.comment.comment);
  assert.ok(res.body.comment.comment.endsWith('\n\nSee {unknown}.'));
  assert.not.match(res.body.comment.comment, /\{due_date\}|\{task_name\}/);
  assert.is(await taskStatus(w), 'fix_and_resubmit');
  // One text comment and one status comment.
  assert.is(await count('task_comments'), comments + 2);
  const list = await api(env, 'GET', `/api/units/${w.unit}/feedback_template_groups`, { as: people.tutor.creds });
  assert.equal(
    list.body[0].templates.map((t: { usage_count: number }) => t.usage_count),
    [1, 1],
  );
  // Without apply_status: just the comment (form body, repeated keys).
  const plain = await api(env, 'POST', applyUrl(w), { as: people.convenor.creds, form: { 'template_ids[]': String(b) } });
  assert.is(plain.status, 201, plain.text);
  assert.is(plain.body.applied_status, null);
  assert.is(await count('feedback_template_uses'), 3);
});

test('apply: conflicts 400, other definition 400, unknown 404, students 403; nothing written', async () => {
  const w = await taskWorld(env, people);
  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  const g = await group(w);
  const other = await group(w, { name: 'P2 only', task_definition_id: td2 });
  const a = await template(w, g, { title: 'A', text: 'a', suggested_status: 'discuss' });
  const b = await template(w, g, { title: 'B', text: 'b', suggested_status: 'redo' });
  const c = await template(w, other, { title: 'C', text: 'c' });
  const before = [await count('task_comments'), await count('feedback_template_uses')];
  const cases: [unknown, number, typeof people.tutor.creds][] = [
    [{ template_ids: [a, b], apply_status: true }, 400, people.tutor.creds],
    [{ template_ids: [c] }, 400, people.tutor.creds],
    [{ template_ids: [999999] }, 404, people.tutor.creds],
    [{ template_ids: [] }, 400, people.tutor.creds],
    [{ template_ids: 'x' }, 400, people.tutor.creds],
    [{ template_ids: [a] }, 403, people.student.creds],
  ];
  for (const [json, status, as] of cases) {
    const res = await api(env, 'POST', applyUrl(w), { as, json });
    assert.is(res.status, status, `${JSON.stringify(json)}: ${res.text}`);
  }
  assert.equal([await count('task_comments'), await count('feedback_template_uses')], before);
  assert.ok((await taskStatus(w)) === undefined || (await taskStatus(w)) === 'not_started');
});

test('enforced feedback: unit setting through PUT /api/units/{id}; trigger without comment 400 and nothing written, with comment applied', async () => {
  const w = await taskWorld(env, people);
  const set = await api(env, 'PUT', `/api/units/${w.unit}`, { as: people.convenor.creds, form: { 'unit[require_feedback_comment]': 'true' } });
  assert.is(set.status, 200, set.text);
  const unit = await api(env, 'GET', `/api/units/${w.unit}`, { as: people.tutor.creds });
  assert.is(unit.body.require_feedback_comment, true);
  const url = `/api/projects/${w.project}/task_def_id/${w.td}`;
  const before = await count('task_comments');
  const refused = await api(env, 'PUT', url, { as: people.tutor.creds, form: { trigger: 'discuss' } });
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.body.error, /requires a feedback comment/);
  assert.is(await count('task_comments'), before);
  assert.ok((await taskStatus(w)) === undefined || (await taskStatus(w)) === 'not_started');
  // A status outside the five needs none.
  const rff = await api(env, 'PUT', url, { as: people.student.creds, form: { trigger: 'ready_for_feedback' } });
  assert.is(rff.status, 200, rff.text);
  const ok = await api(env, 'PUT', url, { as: people.tutor.creds, form: { trigger: 'fix_and_resubmit', comment: 'Please fix the tests' } });
  assert.is(ok.status, 200, ok.text);
  assert.is(await taskStatus(w), 'fix_and_resubmit');
  const texts = await k().selectFrom('task_comments').select(['kind', 'comment']).orderBy('id').execute();
  assert.equal(texts.slice(-2), [
    { kind: 'text', comment: 'Please fix the tests' },
    { kind: 'status', comment: 'Fix and Resubmit' },
  ]);
  // Templates carry the comment, so they pass.
  const g = await group(w);
  const t = await template(w, g, { title: 'Talk', text: 'Come and talk', suggested_status: 'discuss' });
  const applied = await api(env, 'POST', applyUrl(w), { as: people.tutor.creds, json: { template_ids: [t], apply_status: true } });
  assert.is(applied.status, 201, applied.text);
  assert.is(await taskStatus(w), 'discuss');
});

test('list: a fixed number of statements whatever the number of groups and templates', async () => {
  const w = await taskWorld(env, people);
  const measure = async () =>
    countStatements(async () => {
      const res = await api(env, 'GET', `/api/units/${w.unit}/feedback_template_groups`, { as: people.tutor.creds });
      assert.is(res.status, 200);
    });
  await seedTemplates(env.orm.em.fork(), w.unit);
  await measure(); // warms the session cache, which would otherwise count once
  const small = await measure();
  for (let i = 0; i < 5; i++) await seedTemplates(env.orm.em.fork(), w.unit);
  const large = await measure();
  assert.is(large, small, `statements: ${small} with 2 groups, ${large} with 12`);
});

test('CSV: export then import into another unit; rollover copies groups and templates with the definitions', async () => {
  const w = await taskWorld(env, people);
  await seedTemplates(env.orm.em.fork(), w.unit);
  const csv = await api(env, 'GET', `/api/units/${w.unit}/feedback_templates/csv`, { as: people.convenor.creds });
  assert.is(csv.status, 200, csv.text);
  assert.match(csv.text, /^group,task_definition,title,text,suggested_status/);
  const other = await taskWorld(env, people, {}, {}, 'SIT202');
  const up = await api(env, 'POST', `/api/units/${other.unit}/feedback_templates/csv`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(`${csv.text}Extra,,Bad,text,nope\n`) } },
  });
  assert.is(up.status, 201, up.text);
  assert.equal([up.body.success.length, up.body.errors.length], [4, 1]);
  const again = await api(env, 'POST', `/api/units/${other.unit}/feedback_templates/csv`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(csv.text) } },
  });
  assert.equal([again.body.success.length, again.body.ignored.length], [0, 4]);

  const roll = await api(env, 'POST', `/api/units/${w.unit}/rollover`, { as: people.admin.creds, json: { start_date: '2031-03-01', end_date: '2031-06-30' } });
  assert.is(roll.status, 201, roll.text);
  const copied = await api(env, 'GET', `/api/units/${roll.body.id}/feedback_template_groups`, { as: people.admin.creds });
  assert.is(copied.status, 200, copied.text);
  assert.equal(
    copied.body.map((g: { templates: unknown[] }) => g.templates.length),
    [3, 1],
  );
  assert.is(copied.body[1].task_definition_id, roll.body.task_definitions[0].id);
});

test.run();
