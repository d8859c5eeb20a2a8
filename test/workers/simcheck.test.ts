import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimcheckAction, SimcheckSubmission, SubmissionFile, TaskSimilarity, TaskSubmission, User } from '../../schema/index.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { afterSubmissionPdf } from '../../src/operations/similarity/hooks.ts';
import type { NewSubmission } from '../../src/adapters/simcheck.ts';
import { simcheckContents, simcheckViewerUrl } from '../../src/operations/similarity/simcheck.ts';
import { readAll, storageKeys } from '../../src/storage/index.ts';
import type { StoredBytes } from '../../src/lib/files.ts';
import type { TestEnv } from '../support/env.ts';
import { configureSimcheck, REPORT_PDF, sign, SIMCHECK_SECRET, startFakeSimcheck, type FakeSimcheck } from '../support/fake-simcheck.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { samplePdf } from '../support/sample-files.ts';
import { api, rawRequest } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { seedTask } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('worker: documents through the similarity service (msw), webhooks and the poll cron');
let env: TestEnv;
let people: People;
let fake: FakeSimcheck;
let world: TaskWorld;
let taskId: number;

const ESSAY = Buffer.from('%PDF-1.4\n% an essay\n%%EOF\n');

test.before(() => {
  fake = startFakeSimcheck();
});
test.after(() => fake.close());
freshEachTest(test, (w) => ({ env, people } = w));
test.before.each(async () => {
  fake.reset();
  configureSimcheck(env.config, true);
  world = await taskWorld(env, people, {
    uploadRequirements: [
      { key: 'file0', name: 'Code', type: 'code' },
      { key: 'file1', name: 'Essay', type: 'document', tii_check: true, tii_pct: 30 },
    ],
  });
  taskId = await seedTask(env, world.project, world.td, { status: 'ready_for_feedback' });
});
test.after.each(() => configureSimcheck(env.config, false));

async function acceptEula(userId: number): Promise<void> {
  await env.orm.em.fork().nativeUpdate(User, { id: userId }, { simcheckEulaAcceptedAt: new Date('2026-03-01T00:00:00Z'), simcheckEulaVersion: 'v1beta' });
}

/** A converted submission (code + essay), as the PDF job leaves it, and the hook it calls. */
async function convertedSubmission(): Promise<{ submissionId: number; queued: boolean }> {
  const em = env.orm.em.fork();
  const entry = em.create(TaskSubmission, {
    task: taskId,
    submittedBy: people.student.user.id,
    submittedAt: env.clock.now(),
    processing: false,
  } as never) as unknown as { id: number };
  await em.flush();
  const files = [
    { idx: 0, key: 'file0', name: 'Code', kind: 'code', originalFilename: 'main.py', contentType: 'text/x-python', data: Buffer.from('print(1)\n'), ext: 'py' },
    { idx: 1, key: 'file1', name: 'Essay', kind: 'document', originalFilename: 'essay.pdf', contentType: 'application/pdf', data: ESSAY, ext: 'pdf' },
  ];
  for (const f of files) {
    const key = storageKeys.submissionFile(entry.id, f.idx, f.kind, f.ext);
    await env.services.storage.put(key, Readable.from([f.data]));
    em.create(SubmissionFile, {
      submission: entry.id,
      idx: f.idx,
      key: f.key,
      name: f.name,
      kind: f.kind,
      originalFilename: f.originalFilename,
      contentType: f.contentType,
      sizeBytes: f.data.length,
      storagePath: key,
    } as never);
  }
  await em.flush();
  const queued = await em.transactional((tx) => afterSubmissionPdf(tx, jobQueue(tx), { taskId, submissionId: entry.id }));
  return { submissionId: entry.id, queued };
}

async function hook(event: string, data: unknown, signature?: string) {
  const body = JSON.stringify(data);
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/tii_hook',
    headers: { 'content-type': 'application/json', 'x-turnitin-eventtype': event, 'x-turnitin-signature': signature ?? sign(body) },
    payload: body,
  });
  return { status: res.statusCode, body: res.body };
}

