// Task prerequisites (docs/prerequisites.md): the routes' role rules and bad input, the link rules
// (self, other unit, cycles of any length, later date, higher grade, duplicates), concurrent links
// that would make a cycle together, a definition update that would break a link, the CSV and
// rollover, and the server's lock on a student's upload and hand-in, with the lists that show it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { readCsv, writeCsv } from '../../src/domain/csv.ts';
import type { TestEnv } from '../support/env.ts';
import type { Actor, People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { samplePdf } from '../support/sample-files.ts';
import { seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';
import { raceOnLock } from '../support/race-on-task.ts';
import { anotherStudent, outsideTutor, taskWorld, type TaskWorld } from '../support/task-world.ts';
import { seedGroupRow, seedGroupSet, seedMember } from '../support/seed-group-members.ts';

const test = suite('REST task prerequisites');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const REPORT = [{ key: 'file0', name: 'Report', type: 'document' }];

/** The task world (P1, due 16 March) plus P0 (due 9 March) and P2 (due 23 March), all of grade 0. */
async function world(): Promise<TaskWorld & { p0: number; p2: number }> {
  const w = await taskWorld(env, people, { uploadRequirements: REPORT as never });
  const p0 = await seedTaskDefinition(env, w.unit, 'P0', { targetDate: '2026-03-09' });
  const p2 = await seedTaskDefinition(env, w.unit, 'P2', { targetDate: '2026-03-23' });
  return { ...w, p0, p2 };
}

const url = (unit: number, td: number | string) => `/api/units/${unit}/task_definitions/${td}/prerequisites`;
const create = (as: Actor, unit: number, td: number | string, body: Record<string, unknown>) => api(env, 'POST', url(unit, td), { as: as.creds, json: body });
const k = () => db(env.orm.em.fork());
const links = () => k().selectFrom('task_prerequisites').select(['task_definition_id', 'prerequisite_id', 'task_status']).orderBy('id').execute();

test('anyone who may read the unit lists; only the convenor or an admin adds and removes (student and tutor 403)', async () => {
  const w = await world();
  for (const who of [people.student, people.tutor]) {
    const refused = await create(who, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'complete' });
    assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to change the prerequisites of this unit' }]);
  }
  const made = await create(people.convenor, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'complete' });
  assert.is(made.status, 201, made.text);
  assert.equal(made.body, { id: made.body.id, task_definition_id: w.td, prerequisite_id: w.p0, task_status: 'complete' });
  // Form fields, as the web client sends them, arrive as strings.
  const byAdmin = await api(env, 'POST', url(w.unit, w.p2), {
    as: people.admin.creds,
    form: { prerequisite_id: String(w.td), task_status: 'ready_for_feedback' },
  });
  assert.is(byAdmin.status, 201, byAdmin.text);

  for (const who of [people.student, people.tutor, people.convenor, people.admin]) {
    const list = await api(env, 'GET', url(w.unit, w.td), { as: who.creds });
    assert.is(list.status, 200, list.text);
    assert.equal(list.body, [made.body]);
  }
  assert.is((await api(env, 'GET', url(w.unit, w.td), { as: (await outsideTutor(env)).creds })).status, 403);

  for (const who of [people.student, people.tutor]) {
    assert.is((await api(env, 'DELETE', `${url(w.unit, w.td)}/${made.body.id}`, { as: who.creds })).status, 403);
  }
  const removed = await api(env, 'DELETE', `${url(w.unit, w.td)}/${made.body.id}`, { as: people.convenor.creds });
  assert.equal([removed.status, removed.body], [200, made.body]);
  assert.is((await api(env, 'DELETE', `${url(w.unit, w.td)}/${made.body.id}`, { as: people.convenor.creds })).status, 404);
  // The link of another definition is not found under this one.
  assert.is((await api(env, 'DELETE', `${url(w.unit, w.td)}/${byAdmin.body.id}`, { as: people.admin.creds })).status, 404);
  assert.equal(await links(), [{ task_definition_id: w.p2, prerequisite_id: w.td, task_status: 'ready_for_feedback' }]);
});

