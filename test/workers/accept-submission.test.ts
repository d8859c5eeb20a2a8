// The accept_submission job for real: uploads through REST, the job run by graphile-worker, the
// PDF downloaded through REST and read back with pdf-lib.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { Unit } from '../../schema/index.ts';
import type { UploadRequirement } from '../../schema/units.ts';
import { db } from '../../src/db/kysely.ts';
import { fileNotFoundPdf, messagePdf } from '../../src/lib/placeholder-pdf.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { failureComment } from '../../src/operations/projects/task_def_id/submission/record-submission-pdf.ts';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { api, type Credentials } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import type { OutgoingMail } from '../../src/adapters/mailer.ts';
import { pdfPagesText } from '../support/pdf-text.ts';
import { sampleGif, sampleJpeg, samplePdf, samplePng } from '../support/sample-files.ts';
import { seedGroupRow, seedGroupSet, seedMember } from '../support/seed-group-members.ts';
import { freshEachTest } from '../support/suite.ts';
import { anotherStudent, taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('worker: accept_submission builds the task PDF');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const MIXED: UploadRequirement[] = [
  { key: 'file0', name: 'Report', type: 'document' },
  { key: 'file1', name: 'Screenshot', type: 'image' },
  { key: 'file2', name: 'Program', type: 'code' },
  { key: 'file3', name: 'Notebook', type: 'code' },
];

type Part = { filename: string; contentType: string; data: Buffer };
const pdf = (data: Buffer = twoPagePdf()): Part => ({ filename: 'report.pdf', contentType: 'application/pdf', data });
const image = (data: Buffer = samplePng(), filename = 'shot.png'): Part => ({ filename, contentType: 'image/png', data });
const code = (text: string, filename = 'main.py'): Part => ({ filename, contentType: 'text/plain', data: Buffer.from(text) });
const NOTEBOOK = JSON.stringify({
  metadata: { language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', source: ['# Analysis\n', 'Results are below.'] },
    {
      cell_type: 'code',
      execution_count: 3,
      source: ['total = 6 * 7\n', 'print(total)'],
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['42\n'] }],
    },
    {
      cell_type: 'code',
      execution_count: 4,
      source: ['1 / 0'],
      outputs: [
        {
          output_type: 'error',
          ename: 'ZeroDivisionError',
          evalue: 'division by zero',
          traceback: ['\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'],
        },
      ],
    },
  ],
});
const PROGRAM = 'def greet(name):\n\treturn f"Grüße, {name}! 日本語"\n\nprint(greet("Welt"))\n';
const mixedFiles = () => ({ file0: pdf(), file1: image(), file2: code(PROGRAM), file3: code(NOTEBOOK, 'analysis.ipynb') });

/** A two-page PDF, as a student's report would be (pages from the placeholder writer). */
async function twoPagePdfAsync(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const text of ['Report page one', 'Report page two']) {
    const [page] = await doc.copyPages(await PDFDocument.load(messagePdf([text])), [0]);
    doc.addPage(page);
  }
  return Buffer.from(await doc.save());
}
let twoPages: Buffer;
const twoPagePdf = () => twoPages;
test.before(async () => {
  twoPages = await twoPagePdfAsync();
});

/** The sample PDF with an /Encrypt entry in its trailer: what an encrypted upload looks like to a reader. */
const encryptedPdf = (): Buffer =>
  Buffer.from(
    messagePdf(['Secret']).toString('latin1').replace('trailer\n<< ', 'trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >> '),
    'latin1',
  );

const base = (project: number, td: number) => `/api/projects/${project}/task_def_id/${td}`;
const upload = (as: Credentials, project: number, td: number, parts: Record<string, string | Part>) =>
  api(env, 'POST', `${base(project, td)}/submission`, { as, multipart: parts });
const download = async (as: Credentials, project: number, td: number) => {
  const res = await env.app.inject({ method: 'GET', url: `${base(project, td)}/submission`, headers: { Username: as.username, 'Auth-Token': as.token } });
  return { status: res.statusCode, disposition: res.headers['content-disposition'], bytes: res.rawPayload };
};
const details = async (as: Credentials, project: number, td: number) => (await api(env, 'GET', `${base(project, td)}/submission_details`, { as })).body;
const k = () => db(env.orm.em.fork());
const queued = async () =>
  env.orm.em
    .fork()
    .execute<{ task: string; attempts: number; last_error: string | null }[]>(
      'select t.identifier as task, j.attempts, j.last_error from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id ' +
        'order by j.id',
    );
