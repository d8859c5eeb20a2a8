import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Project, TutorialEnrolment, User } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { seedStream, seedTutorial, seedTutorialEnrolment } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('REST /api/csv/units/{id} (students CSV enrol, withdraw, export)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const csv = (text: string) => ({ file: { filename: 'students.csv', contentType: 'text/csv', data: Buffer.from(text) } });
const HEADER = 'Unit_Code, Username ,Student_ID,First_Name,Last_Name,Email,Campus,prac,wrk\n';

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const campus = await seedCampus(env);
  const prac = await seedStream(env, unit, 'prac');
  const wrk = await seedStream(env, unit, 'wrk');
  const p1 = await seedTutorial(env, unit, 'P1', { stream: prac });
  const p2 = await seedTutorial(env, unit, 'P2', { stream: prac });
  const w1 = await seedTutorial(env, unit, 'W1', { stream: wrk });
  return { unit, campus, p1, p2, w1 };
}

test('the convenor enrols from CSV: users created without a password, projects, one tutorial per stream; 201 with the three lists', async () => {
  const w = await world();
  const existing = await createUser(env, 'bstudent', 'Student');
  await enrol(env, existing, w.unit, { enrolled: false });
  const body =
    HEADER +
    'SIT101,NEWONE,s100,ada,LOVELACE,ada@uni.edu,B,P1,W1\n' +
    'SIT101/SIT701,bstudent,s200,B,Student,bstudent@example.edu,Burwood,P2,\n' +
    'SIT101,newone,s100,Ada,Lovelace,ada@uni.edu,B,P1,W1\n' +
    'SIT999,other,1,A,B,o@uni.edu,B,,\n' +
    'SIT101,bad,1,A,B,not-an-email,B,,\n' +
    'SIT101,nocampus,3,A,B,n@uni.edu,Mars,,\n' +
    'SIT101,wrongtut,4,A,B,w@uni.edu,,W1,ZZ\n' +
    'SIT101,sameemail,5,A,B,w@uni.edu,,,\n' +
    'SIT101,sameid,s100,A,B,sameid@uni.edu,,,\n';
  const res = await api(env, 'POST', `/api/csv/units/${w.unit}`, { as: people.convenor.creds, multipart: csv(body) });
  assert.is(res.status, 201);
  assert.equal(
    res.body.success.map((r: { row: { username: string }; message: string }) => [r.row.username, r.message]),
    [
      ['NEWONE', 'Enrolled student. Enrolled in P1. Enrolled in W1.'],
      ['bstudent', 'Re-enrolled student. Enrolled in P2.'],
      ['wrongtut', 'Enrolled student. UNABLE TO enroll in W1: it is not in stream prac. UNABLE TO enroll in ZZ: no tutorial has that abbreviation.'],
    ],
  );
  assert.equal(
    res.body.ignored.map((r: { message: string }) => r.message),
    ['Skipping duplicate role', 'Invalid unit code. SIT999 does not match SIT101'],
  );
  assert.equal(
    res.body.errors.map((r: { message: string }) => r.message),
    [
      'Invalid email address (not-an-email)',
      'Unable to find campus (Mars)',
      'Email w@uni.edu belongs to another user',
      'Student id s100 belongs to another user',
    ],
  );

  const em = env.orm.em.fork();
  const ada = await em.findOneOrFail(User, { username: 'newone' });
  assert.equal(
    [ada.firstName, ada.lastName, ada.nickname, ada.studentId, ada.systemRole, ada.passwordHash],
    ['Ada', 'Lovelace', 'Ada', 's100', 'Student', null],
  );
  assert.is((await em.findOneOrFail(User, { id: existing.id })).studentId, 's200');
  const projects = await em.find(Project, { unit: w.unit }, { orderBy: { id: 'asc' } });
  assert.is(projects.length, 3);
  assert.ok(projects.every((p) => p.enrolled));
  const adaProject = projects.find((p) => (p.user as unknown as { id: number }).id === ada.id)!;
  const tutorials = (await em.find(TutorialEnrolment, { project: adaProject.id })).map((e) => (e.tutorial as unknown as { id: number }).id).sort();
  assert.equal(tutorials, [w.p1, w.w1].sort());
});

test('a second upload moves a student within a stream, replaces the campus, and reports unchanged rows as ignored', async () => {
  const w = await world();
  const online = await seedCampus(env, { name: 'Online', abbreviation: 'O' });
  const project = await enrol(env, people.student.user, w.unit, { campus: w.campus });
  await seedTutorialEnrolment(env, project, w.p1);
  await seedTutorialEnrolment(env, project, w.w1);
  const same = await api(env, 'POST', `/api/csv/units/${w.unit}`, {
    as: people.convenor.creds,
    multipart: csv(`${HEADER}SIT101,astudent,,A,S,astudent@example.edu,B,P1,W1\n`),
  });
  assert.equal(
    same.body.ignored.map((r: { message: string }) => r.message),
    ['No change.'],
  );
  const moved = await api(env, 'POST', `/api/csv/units/${w.unit}`, {
    as: people.convenor.creds,
    multipart: csv(`${HEADER}SIT101,astudent,,A,S,astudent@example.edu,O,P2,\n`),
  });
  assert.equal(
    moved.body.success.map((r: { message: string }) => r.message),
    ['Campus updated. Enrolled in P2.'],
  );
  const em = env.orm.em.fork();
  assert.is(((await em.findOneOrFail(Project, { id: project })).campus as unknown as { id: number }).id, online);
  const tutorials = (await em.find(TutorialEnrolment, { project })).map((e) => (e.tutorial as unknown as { id: number }).id).sort();
  assert.equal(tutorials, [w.p2, w.w1].sort());
});