test('bad input: ids, statuses, unknown definitions, self, other unit, later date, higher grade, duplicate, reverse pair and longer cycles', async () => {
  const w = await world();
  const other = await seedUnit(env, { code: 'OTH101' });
  const foreign = await seedTaskDefinition(env, other, 'X1', { targetDate: '2026-03-01' });
  const later = await seedTaskDefinition(env, w.unit, 'L1', { targetDate: '2026-04-30' });
  const harder = await seedTaskDefinition(env, w.unit, 'D1', { targetDate: '2026-03-02', targetGrade: 2 });
  const as = people.convenor;
  const cases: [string, number | string, Record<string, unknown>, number, RegExp][] = [
    ['non-numeric definition', 'abc', { prerequisite_id: w.p0, task_status: 'complete' }, 400, /task_def_id/],
    ['non-numeric prerequisite', w.td, { prerequisite_id: 'x', task_status: 'complete' }, 400, /prerequisite_id/],
    ['missing status', w.td, { prerequisite_id: w.p0 }, 400, /task_status/],
    ['unknown status', w.td, { prerequisite_id: w.p0, task_status: 'done' }, 400, /task_status is invalid/],
    ['unknown definition', 99999, { prerequisite_id: w.p0, task_status: 'complete' }, 404, /Task Definition/],
    ['unknown prerequisite', w.td, { prerequisite_id: 99999, task_status: 'complete' }, 404, /Task Definition/],
    ['itself', w.td, { prerequisite_id: w.td, task_status: 'complete' }, 400, /P1 cannot be a prerequisite of itself/],
    ['other unit', w.td, { prerequisite_id: foreign, task_status: 'complete' }, 400, /X1 belongs to another unit/],
    ['due later', w.td, { prerequisite_id: later, task_status: 'complete' }, 400, /L1 is due later \(2026-04-30\) than P1/],
    ['higher grade', w.td, { prerequisite_id: harder, task_status: 'complete' }, 400, /D1 has a higher target grade \(2\) than P1 \(0\)/],
  ];
  for (const [name, td, body, status, error] of cases) {
    const res = await create(as, w.unit, td, body);
    assert.is(res.status, status, `${name}: ${res.text}`);
    assert.match(res.body.error, error, `${name}: ${res.body.error}`);
  }
  // A definition of another unit in the path: not this unit's.
  assert.is((await create(as, w.unit, foreign, { prerequisite_id: w.p0, task_status: 'complete' })).status, 404);
  assert.is((await create(as, 99999, w.td, { prerequisite_id: w.p0, task_status: 'complete' })).status, 404);
  assert.is((await api(env, 'GET', url(w.unit, 'abc'), { as: as.creds })).status, 400);
  assert.is((await api(env, 'DELETE', `${url(w.unit, w.td)}/abc`, { as: as.creds })).status, 400);

  // P2 needs P1, P1 needs P0: the duplicate, the reverse and the 3-cycle are refused.
  assert.is((await create(as, w.unit, w.p2, { prerequisite_id: w.td, task_status: 'complete' })).status, 201);
  assert.is((await create(as, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'complete' })).status, 201);
  const duplicate = await create(as, w.unit, w.p2, { prerequisite_id: w.td, task_status: 'discuss' });
  assert.equal([duplicate.status, duplicate.body], [400, { error: 'P1 is already a prerequisite of P2' }]);
  // Equal dates let a reverse or a cycle through the date rule: P0b and P0c are due with P0.
  const p0b = await seedTaskDefinition(env, w.unit, 'P0b', { targetDate: '2026-03-09' });
  const p0c = await seedTaskDefinition(env, w.unit, 'P0c', { targetDate: '2026-03-09' });
  assert.is((await create(as, w.unit, w.p0, { prerequisite_id: p0b, task_status: 'complete' })).status, 201);
  const reverse = await create(as, w.unit, p0b, { prerequisite_id: w.p0, task_status: 'complete' });
  assert.equal([reverse.status, reverse.body], [400, { error: 'P0 already has P0b as its prerequisite' }]);
  assert.is((await create(as, w.unit, p0b, { prerequisite_id: p0c, task_status: 'complete' })).status, 201);
  const cycle = await create(as, w.unit, p0c, { prerequisite_id: w.p0, task_status: 'complete' });
  assert.equal([cycle.status, cycle.body], [400, { error: 'The link would make a cycle of prerequisites: P0c → P0 → P0b → P0c' }]);
  assert.is((await links()).length, 4);
});

