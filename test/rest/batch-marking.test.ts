// Offline batch marking: GET /api/submission/assess (the zip) and POST (marks.csv or the zip back).
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { readCsv } from '../../src/domain/csv.ts';
import { storageKeys, readAll } from '../../src/storage/index.ts';
import { insertComments } from '../../src/operations/tasks/comments.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { seedEnrolmentIn, seedGroupIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { freshEachTest } from '../support/suite.ts';
import { pdfBytes, rawZip, unzip } from '../support/zips.ts';
import { samplePng } from '../support/sample-files.ts';

const test = suite('REST /api/submission/assess (batch marking)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const HEADER = "Username,Name,Tutorial,Task,Student's Last Comment,Your Last Comment,Status,New Grade,New Quality,Max Quality,New Comment";

interface World {
  unit: number;
  tutorial: number;
  project: number;
  bob: Actor;
  bobProject: number;
  carol: Actor;
  carolProject: number;
  p1: number;
  c1: number;
}

/**
 * SIT101: people.tutor takes LA1-01 (astudent and Bob Smith), the convenor takes LA1-02 (Carol).
 * P1 is a plain task; C1 is graded with up to 5 quality points.
 */
async function world(): Promise<World> {
  const unit = await seedUnit(env, { code: 'SIT101' });
  const convenorRole = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01', { tutor: tutorRole });
  const other = await seedTutorialRow(env, unit, 'LA1-02', { tutor: convenorRole });
  const project = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, project, tutorial);
  const bob = await signedIn(env, 'bstudent', 'Student');
  const bobProject = await enrol(env, bob.user, unit);
  await seedEnrolmentIn(env, bobProject, tutorial);
  const carol = await signedIn(env, 'cstudent', 'Student');
  const carolProject = await enrol(env, carol.user, unit);
  await seedEnrolmentIn(env, carolProject, other);
  const p1 = await seedTaskDefinition(env, unit, 'P1');
  const c1 = await seedTaskDefinition(env, unit, 'C1', { isGraded: true, maxQualityPts: 5 });
  return { unit, tutorial, project, bob, bobProject, carol, carolProject, p1, c1 };
}

const trigger = async (as: Actor, project: number, td: number, word: string) => {
  const res = await api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: as.creds, json: { trigger: word } });
  assert.is(res.status, 200, res.text);
  return res.body.id as number;
};

/** Stores a PDF for the task's latest submission, as the PDF worker will. */
async function givePdf(taskId: number, label: string): Promise<string> {
  const k = db(env.orm.em.fork());
  const submission = await k.selectFrom('task_submissions').select('id').where('task_id', '=', taskId).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const key = storageKeys.submissionPdf(submission.id);
  await env.services.storage.put(key, Readable.from([pdfBytes(label)]));
  await k.updateTable('tasks').set({ pdf_path: key }).where('id', '=', taskId).execute();
  return key;
}

/** The raw download (the test client reads bodies as text). */
async function download(as: Actor, query: string, path = '/api/submission/assess') {
  const res = await env.app.inject({ method: 'GET', url: `${path}?${query}`, headers: { Username: as.creds.username, Auth_Token: as.creds.token } });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => JSON.parse(res.body) };
}

const upload = (as: Actor, unit: number, file: { filename: string; contentType: string; data: Buffer }) =>
  api(env, 'POST', '/api/submission/assess', { as: as.creds, multipart: { unit_id: String(unit), file } });

const csvFile = (text: string) => ({ filename: 'marks.csv', contentType: 'text/csv', data: Buffer.from(text) });

/** Fills marks.csv's cells for the rows whose Username and Task match. */
function fill(csv: string, edits: { username: string; task: string; set: Record<string, string> }[]): string {
  const lines = csv.trim().split(/\r?\n/);
  const header = lines[0].split(',');
  return [
    lines[0],
    ...lines.slice(1).map((line) => {
      const cells = line.split(',');
      const edit = edits.find((e) => cells[0] === e.username && cells[3] === e.task);
      if (edit) for (const [column, value] of Object.entries(edit.set)) cells[header.indexOf(column)] = value;
      return cells.join(',');
    }),
  ].join('\r\n');
}