async function document() {
  const [doc] = await env.orm.em.fork().find(SimcheckSubmission, {});
  return doc;
}

async function uploadAction() {
  const [action] = await env.orm.em.fork().find(SimcheckAction, { action: 'upload_submission' });
  return action;
}

async function similarities() {
  return env.orm.em.fork().find(TaskSimilarity, { task: taskId });
}

const later = (minutes: number) => env.clock.set(new Date(env.clock.now().getTime() + minutes * 60_000));

async function poll(): Promise<void> {
  await env.orm.em.fork().transactional((tx) => jobQueue(tx).add('simcheck_poll', {}));
  await runJobs(env);
}

test('a checked document is uploaded after conversion, moved on by webhooks, flagged above the threshold and its report kept', async () => {
  await acceptEula(people.student.user.id);
  const { queued } = await convertedSubmission();
  assert.ok(queued, 'the hook queues simcheck_submit for a submission with a checked document');
  await runJobs(env);

  assert.equal(fake.calls(), ['POST /submissions', 'PUT /submissions/sub-1/original']);
  const created = fake.requests[0].body as NewSubmission;
  assert.equal([created.owner, created.submitter, created.submitter_default_permission_set], ['astudent', 'astudent', 'LEARNER']);
  assert.equal(created.eula, { user_id: 'astudent', accepted_timestamp: '2026-03-01T00:00:00.000Z', language: 'en-US', version: 'v1beta' });
  assert.equal(created.metadata.owners[0].id, 'astudent');
  assert.equal(created.metadata.group_context.owners, ['aconvenor']);
  assert.is(fake.requests[1].bytes, ESSAY.length);
  assert.is(fake.requests[1].contentDisposition, 'inline; filename="essay.pdf"');
  let doc = await document();
  assert.equal([doc.status, doc.remoteId, doc.idx, doc.filename], ['uploaded', 'sub-1', 1, 'essay.pdf']);

  fake.reset();
  assert.is((await hook('SUBMISSION_COMPLETE', { id: 'sub-1', status: 'COMPLETE' })).status, 201);
  assert.equal(fake.calls(), ['PUT /submissions/sub-1/similarity']);
  assert.is((await document()).status, 'similarity_report_requested');

  fake.reset();
  assert.is((await hook('SIMILARITY_COMPLETE', { submission_id: 'sub-1', status: 'COMPLETE', overall_match_percentage: 45 })).status, 201);
  const [similarity] = await similarities();
  assert.equal([similarity.kind, similarity.pct, similarity.flagged], ['simcheck', 45, true]);
  assert.equal(fake.calls(), ['POST /submissions/sub-1/similarity/pdf']);
  assert.is((await document()).status, 'similarity_pdf_requested');

  fake.reset();
  fake.state.pdfStatus = 'SUCCESS';
  assert.is((await hook('PDF_STATUS', { id: 'sub-1', status: 'SUCCESS' })).status, 201);
  assert.equal(fake.calls(), ['GET /submissions/sub-1/similarity/pdf/pdf-1']);
  doc = await document();
  assert.is(doc.status, 'similarity_pdf_downloaded');
  const action = await uploadAction();
  assert.equal(
    [action.complete, action.retry, action.errorCode, action.unit ? (action.unit as unknown as { id: number }).id : null],
    [true, false, null, world.unit],
  );

  const file = await simcheckContents(env.orm.em.fork(), env.services.storage, similarity.id);
  assert.ok(file);
  assert.is(file!.contentType, 'application/pdf');
  assert.equal([file!.size, typeof (file!.data as StoredBytes).open], [REPORT_PDF.length, 'function'], 'opened only as it is sent');
  assert.equal(await readAll(env.services.storage, (await similarities())[0].reportPath!, Infinity), REPORT_PDF);
  const viewer = await simcheckViewerUrl(env.orm.em.fork(), env.services, similarity.id, { id: people.tutor.user.id, username: 'atutor' });
  assert.equal(viewer, { kind: 'ready', url: 'https://viewer.simcheck.test/sub-1' });
  assert.equal(fake.requests.at(-1)!.body, { viewer_user_id: 'atutor', locale: 'en-US', viewer_default_permission_set: 'INSTRUCTOR' });
});

