// POST/GET/PUT .../task_def_id/{td}/submission, submission_details, submission_files, submissions/...
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { db } from '../../src/db/kysely.ts';
import { awaitingProcessingPdf, fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, travelTo, type Actor, type People } from '../support/fixtures.ts';
import { api, type Credentials } from '../support/http.ts';
import { samplePdf, samplePng } from '../support/sample-files.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition, seedTutorial } from '../support/seed-enrolments.ts';
import { seedGroupRow, seedGroupSet, seedMember } from '../support/seed-group-members.ts';
import { freshEachTest } from '../support/suite.ts';
import { unzip } from '../support/zips.ts';
import type { UploadRequirement } from '../../schema/units.ts';

const test = suite('REST task submissions');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const REPORT_AND_CODE: UploadRequirement[] = [
  { key: 'file0', name: 'Report', type: 'document' },
  { key: 'file1', name: 'Program', type: 'code' },
  { key: 'file2', name: 'Screenshot', type: 'image' },
];

async function world(extra: Parameters<typeof seedTaskDefinition>[3] = {}) {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'P1', { uploadRequirements: REPORT_AND_CODE, ...extra });
  return { unit, project, td };
}

type Part = { filename: string; contentType: string; data: Buffer };
const pdf = (text = 'My report'): Part => ({ filename: 'report.pdf', contentType: 'application/pdf', data: samplePdf(text) });
const code = (text = 'print("hello")\n', filename = 'main.py'): Part => ({ filename, contentType: 'text/x-python', data: Buffer.from(text) });
const png = (): Part => ({ filename: 'shot.png', contentType: 'image/png', data: samplePng() });
const goodFiles = (): Record<string, Part> => ({ file0: pdf(), file1: code(), file2: png() });

const base = (project: number, td: number) => `/api/projects/${project}/task_def_id/${td}`;
const upload = (as: Credentials, project: number, td: number, parts: Record<string, string | Part>) =>
  api(env, 'POST', `${base(project, td)}/submission`, { as, multipart: parts });
const get = (as: Credentials, url: string) => env.app.inject({ method: 'GET', url, headers: { Username: as.username, 'Auth-Token': as.token } });

const k = () => db(env.orm.em.fork());
const history = () => k().selectFrom('task_submissions').select(['id', 'task_id', 'processing']).orderBy('id').execute();
const fileRows = () =>
  k()
    .selectFrom('submission_files')
    .select(['submission_id', 'idx', 'key', 'name', 'kind', 'original_filename', 'storage_path'])
    .orderBy('submission_id')
    .orderBy('idx')
    .execute();