test('the same number of statements for 3 rows as for 40', async () => {
  const w = await world();
  const rows = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `SIT101,s${from + i},id${from + i},A,B,s${from + i}@uni.edu,B,P${(i % 2) + 1},W1`).join('\n');
  const upload = (text: string) => api(env, 'POST', `/api/csv/units/${w.unit}`, { as: people.convenor.creds, multipart: csv(HEADER + text) });
  await upload(rows(100, 101)); // the session is then cached
  const few = await countStatements(async () => assert.is((await upload(rows(0, 3))).body.success.length, 3));
  const many = await countStatements(async () => assert.is((await upload(rows(3, 43))).body.success.length, 40));
  assert.is(many, few);
});

test('withdraw CSV: listed students withdrawn, unknown users errors, not enrolled ignored', async () => {
  const w = await world();
  const project = await enrol(env, people.student.user, w.unit);
  const gone = await createUser(env, 'bstudent', 'Student');
  await enrol(env, gone, w.unit, { enrolled: false });
  const body = 'unit_code,username\nSIT101,AStudent\nSIT101,bstudent\nSIT101,ghost\nSIT999,astudent\n';
  const res = await api(env, 'POST', `/api/csv/units/${w.unit}/withdraw`, { as: people.convenor.creds, multipart: csv(body) });
  assert.is(res.status, 201);
  assert.equal(
    res.body.success.map((r: { message: string }) => r.message),
    ['User AStudent withdrawn from unit'],
  );
  assert.equal(
    res.body.errors.map((r: { message: string }) => r.message),
    ['User ghost not found'],
  );
  assert.equal(
    res.body.ignored.map((r: { message: string }) => r.message),
    ['Invalid unit code. SIT999 does not match SIT101', 'User bstudent not enrolled in unit'],
  );
  assert.is((await env.orm.em.fork().findOneOrFail(Project, { id: project })).enrolled, false);
});

test('tutors and students are refused uploads (403, nothing enrolled); no file 400; a PDF 403; unknown unit 404', async () => {
  const w = await world();
  const body = csv(`${HEADER}SIT101,newone,1,A,B,a@uni.edu,B,,\n`);
  for (const who of [people.tutor, people.student]) {
    for (const path of [`/api/csv/units/${w.unit}`, `/api/csv/units/${w.unit}/withdraw`]) {
      const res = await api(env, 'POST', path, { as: who.creds, multipart: body });
      assert.equal([res.status, res.body], [403, { error: `Not authorised to upload CSV of students to unit ${w.unit}` }]);
    }
  }
  assert.is(await env.orm.em.fork().count(Project, {}), 0);
  const none = await api(env, 'POST', `/api/csv/units/${w.unit}`, { as: people.convenor.creds, multipart: { note: 'x' } });
  assert.equal([none.status, none.body], [400, { error: 'file is missing' }]);
  const pdf = await api(env, 'POST', `/api/csv/units/${w.unit}`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'a.csv', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 nope') } },
  });
  assert.equal([pdf.status, pdf.body], [403, { error: 'File given is not a csv file - detected application/pdf' }]);
  assert.is((await api(env, 'POST', '/api/csv/units/999', { as: people.convenor.creds, multipart: body })).status, 404);
  assert.is((await api(env, 'POST', `/api/csv/units/${w.unit}`, { multipart: body })).status, 419);
});

test('the export lists enrolled students in the enrol format, with or without a campus; students are refused', async () => {
  const w = await world();
  const project = await enrol(env, people.student.user, w.unit, { campus: w.campus });
  await seedTutorialEnrolment(env, project, w.w1);
  await enrol(env, await createUser(env, 'bstudent', 'Student', { studentId: 's2' }), w.unit);
  await enrol(env, await createUser(env, 'cstudent', 'Student'), w.unit, { enrolled: false });
  const res = await api(env, 'GET', `/api/csv/units/${w.unit}`, { as: people.tutor.creds });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-disposition']), 'SIT101-Students.csv');
  assert.is(
    res.text,
    'unit_code,campus,username,student_id,preferred_name,first_name,last_name,email,prac,wrk,engagements\r\n' +
      'SIT101,B,astudent,,astudent,Astudent,Tester,astudent@example.edu,,W1,0\r\n' +
      'SIT101,,bstudent,s2,bstudent,Bstudent,Tester,bstudent@example.edu,,,0\r\n',
  );
  assert.is((await api(env, 'GET', `/api/csv/units/${w.unit}`, { as: people.student.creds })).status, 403);
});

test.run();