test('two links that would make a cycle together, added at once: the second waits for the first and is refused', async () => {
  const w = await world();
  const twin = await seedTaskDefinition(env, w.unit, 'P1b', { targetDate: '2026-03-16' });
  // The unit's link lock is held while both requests start; each waits for it, then goes in turn.
  const hold = { sql: "select pg_advisory_xact_lock(hashtext('task_prerequisites'), $1)", params: [w.unit] };
  const answers = await raceOnLock(env, hold, [
    () => create(people.convenor, w.unit, w.td, { prerequisite_id: twin, task_status: 'complete' }),
    () => create(people.convenor, w.unit, twin, { prerequisite_id: w.td, task_status: 'complete' }),
  ]);
  assert.equal(answers.map((r) => r.status).sort(), [201, 400]);
  assert.match(answers.find((r) => r.status === 400)!.body.error, /already has/);
  assert.is((await links()).length, 1);
});

test('a task-definition update that would break a link is refused (400) and changes nothing', async () => {
  const w = await world();
  assert.is((await create(people.convenor, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'complete' })).status, 201);
  const put = (td: number, fields: Record<string, unknown>) =>
    api(env, 'PUT', `/api/units/${w.unit}/task_definitions/${td}`, { as: people.convenor.creds, json: { task_def: fields } });
  // The prerequisite moved after its dependent, the dependent before its prerequisite, the prerequisite's grade raised.
  for (const [td, fields, error] of [
    [w.p0, { target_date: '2026-03-20' }, /P0 is due later \(2026-03-20\) than P1/],
    [w.td, { target_date: '2026-03-05', start_date: '2026-03-02' }, /P0 is due later \(2026-03-09\) than P1 \(2026-03-05\)/],
    [w.p0, { target_grade: 1 }, /P0 has a higher target grade \(1\) than P1/],
  ] as const) {
    const res = await put(td, fields);
    assert.is(res.status, 400, res.text);
    assert.match(res.body.error, /would break a prerequisite link/);
    assert.match(res.body.error, error);
  }
  const p0 = await k()
    .selectFrom('task_definitions')
    .select(['target_grade'])
    .select((eb) => eb.fn('to_char', [eb.ref('target_date'), eb.val('YYYY-MM-DD')]).as('day'))
    .where('id', '=', w.p0)
    .executeTakeFirstOrThrow();
  assert.equal(p0, { target_grade: 0, day: '2026-03-09' });
  // A change that keeps the rules goes through.
  assert.is((await put(w.p0, { target_date: '2026-03-16' })).status, 200);
});

test('the task-definition CSV carries prerequisites by abbreviation; an import replaces them; bad cells are row errors', async () => {
  const w = await world();
  assert.is((await create(people.convenor, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'discuss' })).status, 201);
  const download = await api(env, 'GET', '/api/csv/task_definitions', { as: people.convenor.creds, query: { unit_id: w.unit } });
  assert.is(download.status, 200, download.text);
  const { headers, rows } = await readCsv(download.text);
  const cell = (abbr: string) => rows.find((r) => r.abbreviation === abbr)!.prerequisites;
  assert.equal(JSON.parse(cell('P1')), [{ abbreviation: 'P0', task_status: 'discuss' }]);
  assert.is(cell('P2'), '[]');

  const upload = (text: string) =>
    api(env, 'POST', '/api/csv/task_definitions', {
      as: people.convenor.creds,
      multipart: { unit_id: String(w.unit), file: { filename: 't.csv', contentType: 'text/csv', data: Buffer.from(text) } },
    });
  // The file as downloaded, with these rows' prerequisites cells replaced.
  const withCells = (cells: Record<string, string>) =>
    writeCsv(
      headers,
      rows.map((r) => headers.map((h) => (h === 'prerequisites' && r.abbreviation! in cells ? cells[r.abbreviation!]! : r[h]!))),
    );
  // The round trip changes nothing; then P2 needs P1 and P0, and P1 none.
  const same = await upload(download.text);
  assert.equal([same.status, same.body.errors], [201, []], same.text);
  assert.equal(await links(), [{ task_definition_id: w.td, prerequisite_id: w.p0, task_status: 'discuss' }]);
  const P2 = JSON.stringify([
    { abbreviation: 'P1', task_status: 'ready_for_feedback' },
    { abbreviation: 'P0', task_status: 'complete' },
  ]);
  const edited = withCells({ P1: '[]', P2 });
  const changed = await upload(edited);
  assert.equal([changed.status, changed.body.errors, changed.body.success.length], [201, [], 3]);
  assert.equal(await links(), [
    { task_definition_id: w.p2, prerequisite_id: w.td, task_status: 'ready_for_feedback' },
    { task_definition_id: w.p2, prerequisite_id: w.p0, task_status: 'complete' },
  ]);

  // Bad JSON, an unknown abbreviation, an unknown status, a rule broken: the row's error; links unchanged.
  for (const [value, error] of [
    ['[{"abbreviation":', /prerequisites is not valid JSON/],
    [JSON.stringify([{ abbreviation: 'NOPE', task_status: 'complete' }]), /no task definition of the unit has the abbreviation NOPE/],
    [JSON.stringify([{ abbreviation: 'P0', task_status: 'done' }]), /unknown task_status: done/],
    [JSON.stringify([{ abbreviation: 'P2', task_status: 'complete' }]), /P2 is due later/],
  ] as const) {
    const res = await upload(withCells({ P1: value, P2 }));
    assert.is(res.status, 201, res.text);
    assert.is(res.body.errors.length, 1, res.text);
    assert.match(res.body.errors[0].message, error);
    assert.is(res.body.errors[0].row.abbreviation, 'P1');
    assert.is((await links()).length, 2);
  }
});