async function jobs() {
  const rows = await env.orm.em
    .fork()
    .execute<{ task: string; payload: unknown }[]>(
      "select t.identifier as task, j.payload::jsonb - '_requestId' as payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id",
    );
  return rows.map((r) => ({ task: r.task, payload: r.payload }));
}
function stored(dir = env.config.storageRoot, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? stored(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}
const storedBytes = (key: string) => readFileSync(join(env.config.storageRoot, key));

test('a student hands in one file per requirement: 201 with the task, files stored, history processing, PDF job queued', async () => {
  const { project, td } = await world();
  await travelTo(env, people, '2026-03-10T09:00:00Z');
  const res = await upload(people.student.creds, project, td, { ...goodFiles(), trigger: 'ready_for_feedback' });
  assert.is(res.status, 201, res.text);
  const task = res.body;
  assert.equal(Object.keys(task).sort(), [
    'due_date',
    'extensions',
    'id',
    'include_in_portfolio',
    'locked',
    'new_stats',
    'num_new_comments',
    'prerequisites_unmet',
    'project_id',
    'quality_pts',
    'scorm_extensions',
    'similarity_flag',
    'status',
    'submission_date',
    'task_definition_id',
    'times_assessed',
  ]);
  assert.equal(
    [task.project_id, task.task_definition_id, task.status, task.submission_date, task.due_date],
    [project, td, 'ready_for_feedback', '2026-03-10', '2026-03-16'],
  );

  const [entry] = await history();
  assert.equal(entry, { id: entry.id, task_id: task.id, processing: true });
  const keys = ['000-document.pdf', '001-code.py', '002-image.png'].map((n) => `submissions/${entry.id}/${n}`);
  assert.equal(await fileRows(), [
    { submission_id: entry.id, idx: 0, key: 'file0', name: 'Report', kind: 'document', original_filename: 'report.pdf', storage_path: keys[0] },
    { submission_id: entry.id, idx: 1, key: 'file1', name: 'Program', kind: 'code', original_filename: 'main.py', storage_path: keys[1] },
    { submission_id: entry.id, idx: 2, key: 'file2', name: 'Screenshot', kind: 'image', original_filename: 'shot.png', storage_path: keys[2] },
  ]);
  assert.equal(stored(), keys);
  assert.equal(storedBytes(keys[0]), samplePdf('My report'));
  assert.equal(await jobs(), [{ task: 'accept_submission', payload: { taskId: task.id, submissionId: entry.id } }]);

  // Until the PDF is built: processing, no PDF, the placeholder.
  const details = await api(env, 'GET', `${base(project, td)}/submission_details`, { as: people.tutor.creds });
  assert.equal([details.status, details.body], [200, { has_pdf: false, submission_date: '2026-03-10T09:00:00.000Z', processing_pdf: true }]);
  const waiting = await get(people.student.creds, `${base(project, td)}/submission?as_attachment=true`);
  assert.equal(
    [waiting.statusCode, waiting.headers['content-type'], waiting.headers['content-disposition']],
    [200, 'application/pdf', 'attachment; filename=AwaitingProcessing.pdf'],
  );
  assert.equal(waiting.rawPayload, awaitingProcessingPdf());

  // The files as uploaded, zipped for the marker.
  const zip = await get(people.tutor.creds, `${base(project, td)}/submission_files?as_attachment=true`);
  assert.equal(
    [zip.statusCode, zip.headers['content-type'], zip.headers['content-disposition']],
    [200, 'application/zip', 'attachment; filename=astudent-P1.zip'],
  );
  const entries = await unzip(zip.rawPayload);
  assert.equal([...entries.keys()], ['000-document.pdf', '001-code.py', '002-image.png']);
  assert.equal(entries.get('001-code.py')!.toString(), 'print("hello")\n');

  const lines = await api(env, 'GET', `${base(project, td)}/submissions/timestamps`, { as: people.student.creds });
  assert.equal(
    [lines.status, String(lines.headers['content-type']).split(';')[0], lines.text],
    [200, 'text/plain', 'Submission 1: 2026-03-10T09:00:00.000Z\n'],
  );
  const latest = await api(env, 'GET', `${base(project, td)}/submissions/latest`, { as: people.student.creds });
  assert.equal([latest.status, latest.body], [404, { error: 'No automated assessment output for this submission' }]);
  const at = await api(env, 'GET', `${base(project, td)}/submissions/timestamps/${encodeURIComponent('2026-03-10T09:00:00.000Z')}`, { as: people.tutor.creds });
  assert.equal([at.status, at.body], [404, { error: 'No automated assessment output for this submission' }]);
});

test('has_pdf and processing_pdf tell the truth: built PDF served as <ABBR>.pdf; PUT re-queues it', async () => {
  const { project, td } = await world();
  const none = await api(env, 'PUT', `${base(project, td)}/submission`, { as: people.student.creds });
  assert.equal([none.status, none.body], [200, { result: 'false' }]);
  const missing = await get(people.student.creds, `${base(project, td)}/submission`);
  assert.equal([missing.statusCode, missing.headers['content-disposition']], [200, 'inline; filename=FileNotFound.pdf']);
  assert.equal(missing.rawPayload, fileNotFoundPdf());
  assert.is((await history()).length, 0);
  assert.is((await k().selectFrom('tasks').select('id').execute()).length, 1, 'reading the PDF creates the task, as the original');

  const res = await upload(people.student.creds, project, td, goodFiles());
  assert.is(res.status, 201, res.text);
  const [entry] = await history();
  // What the PDF job will do (issue 9): store the PDF, record it, finish processing.
  const built = samplePdf('Assembled submission');
  await env.services.storage.put(storageKeys.submissionPdf(entry.id), (await import('node:stream')).Readable.from([built]));
  await k().updateTable('task_submissions').set({ processing: false }).where('id', '=', entry.id).execute();
  await k()
    .updateTable('tasks')
    .set({ pdf_path: storageKeys.submissionPdf(entry.id) })
    .where('id', '=', res.body.id)
    .execute();

  const details = await api(env, 'GET', `${base(project, td)}/submission_details`, { as: people.student.creds });
  assert.equal([details.body.has_pdf, details.body.processing_pdf], [true, false]);
  const got = await get(people.tutor.creds, `${base(project, td)}/submission`);
  assert.equal([got.statusCode, got.headers['content-type'], got.headers['content-disposition']], [200, 'application/pdf', 'inline; filename=P1.pdf']);
  assert.equal(got.rawPayload, built);

  await k()
    .deleteFrom('graphile_worker._private_jobs' as never)
    .execute();
  const again = await api(env, 'PUT', `${base(project, td)}/submission`, { as: people.tutor.creds });
  assert.equal([again.status, again.body], [200, { result: 'done' }]);
  assert.equal(await jobs(), [{ task: 'accept_submission', payload: { taskId: res.body.id, submissionId: entry.id } }]);
  const after = await api(env, 'GET', `${base(project, td)}/submission_details`, { as: people.student.creds });
  assert.equal([after.body.has_pdf, after.body.processing_pdf], [false, true]);

  // A stored PDF whose file is gone is not a PDF.
  await k().updateTable('task_submissions').set({ processing: false }).execute();
  await env.services.storage.delete(storageKeys.submissionPdf(entry.id));
  const gone = await api(env, 'GET', `${base(project, td)}/submission_details`, { as: people.student.creds });
  assert.equal([gone.body.has_pdf, gone.body.processing_pdf], [false, false]);
});

test('each file is checked by content for its kind and size; a refused upload leaves no history, file or job', async () => {
  const { project, td } = await world();
  const truncated = samplePdf('cut');
  const cases: [Record<string, Part>, string][] = [
    [{ file0: { ...png(), filename: 'report.pdf' } }, "'Report' is not a valid document file"],
    [{ file0: { ...pdf(), data: truncated.subarray(0, truncated.length - 8) } }, "'Report' is not a valid document file"],
    [{ file1: { ...png(), filename: 'main.py' } }, "'Program' is not a valid code file"],
    [{ file1: code('echo hi', 'run.exe') }, "'Program' is not a valid code file"],
    [{ file2: { ...pdf(), filename: 'shot.png' } }, "'Screenshot' is not a valid image file"],
    [{ file1: code('x'.repeat(10_000_001)) }, "'Program' exceeds the 10MB file limit. Try compressing or reformat and submit again."],
  ];
  for (const [override, message] of cases) {
    const res = await upload(people.student.creds, project, td, { ...goodFiles(), ...override });
    assert.equal([res.status, res.body], [403, { error: message }], message);
  }
  assert.equal([await history(), await fileRows(), await jobs(), stored()], [[], [], [], []]);
  const tasks = await k().selectFrom('tasks').select('status').execute();
  assert.ok(tasks.every((t) => t.status === 'not_started'));

  // Exactly 10,000,000 bytes, a notebook, a Makefile and a JPEG-less GIF are fine.
  const notebook = code(JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }), 'analysis.ipynb');
  const ok = await upload(people.student.creds, project, td, { ...goodFiles(), file1: notebook });
  assert.is(ok.status, 201, ok.text);
  assert.equal(
    (await fileRows()).map((f) => f.storage_path.split('/')[2]),
    ['000-document.pdf', '001-code.ipynb', '002-image.png'],
  );
  const big = await upload(people.student.creds, project, td, { ...goodFiles(), file1: code('y'.repeat(10_000_000), 'Makefile') });
  assert.is(big.status, 201, big.text);
  // The same history entry (within the hour) now names other files: the notebook goes after commit.
  const [entry] = await history();
  const expected = ['000-document.pdf', '001-code', '002-image.png'].map((n) => `submissions/${entry.id}/${n}`);
  for (let waited = 0; stored().length !== 3 && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  assert.equal([stored(), (await fileRows()).map((f) => f.storage_path)], [expected, expected]);
});