const stored = (key: string) => join(env.config.storageRoot, key);

async function mixedWorld(requirements = MIXED): Promise<TaskWorld> {
  return taskWorld(env, people, { uploadRequirements: requirements });
}

test('a mixed submission (PDF, image, code, notebook) becomes one PDF: cover, then each file in requirement order', async () => {
  const w = await mixedWorld();
  await travelTo(env, people, '2026-03-10T09:00:00Z');
  const res = await upload(people.student.creds, w.project, w.td, mixedFiles());
  assert.is(res.status, 201, res.text);
  assert.equal(await details(people.student.creds, w.project, w.td), { has_pdf: false, submission_date: '2026-03-10T09:00:00.000Z', processing_pdf: true });

  await runJobs(env);

  assert.equal(await queued(), [], 'the job completed');
  assert.equal(await details(people.student.creds, w.project, w.td), { has_pdf: true, submission_date: '2026-03-10T09:00:00.000Z', processing_pdf: false });
  const got = await download(people.tutor.creds, w.project, w.td);
  assert.equal([got.status, got.disposition], [200, 'inline; filename=P1.pdf']);
  const doc = await PDFDocument.load(got.bytes);
  const pages = await pdfPagesText(got.bytes);
  assert.is(doc.getPageCount(), 6, 'cover, two report pages, the image, the code, the notebook');
  assert.is(pages.length, 6);

  const cover = pages[0];
  for (const text of [
    'Course Service Submission',
    'Task P1',
    'Submitted By:',
    'Astudent TESTER',
    'astudent',
    '2026/03/10',
    'Tutor:',
    'Atutor Tester',
    'March 10, 2026',
    'Produced by Course Service',
  ]) {
    assert.ok(cover.includes(text), `cover shows "${text}": ${cover}`);
  }
  assert.match(pages[1], 'Report page one');
  assert.match(pages[2], 'Report page two');
  assert.not.match(pages[1], 'Page 2 of 6', 'embedded pages carry no header or footer');
  assert.match(pages[3], 'File 2 of 4');
  assert.match(pages[3], 'Screenshot');
  assert.match(pages[3], 'Page 4 of 6');
  assert.match(pages[4], 'File 3 of 4');
  assert.match(pages[4], 'Grüße');
  assert.match(pages[4], 'greet');
  assert.match(pages[5], 'Cell 03');
  assert.match(pages[5], 'Analysis');
  assert.match(pages[5], '42');
  assert.match(pages[5], 'ZeroDivisionError: division by zero', 'tracebacks lose their ANSI colour codes');
  assert.not.match(pages[5], '[0;31m');

  const tasks = await k().selectFrom('tasks').select(['pdf_path', 'status']).execute();
  const [entry] = await k().selectFrom('task_submissions').select(['id', 'processing']).execute();
  assert.equal(tasks, [{ pdf_path: storageKeys.submissionPdf(entry.id), status: 'ready_for_feedback' }]);
  assert.is(entry.processing, false);
  assert.equal(readFileSync(stored(storageKeys.submissionPdf(entry.id))), got.bytes);
});

test('text outside Latin-1 keeps its glyphs: DejaVu embeds ü and ß, and characters it lacks do not stop the job', async () => {
  const w = await mixedWorld([{ key: 'file0', name: 'Notes', type: 'code' }]);
  const notes = code('Grüße, 日本語 — Ελληνικά, русский\n', 'notes.txt');
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: notes })).status, 201);
  await runJobs(env);
  const got = await download(people.student.creds, w.project, w.td);
  const [, body] = await pdfPagesText(got.bytes);
  assert.match(body, 'Grüße');
  assert.match(body, 'Ελληνικά');
  assert.match(body, 'русский');
  assert.match(body, '—');
});