test("end to end: a student's upload is converted to a PDF, and then its checked document is sent to the service", async () => {
  await acceptEula(people.student.user.id);
  await travelTo(env, people, '2026-03-10T09:00:00Z');
  const res = await api(env, 'POST', `/api/projects/${world.project}/task_def_id/${world.td}/submission`, {
    as: people.student.creds,
    multipart: {
      file0: { filename: 'main.py', contentType: 'text/plain', data: Buffer.from('print(1)\n') },
      file1: { filename: 'essay.pdf', contentType: 'application/pdf', data: samplePdf('My essay') },
    },
  });
  assert.is(res.status, 201, res.text);
  await runJobs(env);
  const queued = await env.orm.em
    .fork()
    .execute<{ n: string }[]>(
      'select count(*) as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id ' +
        "where t.identifier = 'simcheck_submit'",
    );
  if (Number(queued[0].n) > 0) await runJobs(env);
  assert.equal(fake.calls(), ['POST /submissions', 'PUT /submissions/sub-1/original']);
  assert.is(fake.requests[1].bytes, samplePdf('My essay').length);
  assert.equal([(await document()).status, (await document()).filename], ['uploaded', 'essay.pdf']);
});

test('a similarity at or below the threshold is recorded unflagged and needs no report', async () => {
  await acceptEula(people.student.user.id);
  await convertedSubmission();
  await runJobs(env);
  await hook('SUBMISSION_COMPLETE', { id: 'sub-1', status: 'COMPLETE' });
  fake.reset();
  await hook('SIMILARITY_COMPLETE', { submission_id: 'sub-1', status: 'COMPLETE', overall_match_percentage: 30 });
  const [similarity] = await similarities();
  assert.equal([similarity.pct, similarity.flagged, similarity.reportPath], [30, false, null]);
  assert.equal(fake.calls(), []);
  assert.is((await document()).status, 'complete_low_similarity');
  assert.is((await uploadAction()).complete, true);
  assert.is(await simcheckContents(env.orm.em.fork(), env.services.storage, similarity.id), null);
  assert.equal((await simcheckViewerUrl(env.orm.em.fork(), env.services, similarity.id, { id: people.tutor.user.id, username: 'atutor' })).kind, 'ready');
});

test('the webhook refuses a wrong or missing signature (401) and changes nothing', async () => {
  await acceptEula(people.student.user.id);
  await convertedSubmission();
  await runJobs(env);
  fake.reset();
  const data = { id: 'sub-1', status: 'COMPLETE' };
  const forged = await hook('SUBMISSION_COMPLETE', data, sign(JSON.stringify(data), 'not-the-secret'));
  assert.equal([forged.status, JSON.parse(forged.body)], [401, { error: 'Signature did not match in webhook request' }]);
  const missing = await rawRequest(env, 'POST', '/api/simcheck_hook', 'application/json', JSON.stringify(data));
  assert.is(missing.status, 401);
  // The signature covers the exact bytes: the same object re-spaced is not what was signed.
  const respaced = await env.app.inject({
    method: 'POST',
    url: '/api/tii_hook',
    headers: { 'content-type': 'application/json', 'x-turnitin-eventtype': 'SUBMISSION_COMPLETE', 'x-turnitin-signature': sign(JSON.stringify(data)) },
    payload: JSON.stringify(data, null, 2),
  });
  assert.is(respaced.statusCode, 401);
  assert.is((await document()).status, 'uploaded');
  assert.equal(fake.calls(), []);
  assert.ok(SIMCHECK_SECRET);
  configureSimcheck(env.config, false);
  assert.is((await hook('SUBMISSION_COMPLETE', data)).status, 404);
});