test('the files must be one per requirement, by key: 403 otherwise', async () => {
  const { project, td } = await world();
  const { file2: _, ...twoFiles } = goodFiles();
  for (const parts of [twoFiles, { ...goodFiles(), file3: png() }, { ...twoFiles, image: png() }, { ...twoFiles, file2: 'not a file' }]) {
    const res = await upload(people.student.creds, project, td, parts);
    assert.equal([res.status, res.body], [403, { error: 'Upload requirements mismatch with files provided' }]);
  }
  assert.equal([await history(), stored()], [[], []]);
});

test('refused callers: another student, a tutor of another unit (403); unknown project or definition (404)', async () => {
  const { project, td } = await world();
  const other = await signedIn(env, 'bstudent', 'Student');
  const otherUnit = await seedUnit(env, { code: 'SIT202' });
  const otherTutor = await signedIn(env, 'btutor', 'Tutor');
  await employ(env, otherTutor.user, otherUnit, 'Tutor');
  await enrol(env, other.user, otherUnit);
  const otherTd = await seedTaskDefinition(env, otherUnit, 'Q1');

  for (const who of [other, otherTutor]) {
    const res = await upload(who.creds, project, td, goodFiles());
    assert.equal([res.status, res.body], [403, { error: "Not authorised to submit task 'Task P1'" }]);
    for (const path of ['submission', 'submissions/timestamps', 'submissions/latest']) {
      const read = await api(env, 'GET', `${base(project, td)}/${path}`, { as: who.creds });
      assert.equal([read.status, read.body], [403, { error: "Not authorised to get task 'Task P1'" }], path);
    }
    for (const path of ['submission_details', 'submission_files']) {
      const read = await api(env, 'GET', `${base(project, td)}/${path}`, { as: who.creds });
      assert.equal([read.status, read.body], [403, { error: 'You do not have permission to read submissions for this project.' }], path);
    }
    const put = await api(env, 'PUT', `${base(project, td)}/submission`, { as: who.creds });
    assert.is(put.status, 403);
  }
  assert.equal(
    [(await upload(people.student.creds, 9999, td, goodFiles())).status, (await upload(people.student.creds, project, 9999, goodFiles())).status],
    [404, 404],
  );
  assert.is((await upload(people.student.creds, project, otherTd, goodFiles())).status, 404, "another unit's definition is unknown here");
  assert.is((await api(env, 'GET', `${base(project, 9999)}/submission_details`, { as: people.student.creds })).status, 404);
  assert.equal([await history(), stored(), await jobs()], [[], [], []]);
});

