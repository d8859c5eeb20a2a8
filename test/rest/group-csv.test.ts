// Group CSVs: GET/POST /api/units/{unit_id}/group_sets/{group_set_id}/groups/csv and .../student_csv.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Group, GroupMembership, Tutorial, TutorialEnrolment } from '../../schema/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { appRouter } from '../../src/routers/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type Actor, type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { membershipsOf, seedGroupRow, seedGroupSet, seedMember, type SetSeed } from '../support/seed-group-members.ts';
import { seedEnrolmentIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST group CSVs: .../group_sets/{group_set_id}/groups/csv and /student_csv');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

interface World {
  unit: number;
  set: number;
  tutorial: number;
}

/** SIT101 convened by people.convenor (main) and tutored by people.tutor, a tutorial T1 on campus B, and the set `Projects`. */
async function world(setSeed: SetSeed = {}): Promise<World> {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const campus = await seedCampus(env);
  const tutorial = await seedTutorialRow(env, unit, 'T1', { campus });
  return { unit, set: await seedGroupSet(env, unit, setSeed), tutorial };
}

const url = (w: World, which: 'csv' | 'student_csv') => `/api/units/${w.unit}/group_sets/${w.set}/groups/${which}`;
const upload = (w: World, which: 'csv' | 'student_csv', text: string | Buffer, as: Actor = people.convenor, filename = 'groups.csv') =>
  api(env, 'POST', url(w, which), {
    as: as.creds,
    multipart: { file: { filename, contentType: 'text/csv', data: Buffer.isBuffer(text) ? text : Buffer.from(text) } },
  });

async function groupsOf(set: number) {
  const rows = await env.orm.em.fork().find(Group, { groupSet: set }, { orderBy: { name: 'asc' }, populate: ['tutorial'] });
  return rows.map((g) => ({ name: g.name, tutorial: (g.tutorial as unknown as { abbreviation: string }).abbreviation, adjustment: g.capacityAdjustment }));
}

async function student(w: World, username: string, options: { enrolled?: boolean } = {}): Promise<number> {
  return enrol(env, (await signedIn(env, username, 'Student')).user, w.unit, { enrolled: options.enrolled ?? true });
}

// ---- Groups CSV -------------------------------------------------------------------------------

test("GET groups/csv: the set's groups by name with tutorial and campus abbreviations, as an attachment", async () => {
  const w = await world();
  const bare = await seedTutorialRow(env, w.unit, 'T2');
  await seedGroupRow(env, w.set, bare, 'Zeta, the last', { capacityAdjustment: -1 });
  await seedGroupRow(env, w.set, w.tutorial, 'Alpha', { capacityAdjustment: 2 });
  const other = await seedGroupSet(env, w.unit, { name: 'Labs' });
  await seedGroupRow(env, other, w.tutorial, 'Elsewhere');
  const res = await api(env, 'GET', `${url(w, 'csv')}.json`, { as: people.convenor.creds });
  assert.is(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^text\/csv/);
  assert.is(res.headers['content-disposition'], 'attachment; filename=SIT101-Projects-groups.csv');
  assert.is(res.text, 'group_name,capacity_adjustment,tutorial,campus\r\nAlpha,2,T1,B\r\n"Zeta, the last",-1,T2,\r\n');
});

test('POST groups/csv: BOM, CRLF, any header case and order; creates, updates, creates tutorials; answers {result} saying what was done', async () => {
  const w = await world();
  await seedCampus(env, { name: 'Geelong', abbreviation: 'G' });
  await seedGroupRow(env, w.set, w.tutorial, 'Existing');
  await seedGroupRow(env, w.set, w.tutorial, 'Same', { capacityAdjustment: 1 });
  const csv =
    '\uFEFF Tutorial ,GROUP_NAME,Campus,Capacity_Adjustment\r\n' +
    'T1,"Team, one",,2\r\n' +
    'NEW1,Existing,geelong,-1\r\n' +
    'T1,Same,,1\r\n' +
    ',No tutorial,,0\r\n' +
    'T1,Bad number,,lots\r\n' +
    'T9,Nowhere,Mars,0\r\n';
  const res = await upload(w, 'csv', csv);
  assert.is(res.status, 200, res.text);
  assert.is(
    res.body.result,
    '1 group created, 1 updated, 1 unchanged, 1 tutorial created. 1 row ignored. 3 rows with errors: No tutorial: missing tutorial; Bad number: ' +
      'capacity_adjustment must be a whole number (at most 100000 either way); Nowhere: unable to find campus (Mars).',
  );
  assert.equal(
    res.body.success.map((s: { message: string }) => s.message),
    ['Setup Team, one. Created new group.', 'Setup Existing. Created new tutorial.'],
  );
  assert.equal(res.body.success[0].row, { tutorial: 'T1', group_name: 'Team, one', campus: '', capacity_adjustment: '2' });
  assert.equal(
    res.body.ignored.map((s: { message: string }) => s.message),
    ['Same is already set up this way.'],
  );
  assert.equal(await groupsOf(w.set), [
    { name: 'Existing', tutorial: 'NEW1', adjustment: -1 },
    { name: 'Same', tutorial: 'T1', adjustment: 1 },
    { name: 'Team, one', tutorial: 'T1', adjustment: 2 },
  ]);
  const created = await env.orm.em.fork().findOneOrFail(Tutorial, { unit: w.unit, abbreviation: 'NEW1' }, { populate: ['campus', 'tutor'] });
  assert.equal([created.meetingDay, created.meetingTime, created.meetingLocation, created.capacity], ['Monday', '8:00am', 'TBA', -1]);
  assert.is((created.campus as unknown as { abbreviation: string }).abbreviation, 'G');
  assert.is(((created.tutor as unknown as { user: { id: number } }).user as { id: number }).id, people.convenor.user.id);
});

test('POST groups/csv: what the download gives re-imports unchanged', async () => {
  const w = await world();
  await seedGroupRow(env, w.set, w.tutorial, 'A', { capacityAdjustment: 1 });
  await seedGroupRow(env, w.set, w.tutorial, 'B "quoted"');
  const exported = await api(env, 'GET', url(w, 'csv'), { as: people.convenor.creds });
  const res = await upload(w, 'csv', exported.text);
  assert.is(res.body.result, '0 groups created, 0 updated, 2 unchanged. 2 rows ignored.');
  assert.equal(await groupsOf(w.set), [
    { name: 'A', tutorial: 'T1', adjustment: 1 },
    { name: 'B "quoted"', tutorial: 'T1', adjustment: 0 },
  ]);
});

test('POST groups/csv: moving a keep-in-class group to another tutorial moves its members, as the group update does', async () => {
  const w = await world({ keepGroupsInSameClass: true });
  const t2 = await seedTutorialRow(env, w.unit, 'T2');
  const group = await seedGroupRow(env, w.set, w.tutorial, 'G');
  const project = await student(w, 'bstudent');
  await seedEnrolmentIn(env, project, w.tutorial);
  await seedMember(env, group, project);
  const res = await upload(w, 'csv', 'group_name,tutorial,capacity_adjustment\nG,T2,0\n');
  assert.is(res.body.result, '0 groups created, 1 updated.', res.text);
  const enrolments = await env.orm.em.fork().find(TutorialEnrolment, { project });
  assert.equal(
    enrolments.map((e) => (e.tutorial as unknown as { id: number }).id),
    [t2],
  );
});

test('POST groups/csv refusals: a PDF named .csv (403), no file, a missing column (400), a tutor (403), an unknown set (404); nothing changes', async () => {
  const w = await world();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  let res = await upload(w, 'csv', pdf);
  assert.equal([res.status, res.body], [403, { error: 'File given is not a csv file - detected application/pdf' }]);
  res = await api(env, 'POST', url(w, 'csv'), { as: people.convenor.creds, multipart: { note: 'no file' } });
  assert.equal([res.status, res.body], [400, { error: 'file is missing' }]);
  res = await upload(w, 'csv', 'group_name,tutorial\nG,T1\n');
  assert.equal([res.status, res.body], [400, { error: 'Missing headers: capacity_adjustment' }]);
  res = await upload(w, 'csv', 'group_name,tutorial,capacity_adjustment\nG,T1,0\n', people.tutor);
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload csv of groups for this unit' }]);
  res = await api(env, 'GET', url(w, 'csv'), { as: people.student.creds });
  assert.equal([res.status, res.body], [403, { error: 'Not authorised to download csv of groups for this unit' }]);
  const elsewhere = await seedUnit(env, { code: 'SIT202' });
  const foreignSet = await seedGroupSet(env, elsewhere);
  res = await upload({ ...w, set: foreignSet }, 'csv', 'group_name,tutorial,capacity_adjustment\nG,T1,0\n');
  assert.equal([res.status, res.body], [404, { error: 'Unable to find requested Group Set' }]);
  assert.equal(await groupsOf(w.set), []);
  assert.equal(await groupsOf(foreignSet), []);
});

// ---- Student groups CSV -----------------------------------------------------------------------

test('GET groups/student_csv: active, enrolled members by group then username', async () => {
  const w = await world();
  const a = await seedGroupRow(env, w.set, w.tutorial, 'A');
  const b = await seedGroupRow(env, w.set, w.tutorial, 'B');
  await seedMember(env, b, await student(w, 'zed'));
  await seedMember(env, a, await student(w, 'yan'));
  await seedMember(env, a, await student(w, 'abe'));
  await seedMember(env, a, await student(w, 'gone', { enrolled: false }));
  await seedMember(env, a, await student(w, 'left'), false);
  const res = await api(env, 'GET', url(w, 'student_csv'), { as: people.admin.creds });
  assert.is(res.status, 200, res.text);
  assert.is(res.headers['content-disposition'], 'attachment; filename=SIT101-Projects-student-groups.csv');
  assert.is(res.text, 'group_name,username\r\nA,abe\r\nA,yan\r\nB,zed\r\n');
});

test('POST groups/student_csv: adds, moves within the set, exceeds capacity as the convenor, and reports each problem row', async () => {
  const w = await world({ capacity: 2 });
  const a = await seedGroupRow(env, w.set, w.tutorial, 'A');
  const b = await seedGroupRow(env, w.set, w.tutorial, 'B');
  const locked = await seedGroupRow(env, w.set, w.tutorial, 'Locked', { locked: true });
  const [p1, p2, p3, p4, p5] = [await student(w, 's1'), await student(w, 's2'), await student(w, 's3'), await student(w, 's4'), await student(w, 's5')];
  await student(w, 'gone', { enrolled: false });
  await signedIn(env, 'stranger', 'Student');
  await seedMember(env, b, p2);
  await seedMember(env, a, p4);
  const csv = [
    'Username,Group_Name',
    's1,A',
    'S2,A', // moves from B
    's3,A', // a third in a group of 2: the convenor may exceed
    's4,A', // already there
    's5,Locked',
    ',A',
    'nobody,A',
    'gone,A',
    'stranger,A',
    's5,Missing',
  ].join('\n');
  const res = await upload(w, 'student_csv', csv);
  assert.is(res.status, 200, res.text);
  assert.is(
    res.body.result,
    '3 students added to groups, 1 of them moved from another group of the set. 2 rows ignored. 5 rows with errors: s5: Group is locked, ' +
      'no additional members can be added; Unable to find user nobody; Student gone is not enrolled in SIT101; Student stranger is not enrolled in SIT101; ' +
      'Unable to find group Missing in Projects.',
  );
  assert.equal(
    res.body.success.map((s: { message: string }) => s.message),
    ['Added s1 to A.', 'Moved s2 to A.', 'Added s3 to A.'],
  );
  assert.equal(
    res.body.ignored.map((s: { message: string }) => s.message),
    ['s4 is already in A.', 'Skipping row with missing username'],
  );
  for (const p of [p1, p2, p3, p4])
    assert.equal(
      (await membershipsOf(env, p)).filter((m) => m.active),
      [{ group: a, active: true }],
    );
  assert.equal(await membershipsOf(env, p5), []);
  assert.is(await env.orm.em.fork().count(GroupMembership, { group: locked }), 0);
});

test("POST groups/student_csv in a keep-in-class set: the student joins the group's tutorial first; a refused row undoes that enrolment too", async () => {
  const w = await world({ keepGroupsInSameClass: true });
  const t2 = await seedTutorialRow(env, w.unit, 'T2');
  const open = await seedGroupRow(env, w.set, w.tutorial, 'Open');
  await seedGroupRow(env, w.set, t2, 'Shut', { locked: true });
  const p1 = await student(w, 's1');
  const p2 = await student(w, 's2');
  await seedEnrolmentIn(env, p1, t2);
  const res = await upload(w, 'student_csv', 'group_name,username\nOpen,s1\nShut,s2\n');
  assert.is(
    res.body.result,
    "1 student added to groups, 1 student enrolled in their group's tutorial. 1 row with errors: s2: Group is locked, no additional members can be added.",
    res.text,
  );
  assert.equal(res.body.success[0].message, "Added s1 to Open. Enrolled in the group's tutorial.");
  const tutorialsOf = async (p: number) =>
    (await env.orm.em.fork().find(TutorialEnrolment, { project: p })).map((e) => (e.tutorial as unknown as { id: number }).id);
  assert.equal(await tutorialsOf(p1), [w.tutorial]);
  assert.equal(await membershipsOf(env, p1), [{ group: open, active: true }]);
  assert.equal(await tutorialsOf(p2), []);
});

test('POST groups/student_csv refusals: a PDF (403), a missing column (400), a student or tutor (403); nothing changes', async () => {
  const w = await world();
  const group = await seedGroupRow(env, w.set, w.tutorial, 'A');
  const p = await student(w, 's1');
  let res = await upload(w, 'student_csv', Buffer.from('%PDF-1.4\n%%EOF\n'));
  assert.equal([res.status, res.body], [403, { error: 'File given is not a csv file - detected application/pdf' }]);
  res = await upload(w, 'student_csv', 'group_name\nA\n');
  assert.equal([res.status, res.body], [400, { error: 'Missing headers: username' }]);
  for (const who of [people.tutor, people.student]) {
    res = await upload(w, 'student_csv', 'group_name,username\nA,s1\n', who);
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload csv of groups for this unit' }]);
  }
  assert.equal(await membershipsOf(env, p), []);
  assert.is(await env.orm.em.fork().count(GroupMembership, { group }), 0);
});

test('tRPC: the student groups CSV download through the typed caller', async () => {
  const w = await world();
  const group = await seedGroupRow(env, w.set, w.tutorial, 'A');
  await seedMember(env, group, await student(w, 's1'));
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const file = await caller.units.groupSets.groups.studentCsv.download({ unit_id: w.unit, group_set_id: w.set });
  assert.is(file.data.toString('utf8'), 'group_name,username\r\nA,s1\r\n');
});

test.run();