test('a GIF image is decoded and placed (pdf-lib reads only PNG and JPEG)', async () => {
  const w = await mixedWorld([{ key: 'file0', name: 'Diagram', type: 'image' }]);
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: image(sampleGif(), 'diagram.gif') })).status, 201);
  await runJobs(env);
  assert.equal((await details(people.student.creds, w.project, w.td)).has_pdf, true);
  const doc = await PDFDocument.load((await download(people.student.creds, w.project, w.td)).bytes);
  assert.is(doc.getPageCount(), 2);
});

test('a group submission gets one PDF, shared by every member, whose cover lists the members', async () => {
  const w = await taskWorld(env, people, {});
  const other = await anotherStudent(env, w, 'bstudent');
  const groupSet = await seedGroupSet(env, w.unit);
  const group = await seedGroupRow(env, groupSet, w.tutorial, 'Team Rocket');
  await seedMember(env, group, w.project);
  await seedMember(env, group, other.project);
  const { TaskDefinition } = await import('../../schema/index.ts');
  await env.orm.em.fork().nativeUpdate(TaskDefinition, { id: w.td }, { groupSet, uploadRequirements: [{ key: 'file0', name: 'Code', type: 'code' }] } as never);

  const res = await upload(people.student.creds, w.project, w.td, { file0: code('x = 1\n') });
  assert.is(res.status, 201, res.text);
  await runJobs(env);

  const [entry] = await k().selectFrom('task_submissions').select('id').where('task_id', '=', res.body.id).execute();
  const paths = await k().selectFrom('tasks').select('pdf_path').orderBy('id').execute();
  assert.equal(paths, [{ pdf_path: storageKeys.submissionPdf(entry.id) }, { pdf_path: storageKeys.submissionPdf(entry.id) }]);
  const mine = await download(people.student.creds, w.project, w.td);
  const theirs = await download(other.actor.creds, other.project, w.td);
  assert.equal(theirs.bytes, mine.bytes);
  const theirDetails = await details(other.actor.creds, other.project, w.td);
  assert.equal([theirDetails.has_pdf, theirDetails.processing_pdf], [true, false]);
  const [cover] = await pdfPagesText(mine.bytes);
  assert.match(cover, 'Group Members (Team Rocket):');
  assert.match(cover, 'astudent');
  assert.match(cover, 'bstudent');
  assert.match(cover, '★★★☆☆', 'three contribution points each by default');
});

async function failedUpload(files: Record<string, Part>, requirements: UploadRequirement[], reason: RegExp) {
  const w = await mixedWorld(requirements);
  const res = await upload(people.student.creds, w.project, w.td, files);
  assert.is(res.status, 201, res.text);
  const sent: OutgoingMail[] = [];
  await runJobs(env, undefined, { enabled: true, send: async (mail) => void sent.push(mail) });

  assert.equal(await queued(), [], 'the job completed: not retried');
  // The failure's mail was queued with it and went to the student (who gets task notifications).
  assert.equal(
    sent.map((m) => m.to.address),
    [people.student.user.email],
  );
  const task = await k().selectFrom('tasks').select(['status', 'pdf_path']).executeTakeFirstOrThrow();
  assert.equal(task, { status: 'fix_and_resubmit', pdf_path: null });
  const comments = await k().selectFrom('task_comments').select(['kind', 'comment', 'author_id', 'recipient_id', 'task_status']).orderBy('id').execute();
  const text = comments.find((c) => c.kind === 'text');
  assert.ok(text, JSON.stringify(comments));
  assert.ok(text!.comment!.startsWith(failureComment('')), text!.comment!);
  assert.match(text!.comment!, reason);
  assert.equal([text!.author_id, text!.recipient_id], [people.tutor.user.id, people.student.user.id], "from the student's tutor to the student");
  assert.ok(comments.some((c) => c.kind === 'status' && c.task_status === 'fix_and_resubmit' && c.author_id === people.tutor.user.id));
  const after = await details(people.student.creds, w.project, w.td);
  assert.equal([after.has_pdf, after.processing_pdf], [false, false]);
  const got = await download(people.student.creds, w.project, w.td);
  assert.equal(got.bytes, fileNotFoundPdf());
}

const DOC: UploadRequirement[] = [{ key: 'file0', name: 'Report', type: 'document' }];