test('late work is time exceeded; need_help asks for help; a closed task keeps its status but the files are kept', async () => {
  const { project, td, unit } = await world({ targetDate: '2026-03-01' });
  await travelTo(env, people, '2026-03-02T12:00:01Z');
  const late = await upload(people.student.creds, project, td, goodFiles());
  assert.equal([late.status, late.body.status, late.body.times_assessed], [201, 'time_exceeded', 1]);

  const td2 = await seedTaskDefinition(env, unit, 'P2', { uploadRequirements: REPORT_AND_CODE });
  const help = await upload(people.student.creds, project, td2, { ...goodFiles(), trigger: '"need_help"' });
  assert.equal([help.status, help.body.status], [201, 'need_help']);

  const td3 = await seedTaskDefinition(env, unit, 'P3', { uploadRequirements: REPORT_AND_CODE });
  const done = await seedTask(env, project, td3, { status: 'complete' });
  const closed = await upload(people.student.creds, project, td3, goodFiles());
  assert.equal([closed.status, closed.body.status], [201, 'complete']);
  const entries = await history();
  assert.equal(entries.map((e) => e.task_id).includes(done), true);
  assert.is((await fileRows()).length, 9);
  assert.is((await jobs()).length, 3);
});

test('a definition without upload requirements takes a submission without files (no PDF job)', async () => {
  const { project, td } = await world({ uploadRequirements: [] });
  const res = await upload(people.student.creds, project, td, { trigger: 'ready_for_feedback' });
  assert.equal([res.status, res.body.status], [201, 'ready_for_feedback']);
  assert.equal([await fileRows(), await jobs(), stored()], [[], [], []]);
  const details = await api(env, 'GET', `${base(project, td)}/submission_details`, { as: people.student.creds });
  assert.equal(details.body, { has_pdf: false, processing_pdf: false });
  const zip = await get(people.student.creds, `${base(project, td)}/submission_files`);
  assert.equal([zip.statusCode, zip.headers['content-disposition']], [200, 'attachment; filename=FileNotFound.pdf']);
});