test('without webhooks the poll cron moves a document on, only once it has waited 30 minutes', async () => {
  await acceptEula(people.student.user.id);
  await convertedSubmission();
  await runJobs(env);
  fake.reset();

  fake.state.submissionStatus = 'COMPLETE';
  await poll();
  assert.equal(fake.calls(), [], 'nothing is polled within 30 minutes of its last run');

  later(31);
  await poll();
  assert.equal(fake.calls(), ['GET /submissions/sub-1', 'PUT /submissions/sub-1/similarity']);
  assert.is((await document()).status, 'similarity_report_requested');

  fake.reset();
  later(31);
  await poll();
  assert.equal(fake.calls(), ['GET /submissions/sub-1/similarity'], 'a report still processing is asked about again later');
  assert.is((await uploadAction()).retry, true);

  fake.reset();
  fake.state.similarity = { status: 'COMPLETE', overall_match_percentage: 12 };
  later(31);
  await poll();
  const [similarity] = await similarities();
  assert.equal([similarity.pct, similarity.flagged], [12, false]);
  assert.is((await document()).status, 'complete_low_similarity');
  fake.reset();
  later(31);
  await poll();
  assert.equal(fake.calls(), [], 'a finished document is not polled again');
});

test('the tutor submits when the student has not accepted the agreement; nobody accepted → an error, nothing sent', async () => {
  await convertedSubmission();
  await runJobs(env);
  assert.equal(fake.calls(), []);
  let action = await uploadAction();
  assert.equal([action.errorCode, action.retry, action.complete], ['no_user_with_accepted_eula', false, false]);

  await acceptEula(people.tutor.user.id);
  await env.orm.em.fork().nativeUpdate(SimcheckAction, { id: action.id }, { retry: true });
  await env.orm.em.fork().transactional((tx) => jobQueue(tx).add('simcheck_action', { actionId: action.id }));
  await runJobs(env);
  assert.equal(fake.calls(), ['POST /submissions', 'PUT /submissions/sub-1/original']);
  const created = fake.requests[0].body as NewSubmission;
  assert.equal([created.owner, created.submitter, created.submitter_default_permission_set], ['astudent', 'atutor', 'INSTRUCTOR']);
  action = await uploadAction();
  assert.equal([action.errorCode, action.retry], [null, true]);
});

test('a service outage is recorded and retried by the poll, which stops at the first unavailable answer', async () => {
  await acceptEula(people.student.user.id);
  fake.state.down = 503;
  await convertedSubmission();
  await runJobs(env);
  let action = await uploadAction();
  assert.equal([action.errorCode, action.retry, action.retries], ['service_not_available', true, 1]);
  assert.is((await document()).status, 'created');

  fake.state.down = null;
  later(31);
  await poll();
  action = await uploadAction();
  assert.equal([action.errorCode, (await document()).status], [null, 'uploaded']);
});

test('checks off: the submit job does nothing; a submission without a checked document queues nothing', async () => {
  configureSimcheck(env.config, false);
  await acceptEula(people.student.user.id);
  const { queued } = await convertedSubmission();
  assert.ok(queued);
  await runJobs(env);
  assert.equal(fake.calls(), []);
  assert.equal(await env.orm.em.fork().find(SimcheckSubmission, {}), []);

  configureSimcheck(env.config, true);
  const em = env.orm.em.fork();
  await em.execute(
    `update task_definitions set upload_requirements = '[{"key":"file0","name":"Code","type":"code"},{"key":"file1","name":"Essay","type":"document"}]' ` +
      `where id = ?`,
    [world.td],
  );
  const again = await convertedSubmission();
  assert.is(again.queued, false);
});

test.run();