async function taskRow(id: number) {
  return db(env.orm.em.fork()).selectFrom('tasks').select(['status', 'grade', 'quality_pts', 'times_assessed']).where('id', '=', id).executeTakeFirstOrThrow();
}

async function textComments() {
  return db(env.orm.em.fork())
    .selectFrom('task_comments')
    .select(['task_id', 'author_id', 'recipient_id', 'comment'])
    .where('kind', '=', 'text')
    .orderBy('id')
    .execute();
}

test("GET: a zip of marks.csv, readme.txt and the PDFs of the work waiting in the tutor's tutorials", async () => {
  const w = await world();
  const mine = await trigger(people.student, w.project, w.p1, 'rff');
  await givePdf(mine, 'astudent P1');
  const bobs = await trigger(w.bob, w.bobProject, w.c1, 'need_help'); // no PDF yet: a row without a PDF
  await trigger(w.bob, w.bobProject, w.p1, 'working_on_it'); // not waiting
  await trigger(w.carol, w.carolProject, w.p1, 'rff'); // in the convenor's tutorial
  await insertComments(
    env.orm.em.fork(),
    [
      { taskId: mine, authorId: people.student.user.id, recipientId: people.tutor.user.id, kind: 'text', comment: 'Is this "right", please?' },
      { taskId: mine, authorId: people.tutor.user.id, recipientId: people.student.user.id, kind: 'text', comment: 'Earlier note' },
    ],
    new Date('2026-03-02T00:00:00Z'),
  );

  const res = await download(people.tutor, `unit_id=${w.unit}`);
  assert.is(res.status, 200, res.bytes.toString());
  assert.is(res.headers['content-type'], 'application/zip');
  assert.match(String(res.headers['content-disposition']), /attachment; filename="?2026-03-02-SIT101-atutor\.zip/);
  const entries = await unzip(res.bytes);
  assert.equal([...entries.keys()].sort(), [`astudent/P1-${mine}.pdf`, 'marks.csv', 'readme.txt']);
  assert.equal(entries.get(`astudent/P1-${mine}.pdf`), pdfBytes('astudent P1'));
  assert.match(entries.get('readme.txt')!.toString(), /marks\.csv/);

  const text = entries.get('marks.csv')!.toString();
  assert.is(text.split('\r\n')[0], HEADER);
  const { rows } = await readCsv(text);
  assert.equal(
    rows.map((r) => [r.username, r.name, r.tutorial, r.task, r["student's_last_comment"], r.your_last_comment, r.status, r.new_grade, r.max_quality]),
    [
      ['astudent', 'Astudent Tester', 'LA1-01', 'P1', 'Is this "right", please?', 'Earlier note', 'rff', '', '0'],
      ['bstudent', 'Bstudent Tester', 'LA1-01', 'C1', '', '', 'need_help', '', '5'],
    ],
  );
  assert.ok(bobs > 0);

  // The web client's URL builder adds .json; the convenor's package holds LA1-02's work only.
  const json = await download(people.tutor, `unit_id=${w.unit}`, '/api/submission/assess.json');
  assert.is(json.status, 200);
  const convenors = await readCsv((await unzip((await download(people.convenor, `unit_id=${w.unit}`)).bytes)).get('marks.csv')!.toString());
  assert.equal(
    convenors.rows.map((r) => [r.username, r.tutorial]),
    [['cstudent', 'LA1-02']],
  );
});

test("GET: a convenor may take a tutor's package (user_id), a tutor not another's; students, other units' tutors and unknown units are refused", async () => {
  const w = await world();
  await trigger(people.student, w.project, w.p1, 'rff');
  const theirs = await download(people.convenor, `unit_id=${w.unit}&user_id=${people.tutor.user.id}`);
  assert.is(theirs.status, 200);
  assert.ok((await unzip(theirs.bytes)).get('marks.csv')!.toString().includes('astudent,'));
  const refused = { error: 'Not authorised to batch download ready to mark submissions' };
  const tutorAsks = await download(people.tutor, `unit_id=${w.unit}&user_id=${people.convenor.user.id}`);
  assert.is(tutorAsks.status, 403);
  assert.equal(tutorAsks.json(), refused);
  const notStaff = await download(people.convenor, `unit_id=${w.unit}&user_id=${people.student.user.id}`);
  assert.is(notStaff.status, 403);
  assert.is((await download(people.convenor, `unit_id=${w.unit}&user_id=99999`)).status, 404);

  const student = await download(people.student, `unit_id=${w.unit}`);
  assert.is(student.status, 403);
  assert.equal(student.json(), refused);
  const otherUnit = await seedUnit(env, { code: 'SIT202' });
  const stranger = await signedIn(env, 'otutor', 'Tutor');
  await employ(env, stranger.user, otherUnit, 'Tutor');
  assert.is((await download(stranger, `unit_id=${w.unit}`)).status, 403);
  assert.is((await download(people.admin, `unit_id=${w.unit}`)).status, 403);
  const unknown = await download(people.tutor, 'unit_id=99999');
  assert.is(unknown.status, 404);
  assert.equal(unknown.json(), { error: 'Unable to find requested Unit' });
});

test('round trip: marks.csv filled in and uploaded assesses the tasks, adds the comments, refreshes the stats and reports each row', async () => {
  const w = await world();
  const mine = await trigger(people.student, w.project, w.p1, 'rff');
  const bobs = await trigger(w.bob, w.bobProject, w.c1, 'rff');
  const zip = await unzip((await download(people.tutor, `unit_id=${w.unit}`)).bytes);
  const marks = fill(zip.get('marks.csv')!.toString(), [
    { username: 'astudent', task: 'P1', set: { Status: 'complete', 'New Comment': 'Well done' } },
    { username: 'bstudent', task: 'C1', set: { Status: 'd', 'New Grade': 'HD', 'New Quality': '4' } },
  ]);
  const res = await upload(people.tutor, w.unit, csvFile(marks));
  assert.is(res.status, 201, res.text);
  assert.equal(res.body.errors, []);
  assert.equal(res.body.ignored, []);
  assert.equal(
    res.body.success.map((s: { row: Record<string, string>; message: string }) => [s.row.username, s.message]),
    [
      ['astudent', 'Updated task P1 for Astudent Tester and added a comment'],
      ['bstudent', 'Updated task C1 for Bstudent Tester'],
    ],
  );
  assert.is(res.body.message, '2 rows applied, 1 comment added.');

  assert.equal(await taskRow(mine), { status: 'complete', grade: null, quality_pts: -1, times_assessed: 1 });
  assert.equal(await taskRow(bobs), { status: 'discuss', grade: 3, quality_pts: 4, times_assessed: 1 });
  assert.equal(await textComments(), [{ task_id: mine, author_id: people.tutor.user.id, recipient_id: people.student.user.id, comment: 'Well done' }]);
  const statuses = await db(env.orm.em.fork())
    .selectFrom('task_comments')
    .select(['task_id', 'task_status', 'author_id'])
    .where('kind', '=', 'status')
    .where('task_status', 'in', ['complete', 'discuss'])
    .orderBy('id')
    .execute();
  assert.equal(statuses, [
    { task_id: mine, task_status: 'complete', author_id: people.tutor.user.id },
    { task_id: bobs, task_status: 'discuss', author_id: people.tutor.user.id },
  ]);
  const stats = await db(env.orm.em.fork())
    .selectFrom('projects')
    .select(['id', 'task_stats'])
    .where('id', 'in', [w.project, w.bobProject])
    .orderBy('id')
    .execute();
  for (const s of stats) assert.ok((s.task_stats as { green_pct: number }).green_pct > 0, `project ${s.id} stats refreshed`);

  // Marked work has left the package.
  const after = await download(people.tutor, `unit_id=${w.unit}`);
  assert.is(after.status, 404);
  assert.equal(after.json(), { error: 'No files to download' });
});

test('a bad row changes nothing of its own; the other rows apply; unchanged rows are ignored', async () => {
  const w = await world();
  const mine = await trigger(people.student, w.project, w.p1, 'rff');
  const bobs = await trigger(w.bob, w.bobProject, w.c1, 'need_help');
  const bobsP1 = await trigger(w.bob, w.bobProject, w.p1, 'rff');
  const marks = [
    'username,name,tutorial,task,status,new grade,new quality,new comment',
    'astudent,A,LA1-01,P1,fix,,,Please fix the loop',
    'bstudent,B,LA1-01,C1,complete,,,This comment must not stay', // graded: no grade → refused
    'bstudent,B,LA1-01,P1,rff,,,', // as downloaded: nothing to change
    'nobody,N,LA1-01,P1,complete,,,',
    'astudent,A,LA1-01,ZZ,complete,,,',
    'astudent,A,LA1-01,C1,flying,,,',
    'bstudent,B,LA1-01,C1,d,Q,,',
  ].join('\n');
  const res = await upload(people.tutor, w.unit, csvFile(marks));
  assert.is(res.status, 201, res.text);
  assert.equal(
    res.body.success.map((s: { message: string }) => s.message),
    ['Updated task P1 for Astudent Tester and added a comment'],
  );
  assert.equal(
    res.body.ignored.map((s: { message: string }) => s.message),
    ['Nothing to change for task P1 for Bstudent Tester.'],
  );
  assert.equal(
    res.body.errors.map((e: { row: Record<string, string>; message: string }) => [e.row.username, e.row.task, e.message]),
    [
      ['bstudent', 'C1', `No grade was supplied for a graded task (task id ${bobs})`],
      ['nobody', 'P1', 'Unable to find student project for this task.'],
      ['astudent', 'ZZ', 'Unable to find task with abbreviation ZZ'],
      ['astudent', 'C1', "Unknown trigger 'flying'."],
      ['bstudent', 'C1', "Invalid grade 'Q': use -1 (F), 0 (P), 1 (C), 2 (D) or 3 (HD)."],
    ],
  );
  assert.is(res.body.message, '1 row applied, 1 comment added, 1 ignored, 5 errors.');
  assert.is((await taskRow(mine)).status, 'fix_and_resubmit');
  assert.equal(await taskRow(bobs), { status: 'need_help', grade: null, quality_pts: -1, times_assessed: 0 });
  assert.is((await taskRow(bobsP1)).status, 'ready_for_feedback');
  assert.equal(
    (await textComments()).map((c) => c.comment),
    ['Please fix the loop'],
  );
  // The refused row's task never got astudent's C1 created either.
  const created = await db(env.orm.em.fork())
    .selectFrom('tasks')
    .select('id')
    .where('project_id', '=', w.project)
    .where('task_definition_id', '=', w.c1)
    .execute();
  assert.equal(created, []);
});

test('the zip back: marks.csv applied and annotated PDFs replace the PDFs of the tasks whose rows went through', async () => {
  const w = await world();
  const mine = await trigger(people.student, w.project, w.p1, 'rff');
  const key = await givePdf(mine, 'original');
  const bobs = await trigger(w.bob, w.bobProject, w.c1, 'rff');
  const bobsKey = await givePdf(bobs, 'bob original');
  const marks = fill((await unzip((await download(people.tutor, `unit_id=${w.unit}`)).bytes)).get('marks.csv')!.toString(), [
    { username: 'astudent', task: 'P1', set: { Status: 'complete' } },
    { username: 'bstudent', task: 'C1', set: { Status: 'complete' } }, // no grade: refused
  ]);
  const zip = rawZip([
    ['package/marks.csv', marks],
    ['package/readme.txt', 'ignored quietly'],
    [`package/astudent/P1-${mine}.pdf`, pdfBytes('annotated')],
    [`package/bstudent/C1-${bobs}.pdf`, pdfBytes('bob annotated')],
    ['package/notes.txt', 'my notes'],
    ['package/astudent/P1-999999.pdf', pdfBytes('stray')],
  ]);
  const res = await upload(people.tutor, w.unit, { filename: 'marked.zip', contentType: 'application/zip', data: zip });
  assert.is(res.status, 201, res.text);
  assert.equal(
    res.body.success.map((s: { row: Record<string, string>; message: string }) => s.row.file ?? s.row.username),
    ['astudent', `package/astudent/P1-${mine}.pdf`],
  );
  assert.equal(res.body.ignored, [
    { row: { file: 'package/notes.txt' }, message: 'Does not appear to be a task PDF.' },
    { row: { file: 'package/astudent/P1-999999.pdf' }, message: 'Unable to find associated task.' },
  ]);
  assert.equal(
    res.body.errors.map((e: { message: string }) => e.message),
    [`No grade was supplied for a graded task (task id ${bobs})`, `Not stored: the row of task id ${bobs} in marks.csv has errors.`],
  );
  assert.equal(await readAll(env.services.storage, key, Infinity), pdfBytes('annotated'));
  assert.equal(await readAll(env.services.storage, bobsKey, Infinity), pdfBytes('bob original'));
  assert.is((await taskRow(mine)).status, 'complete');
});

test('group work: one row per group submission (GRP_<group>_<submission>), assessed for every member', async () => {
  const w = await world();
  const { groupSet, group } = await seedGroupIn(env, w.unit, w.tutorial, { members: [w.project, w.bobProject] });
  const g1 = await seedTaskDefinition(env, w.unit, 'G1', { groupSet });
  const mine = await trigger(people.student, w.project, g1, 'rff');
  const k = db(env.orm.em.fork());
  const tasks = await k.selectFrom('tasks').select(['id', 'status', 'group_submission_id']).where('task_definition_id', '=', g1).orderBy('id').execute();
  assert.is(tasks.length, 2);
  const submission = tasks[0].group_submission_id!;
  assert.ok(submission);

  const csv = (await unzip((await download(people.tutor, `unit_id=${w.unit}`)).bytes)).get('marks.csv')!.toString();
  const { rows } = await readCsv(csv);
  const groupRows = rows.filter((r) => r.task === 'G1');
  assert.equal(
    groupRows.map((r) => [r.username, r.name, r.tutorial, r.status]),
    [[`GRP_${group}_${submission}`, `Group ${w.tutorial}`, 'LA1-01', 'rff']],
  );

  const res = await upload(
    people.tutor,
    w.unit,
    csvFile(fill(csv, [{ username: `GRP_${group}_${submission}`, task: 'G1', set: { Status: 'fix', 'New Comment': 'All of you: fix it' } }])),
  );
  assert.is(res.status, 201, res.text);
  assert.equal(res.body.errors, []);
  assert.equal(
    res.body.success.map((s: { message: string }) => s.message),
    [`Updated task G1 for Group ${w.tutorial} and added a comment`],
  );
  const after = await k.selectFrom('tasks').select(['id', 'status']).where('task_definition_id', '=', g1).orderBy('id').execute();
  assert.equal(
    after.map((t) => t.status),
    ['fix_and_resubmit', 'fix_and_resubmit'],
  );
  assert.equal(
    (await textComments()).map((c) => [c.task_id, c.comment]),
    [[mine, 'All of you: fix it']],
  );

  const wrong = await upload(
    people.tutor,
    w.unit,
    csvFile(
      'Username,Name,Tutorial,Task,Status,New Grade,New Quality,New Comment\n' +
        `GRP_${group + 1}_${submission},X,LA1-01,G1,complete,,,\nGRP_${group}_999,X,LA1-01,G1,complete,,,`,
    ),
  );
  assert.equal(
    wrong.body.errors.map((e: { message: string }) => e.message),
    [`Group mismatch (expected task G1 to match Group ${w.tutorial})`, 'Unable to find original submission for group task.'],
  );
});

test('POST: files that are not a zip or CSV, CSVs without the columns and zips without marks.csv are 400; roles and units as for GET', async () => {
  const w = await world();
  const mine = await trigger(people.student, w.project, w.p1, 'rff');
  const png = await upload(people.tutor, w.unit, { filename: 'marks.csv', contentType: 'text/csv', data: samplePng() });
  assert.is(png.status, 400);
  assert.equal(png.body, { error: 'File given is not a zip or csv file - detected image/png' });
  const headers = await upload(people.tutor, w.unit, csvFile('Username,Task,Status\nastudent,P1,complete\n'));
  assert.is(headers.status, 400);
  assert.equal(headers.body, { error: 'Missing headers in marks.csv: name, tutorial, new_grade, new_quality, new_comment' });
  const noMarks = await upload(people.tutor, w.unit, { filename: 'x.zip', contentType: 'application/zip', data: rawZip([['readme.txt', 'hi']]) });
  assert.is(noMarks.status, 400);
  assert.equal(noMarks.body, { error: 'No marks.csv contained in zip.' });
  const missingFile = await api(env, 'POST', '/api/submission/assess', { as: people.tutor.creds, multipart: { unit_id: String(w.unit) } });
  assert.is(missingFile.status, 400);

  const good = csvFile('Username,Name,Tutorial,Task,Status,New Grade,New Quality,New Comment\nastudent,A,LA1-01,P1,complete,,,\n');
  const student = await upload(people.student, w.unit, good);
  assert.is(student.status, 403);
  assert.equal(student.body, { error: 'Not authorised to batch upload marks' });
  const otherUnit = await seedUnit(env, { code: 'SIT202' });
  const stranger = await signedIn(env, 'otutor', 'Tutor');
  await employ(env, stranger.user, otherUnit, 'Tutor');
  assert.is((await upload(stranger, w.unit, good)).status, 403);
  assert.is((await upload(people.tutor, 99999, good)).status, 404);
  assert.is((await taskRow(mine)).status, 'ready_for_feedback');
  assert.is((await upload(people.tutor, w.unit, good)).status, 201);
  assert.is((await taskRow(mine)).status, 'complete');
});

test('POST: a zip entry that holds more (or less) than it declares is a 400, and changes nothing', async () => {
  const w = await world();
  const mine = await trigger(people.student, w.project, w.p1, 'rff');
  const marks = `${HEADER}\nastudent,A,LA1-01,P1,,,complete,,,,Well done\n`;
  for (const declared of [(size: number) => size - 10, (size: number) => size + 10]) {
    const zip = rawZip([['marks.csv', marks]], { deflate: true, declaredSize: (_name, size) => declared(size) });
    const res = await upload(people.tutor, w.unit, { filename: 'marks.zip', contentType: 'application/zip', data: zip });
    assert.is(res.status, 400, res.text);
    assert.match(res.body.error, /^File given is not a usable zip file - /);
  }
  assert.is((await taskRow(mine)).status, 'ready_for_feedback');
  // A task PDF that lies about its size is that row's error; marks.csv still applies.
  const zip = rawZip(
    [
      ['marks.csv', marks],
      [`astudent/P1-${mine}.pdf`, pdfBytes('lying')],
    ],
    { deflate: true, declaredSize: (name, size) => (name.endsWith('.pdf') ? size - 10 : size) },
  );
  const res = await upload(people.tutor, w.unit, { filename: 'marks.zip', contentType: 'application/zip', data: zip });
  assert.is(res.status, 201, res.text);
  assert.match(JSON.stringify(res.body.errors), /Unable to read the entry/);
  assert.is((await taskRow(mine)).status, 'complete');
});

test('GET: the same number of SQL statements for one waiting task or many', async () => {
  const w = await world();
  await seedTask(env, w.project, w.p1, { status: 'ready_for_feedback' });
  const read = async () => assert.is((await download(people.tutor, `unit_id=${w.unit}`)).status, 200);
  await read(); // the session is then cached, as for a client's later requests
  const one = await countStatements(read);
  await seedTask(env, w.bobProject, w.p1, { status: 'need_help' });
  for (let i = 0; i < 6; i++) await seedTask(env, w.project, await seedTaskDefinition(env, w.unit, `X${i}`), { status: 'ready_for_feedback' });
  await insertComments(env.orm.em.fork(), [{ taskId: 1, authorId: people.student.user.id, recipientId: null, kind: 'text', comment: 'hi' }], new Date());
  const many = await countStatements(async () => {
    const res = await download(people.tutor, `unit_id=${w.unit}`);
    assert.is((await readCsv((await unzip(res.bytes)).get('marks.csv')!.toString())).rows.length, 8);
  });
  assert.is(many, one);
});

test.run();