test("alignment_data replaces the task's own alignments; an outcome of another unit is refused", async () => {
  const { project, td, unit } = await world();
  const em = env.orm.em.fork();
  const outcomes = await db(em)
    .insertInto('learning_outcomes')
    .values([1, 2].map((n) => ({ unit_id: unit, ilo_number: n, abbreviation: `ILO${n}`, name: `Outcome ${n}`, description: 'd' })))
    .returning('id')
    .execute();
  const alignment = (rating: number, ilo = outcomes[0].id) => JSON.stringify([{ ilo_id: ilo, rating, rationale: 'I did it' }]);
  const first = await upload(people.student.creds, project, td, { ...goodFiles(), alignment_data: alignment(3) });
  assert.is(first.status, 201, first.text);
  const second = await upload(people.student.creds, project, td, { ...goodFiles(), alignment_data: alignment(5, outcomes[1].id) });
  assert.is(second.status, 201, second.text);
  const rows = await k().selectFrom('learning_alignments').select(['learning_outcome_id', 'task_id', 'rating', 'description']).execute();
  assert.equal(rows, [{ learning_outcome_id: outcomes[1].id, task_id: first.body.id, rating: 5, description: 'I did it' }]);

  const bad = await upload(people.student.creds, project, td, { ...goodFiles(), alignment_data: alignment(3, 9999) });
  assert.equal([bad.status, bad.body], [400, { error: 'alignment_data: 9999 is not a learning outcome of this unit' }]);
  const notJson = await upload(people.student.creds, project, td, { ...goodFiles(), alignment_data: '[{' });
  assert.is(notJson.status, 400);
  assert.is((await k().selectFrom('learning_alignments').select('id').execute()).length, 1);
});

async function groupWorld() {
  const { unit, project, td: _ } = await world();
  const tutorial = await seedTutorial(env, unit, 'T1');
  const set = await seedGroupSet(env, unit);
  const group = await seedGroupRow(env, set, tutorial, 'Team');
  const mate: Actor = await signedIn(env, 'cstudent', 'Student');
  const mateProject = await enrol(env, mate.user, unit);
  await seedMember(env, group, project);
  await seedMember(env, group, mateProject);
  const td = await seedTaskDefinition(env, unit, 'G1', { uploadRequirements: REPORT_AND_CODE, groupSet: set });
  return { unit, project, mate, mateProject, td, set };
}