test('rollover copies the links between the copied definitions', async () => {
  const w = await world();
  await create(people.convenor, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'complete' });
  await create(people.convenor, w.unit, w.p2, { prerequisite_id: w.td, task_status: 'discuss' });
  const roll = await api(env, 'POST', `/api/units/${w.unit}/rollover`, { as: people.admin.creds, json: { start_date: '2031-03-03', end_date: '2031-06-27' } });
  assert.is(roll.status, 201, roll.text);
  const copied = await k()
    .selectFrom('task_prerequisites as tp')
    .innerJoin('task_definitions as d', 'd.id', 'tp.task_definition_id')
    .innerJoin('task_definitions as p', 'p.id', 'tp.prerequisite_id')
    .select(['d.abbreviation as dependent', 'p.abbreviation as prerequisite', 'tp.task_status', 'd.unit_id', 'p.unit_id as prerequisite_unit'])
    .where('d.unit_id', '=', roll.body.id)
    .orderBy('tp.id')
    .execute();
  assert.equal(copied, [
    { dependent: 'P1', prerequisite: 'P0', task_status: 'complete', unit_id: roll.body.id, prerequisite_unit: roll.body.id },
    { dependent: 'P2', prerequisite: 'P1', task_status: 'discuss', unit_id: roll.body.id, prerequisite_unit: roll.body.id },
  ]);
});

// ---- the lock on the student's work ------------------------------------------------------------

const uploadAs = (as: Actor, w: TaskWorld) =>
  api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/submission`, {
    as: as.creds,
    multipart: { trigger: 'ready_for_feedback', file0: { filename: 'report.pdf', contentType: 'application/pdf', data: samplePdf() } },
  });
const triggerAs = (as: Actor, w: TaskWorld, td: number, trigger: string) =>
  api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${td}`, { as: as.creds, json: { trigger } });

test('a student cannot upload or hand in while a prerequisite is unmet (400 naming it, nothing written); once met they can; staff always can', async () => {
  const w = await world();
  await create(people.convenor, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'complete' });
  const LOCKED = { error: 'This task is locked until its prerequisites are met: P0 must reach Complete (complete)' };

  const refused = await uploadAs(people.student, w);
  assert.equal([refused.status, refused.body], [400, LOCKED]);
  assert.equal(await k().selectFrom('submission_files').select('id').execute(), []);
  assert.equal(await k().selectFrom('task_submissions').select('id').execute(), []);
  assert.equal(await k().selectFrom('tasks').select('id').where('task_definition_id', '=', w.td).execute(), [], 'no task row made either');

  // A task the student works on without handing in is fine; moving it to ready for feedback is not.
  const working = await triggerAs(people.student, w, w.td, 'working_on_it');
  assert.equal([working.status, working.body.status, working.body.locked], [200, 'working_on_it', true]);
  assert.equal(working.body.prerequisites_unmet, [{ task_definition_id: w.p0, abbreviation: 'P0', task_status: 'complete' }]);
  await env.orm.em.fork().getConnection().execute(`update task_definitions set upload_requirements = '[]' where id = ${w.td}`);
  const handIn = await triggerAs(people.student, w, w.td, 'ready_for_feedback');
  assert.equal([handIn.status, handIn.body], [400, LOCKED]);
  const task = await k().selectFrom('tasks').select(['status', 'submission_date']).where('task_definition_id', '=', w.td).executeTakeFirstOrThrow();
  assert.equal(task, { status: 'working_on_it', submission_date: null });
  await env.orm.em
    .fork()
    .getConnection()
    .execute(`update task_definitions set upload_requirements = '${JSON.stringify(REPORT)}' where id = ${w.td}`);

  // Staff are not held back: the tutor uploads for the student.
  const byTutor = await uploadAs(people.tutor, w);
  assert.is(byTutor.status, 201, byTutor.text);
  await triggerAs(people.tutor, w, w.td, 'working_on_it');

  // P0 ready for feedback is not complete yet; complete is.
  const p0 = await seedTask(env, w.project, w.p0, { status: 'ready_for_feedback' });
  assert.is((await uploadAs(people.student, w)).status, 400);
  await k().updateTable('tasks').set({ status: 'complete' }).where('id', '=', p0).execute();
  const allowed = await uploadAs(people.student, w);
  assert.is(allowed.status, 201, allowed.text);
  assert.equal([allowed.body.status, allowed.body.locked, allowed.body.prerequisites_unmet], ['ready_for_feedback', false, []]);
  // And the hand-in by trigger, on a definition without uploads.
  await triggerAs(people.student, w, w.td, 'working_on_it');
  await env.orm.em.fork().getConnection().execute(`update task_definitions set upload_requirements = '[]' where id = ${w.td}`);
  const handedIn = await triggerAs(people.student, w, w.td, 'ready_for_feedback');
  assert.equal([handedIn.status, handedIn.body.status], [200, 'ready_for_feedback']);
});