test('a broken PDF sends the task to fix and resubmit with the automated comment; the job is not retried', async () => {
  const broken = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\nthis is not a pdf at all\n%%EOF\n', 'latin1');
  await failedUpload({ file0: pdf(broken) }, DOC, /'Report' \(report\.pdf\) is (not a readable PDF|a PDF without pages|a PDF whose pages cannot be read)/);
});

test('an encrypted PDF sends the task to fix and resubmit, saying it is encrypted', async () => {
  await failedUpload({ file0: pdf(encryptedPdf()) }, DOC, /'Report' \(report\.pdf\) is an encrypted PDF/);
});

test('an image that does not decode sends the task to fix and resubmit', async () => {
  await failedUpload(
    { file0: { filename: 'photo.jpg', contentType: 'image/jpeg', data: sampleJpeg() } },
    [{ key: 'file0', name: 'Photo', type: 'image' }],
    /'Photo' \(photo\.jpg\) is a JPEG image that cannot be read/,
  );
});

/** A PNG of width × height black-and-white pixels: a few kilobytes that decode to width × height × 4 bytes. */
function bilevelPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth 1, colour type 0 (grey), deflate, no filter, no interlace
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('an image declaring more pixels than a page takes is refused before it is decoded', async () => {
  const bomb = bilevelPng(6000, 5000);
  assert.ok(bomb.length < 100_000, `${bomb.length} bytes for 30 megapixels`);
  await failedUpload(
    { file0: image(bomb, 'huge.png') },
    [{ key: 'file0', name: 'Photo', type: 'image' }],
    /'Photo' \(huge\.png\) is an image of 6000×5000 pixels, more than the 25 megapixels/,
  );
});

test('a code file or notebook longer than PDF_MAX_PAGES_PER_FILE pages is cut there, with a note naming the file and what is left out', async () => {
  const w = await mixedWorld([
    { key: 'file0', name: 'Program', type: 'code' },
    { key: 'file1', name: 'Notebook', type: 'code' },
  ]);
  const program = `${Array.from({ length: 1000 }, (_, i) => `print(${i})`).join('\n')}\n`;
  const notebook = JSON.stringify({
    cells: Array.from({ length: 300 }, (_, i) => ({ cell_type: 'code', execution_count: i + 1, source: [`x = ${i}`], outputs: [] })),
  });
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: code(program), file1: code(notebook, 'long.ipynb') })).status, 201);
  const limit = env.config.pdfMaxPagesPerFile;
  env.config.pdfMaxPagesPerFile = 2;
  try {
    await runJobs(env);
  } finally {
    env.config.pdfMaxPagesPerFile = limit;
  }
  const pages = await pdfPagesText((await download(people.tutor.creds, w.project, w.td)).bytes);
  const program_ = pages.filter((p) => p.includes('File 1 of 2'));
  const notebook_ = pages.filter((p) => p.includes('File 2 of 2'));
  assert.ok(program_.length <= 3 && notebook_.length <= 3, `two pages each and the note: ${program_.length}, ${notebook_.length}`);
  const note = program_.join(' ');
  assert.match(note, /main\.py \(\d+ kB\) is cut short here: this PDF shows the first 2 pages of each file, here lines 1 to \d+ of 1,000 lines\./);
  assert.match(note, "Download the file from the submission's files to read all of it.");
  assert.not.match(note, 'print(999)');
  assert.match(notebook_.join(' '), /long\.ipynb \(\d+ kB\) is cut short here: this PDF shows the first 2 pages of each file, here up to cell \d+ of 300\./);
});

test('PUT .../submission rebuilds the PDF through the job, byte for byte the same', async () => {
  const w = await mixedWorld();
  assert.is((await upload(people.student.creds, w.project, w.td, mixedFiles())).status, 201);
  await runJobs(env);
  const first = await download(people.student.creds, w.project, w.td);

  const put = await api(env, 'PUT', `${base(w.project, w.td)}/submission`, { as: people.student.creds });
  assert.equal([put.status, put.body], [200, { result: 'done' }]);
  assert.equal((await details(people.student.creds, w.project, w.td)).processing_pdf, true);
  assert.equal(
    (await queued()).map((j) => j.task),
    ['accept_submission'],
  );
  env.clock.set(new Date(env.clock.now().getTime() + 3600_000));
  await runJobs(env);
  const again = await download(people.student.creds, w.project, w.td);
  assert.equal((await details(people.student.creds, w.project, w.td)).has_pdf, true);
  assert.ok(again.bytes.equals(first.bytes), 'the same PDF');
});