test("a group upload reaches every member; another member's upload waits while it is processed; no group, no upload", async () => {
  const { unit, project, mate, mateProject, td, set } = await groupWorld();
  const res = await upload(people.student.creds, project, td, goodFiles());
  assert.is(res.status, 201, res.text);
  assert.equal(
    res.body.other_projects.map((p: { id: number }) => p.id),
    [mateProject],
  );
  const mateTask = await k().selectFrom('tasks').select(['id', 'status']).where('project_id', '=', mateProject).executeTakeFirstOrThrow();
  assert.is(mateTask.status, 'ready_for_feedback');
  const details = await api(env, 'GET', `${base(mateProject, td)}/submission_details`, { as: mate.creds });
  assert.equal([details.body.processing_pdf, details.body.has_pdf], [true, false]);
  const zip = await get(mate.creds, `${base(mateProject, td)}/submission_files`);
  assert.equal([...(await unzip(zip.rawPayload)).keys()], ['000-document.pdf', '001-code.py', '002-image.png']);

  const refused = await upload(mate.creds, mateProject, td, goodFiles());
  assert.equal(
    [refused.status, refused.body],
    [
      403,
      { error: 'Astudent Tester has just submitted this task. Only one team member needs to submit this task, so check back soon to see what was uploaded.' },
    ],
  );
  // Once processed, another member may submit for the group.
  await k().updateTable('task_submissions').set({ processing: false }).execute();
  const next = await upload(mate.creds, mateProject, td, goodFiles());
  assert.is(next.status, 201, next.text);
  const lines = await api(env, 'GET', `${base(project, td)}/submissions/timestamps`, { as: people.student.creds });
  assert.equal(lines.text.split('\n').filter(Boolean).length, 2, "every member sees the group's uploads");
  const latestZip = await get(people.student.creds, `${base(project, td)}/submission_files`);
  assert.is(latestZip.statusCode, 200);
  const entries = await k().selectFrom('task_submissions').select(['id', 'task_id', 'processing']).where('processing', '=', true).execute();
  assert.equal(
    entries.map((e) => e.task_id),
    [mateTask.id],
    "the mate's upload is the one processing",
  );
  const again = await upload(people.student.creds, project, td, goodFiles());
  assert.equal(
    [again.status, again.body.error],
    [403, 'Cstudent Tester has just submitted this task. Only one team member needs to submit this task, so check back soon to see what was uploaded.'],
  );

  const loner = await signedIn(env, 'dstudent', 'Student');
  const lonerProject = await enrol(env, loner.user, unit);
  const alone = await upload(loner.creds, lonerProject, td, goodFiles());
  assert.equal([alone.status, alone.body], [403, { error: "This task requires a group. Ensure you are in a group for the unit's Projects" }]);
  assert.ok(set > 0);
});

test('two uploads racing for one task leave one consistent submission: one history entry, its files, one job', async () => {
  const { project, td } = await world();
  const [a, b] = await Promise.all([
    upload(people.student.creds, project, td, { ...goodFiles(), file1: code('print("A")\n') }),
    upload(people.student.creds, project, td, { ...goodFiles(), file1: code('print("B")\n') }),
  ]);
  assert.equal([a.status, b.status], [201, 201], a.text + b.text);
  const entries = await history();
  assert.is(entries.length, 1);
  const rows = await fileRows();
  assert.equal(
    rows.map((r) => [r.submission_id, r.idx]),
    [
      [entries[0].id, 0],
      [entries[0].id, 1],
      [entries[0].id, 2],
    ],
  );
  assert.equal(
    stored(),
    rows.map((r) => r.storage_path),
  );
  assert.ok(['print("A")\n', 'print("B")\n'].includes(storedBytes(rows[1].storage_path).toString()));
  assert.equal(await jobs(), [{ task: 'accept_submission', payload: { taskId: entries[0].task_id, submissionId: entries[0].id } }]);
  const comments = await k().selectFrom('task_comments').select('task_status').execute();
  assert.ok(comments.every((c) => c.task_status === 'ready_for_feedback'));
});