test("group work: the acting student's own prerequisites decide; the group follows a member who may hand in", async () => {
  const w = await world();
  const set = await seedGroupSet(env, w.unit);
  const group = await seedGroupRow(env, set, w.tutorial, 'Team');
  const mate = await anotherStudent(env, w, 'cstudent');
  await seedMember(env, group, w.project);
  await seedMember(env, group, mate.project);
  const g1 = await seedTaskDefinition(env, w.unit, 'G1', { uploadRequirements: REPORT as never, groupSet: set });
  await create(people.convenor, w.unit, g1, { prerequisite_id: w.p0, task_status: 'complete' });
  await seedTask(env, mate.project, w.p0, { status: 'complete' });
  const file = { file0: { filename: 'report.pdf', contentType: 'application/pdf', data: samplePdf() } };
  const mine = await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${g1}/submission`, { as: people.student.creds, multipart: file });
  assert.equal([mine.status, mine.body.error], [400, 'This task is locked until its prerequisites are met: P0 must reach Complete (complete)']);
  const theirs = await api(env, 'POST', `/api/projects/${mate.project}/task_def_id/${g1}/submission`, { as: mate.actor.creds, multipart: file });
  assert.is(theirs.status, 201, theirs.text);
  const statuses = await k().selectFrom('tasks').select(['project_id', 'status']).where('task_definition_id', '=', g1).orderBy('project_id').execute();
  assert.equal(statuses, [
    { project_id: w.project, status: 'ready_for_feedback' },
    { project_id: mate.project, status: 'ready_for_feedback' },
  ]);
});

test("the student's task lists, the project and the tutor's inbox say which prerequisites are unmet, in one query each", async () => {
  const w = await world();
  await create(people.convenor, w.unit, w.td, { prerequisite_id: w.p0, task_status: 'discuss' });
  await create(people.convenor, w.unit, w.p2, { prerequisite_id: w.p0, task_status: 'working_on_it' });
  await seedTask(env, w.project, w.p0, { status: 'working_on_it' });
  await seedTask(env, w.project, w.td, { status: 'need_help' });
  await seedTask(env, w.project, w.p2, { status: 'working_on_it' });
  const unmetP0 = [{ task_definition_id: w.p0, abbreviation: 'P0', task_status: 'discuss' }];
  const byDefinition = (rows: { task_definition_id: number; locked: boolean; prerequisites_unmet: unknown[] }[]) =>
    Object.fromEntries(rows.map((r) => [r.task_definition_id, [r.locked, r.prerequisites_unmet]]));
  const expected = { [w.p0]: [false, []], [w.td]: [true, unmetP0], [w.p2]: [false, []] };

  const tasks = await api(env, 'GET', '/api/tasks', { as: people.student.creds, query: { unit_id: w.unit } });
  assert.is(tasks.status, 200, tasks.text);
  assert.equal(byDefinition(tasks.body), expected);
  const project = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.student.creds });
  assert.is(project.status, 200, project.text);
  assert.equal(byDefinition(project.body.tasks), expected);
  const inbox = await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.tutor.creds });
  assert.is(inbox.status, 200, inbox.text);
  // The inbox holds the tasks waiting on staff: P1 (need help), locked for its student.
  assert.equal(byDefinition(inbox.body), { [w.td]: [true, unmetP0] });
});

test.run();