test('a submission a newer upload replaced is skipped; only the newest is built', async () => {
  const w = await mixedWorld([{ key: 'file0', name: 'Program', type: 'code' }]);
  await travelTo(env, people, '2026-03-10T09:00:00Z');
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: code('print("first")\n') })).status, 201);
  await travelTo(env, people, '2026-03-10T12:00:00Z');
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: code('print("second")\n') })).status, 201);
  const entries = await k().selectFrom('task_submissions').select('id').orderBy('id').execute();
  assert.is(entries.length, 2);
  assert.is((await queued()).length, 2);

  await runJobs(env);

  assert.equal(await queued(), []);
  assert.not.ok(existsSync(stored(storageKeys.submissionPdf(entries[0].id))), 'no PDF for the replaced upload');
  assert.ok(existsSync(stored(storageKeys.submissionPdf(entries[1].id))));
  const [, body] = await pdfPagesText((await download(people.student.creds, w.project, w.td)).bytes);
  assert.match(body, 'second');
  assert.equal(await k().selectFrom('task_submissions').select('processing').execute(), [{ processing: false }, { processing: false }]);
});

test('a job that crashes (a stored file missing) is left for graphile-worker to retry, the task untouched', async () => {
  const w = await mixedWorld([{ key: 'file0', name: 'Program', type: 'code' }]);
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: code('x = 1\n') })).status, 201);
  const [file] = await k().selectFrom('submission_files').select('storage_path').execute();
  await env.services.storage.delete(file.storage_path);
  await runJobs(env);
  const [job] = await queued();
  assert.equal([job.task, job.attempts], ['accept_submission', 1]);
  assert.match(job.last_error ?? '', 'is missing');
  assert.equal(await k().selectFrom('tasks').select('status').execute(), [{ status: 'ready_for_feedback' }]);
  assert.equal((await details(people.student.creds, w.project, w.td)).processing_pdf, true);
});

test("the unit's draft task's PDF becomes the learning summary report, unless the student has their own", async () => {
  const w = await mixedWorld([{ key: 'file0', name: 'Draft', type: 'code' }]);
  await env.orm.em.fork().nativeUpdate(Unit, { id: w.unit }, { draftTaskDefinition: w.td } as never);
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: code('my draft\n', 'draft.txt') })).status, 201);
  await runJobs(env);
  const parts = await k().selectFrom('portfolio_parts').select(['idx', 'kind', 'name', 'storage_key']).execute();
  assert.equal(
    parts.map((p) => [p.idx, p.kind, p.name]),
    [[0, 'document', 'LearningSummaryReport.pdf']],
  );
  const [entry] = await k().selectFrom('task_submissions').select('id').execute();
  assert.equal(readFileSync(stored(parts[0].storage_key)), readFileSync(stored(storageKeys.submissionPdf(entry.id))));
  assert.equal(await k().selectFrom('projects').select('uses_draft_learning_summary').execute(), [{ uses_draft_learning_summary: true }]);
  const listed = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.student.creds });
  assert.ok(JSON.stringify(listed.body.portfolio_files).includes('LearningSummaryReport'), JSON.stringify(listed.body.portfolio_files));

  // The student's own report replaces the draft; a later draft no longer does.
  const own = await api(env, 'POST', `/api/submission/project/${w.project}/portfolio`, {
    as: people.student.creds,
    multipart: { name: 'LearningSummaryReport', kind: 'document', file0: pdf(samplePdf('My own report')) },
  });
  assert.is(own.status, 201, own.text);
  await travelTo(env, people, '2026-03-12T09:00:00Z');
  assert.is((await upload(people.student.creds, w.project, w.td, { file0: code('second draft\n', 'draft.txt') })).status, 201);
  await runJobs(env);
  const [part] = await k().selectFrom('portfolio_parts').select('storage_key').execute();
  assert.equal(readFileSync(stored(part.storage_key)), samplePdf('My own report'));
});

test.run();