test('timestamps list the latest ten uploads newest first; a timestamp names one upload; its stored output is its text', async () => {
  const { project, td } = await world();
  const times: string[] = [];
  for (let i = 0; i < 12; i++) {
    const at = new Date(Date.UTC(2026, 2, 2, 2 * i, 0, 0, 123)); // two hours apart: each a new history entry
    await travelTo(env, people, at);
    times.push(at.toISOString());
    const res = await upload(people.student.creds, project, td, goodFiles());
    assert.is(res.status, 201, res.text);
    await k().updateTable('task_submissions').set({ processing: false }).execute();
  }
  const lines = await api(env, 'GET', `${base(project, td)}/submissions/timestamps`, { as: people.tutor.creds });
  assert.equal(
    lines.text.trimEnd().split('\n'),
    times
      .slice(2)
      .reverse()
      .map((t, i) => `Submission ${12 - i}: ${t}`),
  );

  const [entry] = await k().selectFrom('task_submissions').select(['id', 'task_id', 'submitted_at']).orderBy('id').execute();
  await env.services.storage.put('overseer/1/output.txt', (await import('node:stream')).Readable.from([Buffer.from('build ok\nexit code: 0\n')]));
  await k()
    .insertInto('overseer_assessments')
    .values({
      task_id: entry.task_id,
      submission_timestamp: times[0],
      status: 'done',
      output_path: 'overseer/1/output.txt',
      created_at: times[0],
      updated_at: times[0],
    })
    .execute();
  const out = await api(env, 'GET', `${base(project, td)}/submissions/timestamps/${encodeURIComponent(times[0])}`, { as: people.student.creds });
  assert.equal([out.status, out.text], [200, 'build ok\nexit code: 0\n']);
  const unknown = await api(env, 'GET', `${base(project, td)}/submissions/timestamps/${encodeURIComponent('2026-01-01T00:00:00.000Z')}`, {
    as: people.student.creds,
  });
  assert.equal([unknown.status, unknown.body], [404, { error: 'No submission was made for this task at that time' }]);
  const bad = await api(env, 'GET', `${base(project, td)}/submissions/timestamps/yesterday`, { as: people.student.creds });
  assert.is(bad.status, 400);
  const latest = await api(env, 'GET', `${base(project, td)}/submissions/latest`, { as: people.student.creds });
  assert.equal([latest.status, latest.body], [404, { error: 'No automated assessment output for this submission' }]);
  assert.ok(entry.id > 0);
});

test('staff submit for a student: a late upload by the tutor of a graded task is time exceeded with a fail grade', async () => {
  const { project, td } = await world({ isGraded: true, targetDate: '2026-02-23' });
  const res = await upload(people.tutor.creds, project, td, { ...goodFiles(), trigger: 'ready_for_feedback' });
  assert.equal([res.status, res.body.status, res.body.grade], [201, 'time_exceeded', -1]);
  const [entry] = await k().selectFrom('task_submissions').select(['submitted_by_id', 'processing']).execute();
  assert.equal(entry, { submitted_by_id: people.tutor.user.id, processing: true });
});

test("the web client's forms: double slash and .json suffix, contributions as JSON text for a group", async () => {
  const { project, mateProject, td } = await groupWorld();
  const contributions = JSON.stringify([
    { project_id: project, pct: '75', pts: 4 },
    { project_id: mateProject, pct: '25', pts: 2 },
  ]);
  const res = await api(env, 'POST', `/api//projects/${project}/task_def_id/${td}/submission`, {
    as: people.student.creds,
    multipart: { ...goodFiles(), contributions },
  });
  assert.is(res.status, 201, res.text);
  const shares = await k().selectFrom('tasks').select(['project_id', 'contribution_pct', 'contribution_pts']).orderBy('project_id').execute();
  assert.equal(shares, [
    { project_id: project, contribution_pct: 75, contribution_pts: 4 },
    { project_id: mateProject, contribution_pct: 25, contribution_pts: 2 },
  ]);
  const details = await api(env, 'GET', `/api//projects/${project}/task_def_id/${td}/submission_details.json`, {
    as: people.student.creds,
    hyphenHeader: true,
  });
  assert.equal([details.status, details.body.processing_pdf], [200, true]);
  const zip = await get(people.student.creds, `/api/projects/${project}/task_def_id/${td}/submission_files.json?as_attachment=true`);
  assert.equal([zip.statusCode, zip.headers['content-type']], [200, 'application/zip']);
});

test.run();
