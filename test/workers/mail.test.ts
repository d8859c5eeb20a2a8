// Notification e-mails delivered for real: the jobs run against an SMTP server on loopback.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCrontab } from 'graphile-worker';
import { db } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { queuePortfolioMail } from '../../src/mail/queue.ts';
import { queuePdfFailedMail } from '../../src/operations/mail/queue-task-mails.ts';
import { insertComments } from '../../src/operations/tasks/comments.ts';
import { smtpMailer, type Mailer } from '../../src/adapters/mailer.ts';
import { CRONTAB } from '../../workers/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type Actor, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedEnrolmentIn, seedGroupIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('worker: notification e-mails (send_email, weekly_summaries)');
let env: TestEnv;
let people: People;
let sink: SmtpSink;
let mailer: Mailer;
freshEachTest(test, (world) => ({ env, people } = world));

const FROM = '"Course Service" <no-reply@courses.example.edu>';
test.before(async () => {
  sink = await startSmtpSink();
  mailer = smtpMailer(sink.url, FROM);
});
test.before.each(() => {
  sink.received.length = 0;
  sink.refuse.clear();
});
test.after(() => sink.close());

interface World {
  unit: number;
  convenorRole: number;
  tutorRole: number;
  tutorial: number;
  project: number;
  bob: Actor;
  bobProject: number;
  p1: number;
}

/** SIT101 from 2026-03-02: the tutor takes LA1-01 with astudent and Bob; the convenor is the main convenor. */
async function world(): Promise<World> {
  const unit = await seedUnit(env, { code: 'SIT101', name: 'Programming' });
  const convenorRole = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01', { tutor: tutorRole });
  const project = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, project, tutorial);
  const bob = await signedIn(env, 'bstudent', 'Student');
  const bobProject = await enrol(env, bob.user, unit);
  await seedEnrolmentIn(env, bobProject, tutorial);
  const p1 = await seedTaskDefinition(env, unit, 'P1', { name: 'Hello World' });
  return { unit, convenorRole, tutorRole, tutorial, project, bob, bobProject, p1 };
}

const optOut = (userId: number, column: 'receive_task_notifications' | 'receive_feedback_notifications' | 'receive_portfolio_notifications') =>
  db(env.orm.em.fork())
    .updateTable('users')
    .set({ [column]: false })
    .where('id', '=', userId)
    .execute();
const notificationsOff = (unit: number) => db(env.orm.em.fork()).updateTable('units').set({ send_notifications: false }).where('id', '=', unit).execute();
const inTransaction = (work: (em: Em) => Promise<void>) => env.orm.em.fork().transactional((em) => work(em as Em));
const jobsLeft = async () =>
  (await env.orm.em.fork().execute<{ task_identifier: string }[]>('select task_identifier from graphile_worker.jobs')).map((j) => j.task_identifier);
const sentTo = () => sink.received.flatMap((m) => m.to).sort();

const HEADER = "Username,Name,Tutorial,Task,Student's Last Comment,Your Last Comment,Status,New Grade,New Quality,Max Quality,New Comment";
const uploadMarks = (as: Actor, unit: number, rows: string[]) =>
  api(env, 'POST', '/api/submission/assess', {
    as: as.creds,
    multipart: { unit_id: String(unit), file: { filename: 'marks.csv', contentType: 'text/csv', data: Buffer.from([HEADER, ...rows].join('\r\n')) } },
  });

test('batch marking mails each student whose tasks it changed, from the marker; an opted-out student gets nothing', async () => {
  const w = await world();
  await seedTask(env, w.project, w.p1, { status: 'ready_for_feedback' });
  await seedTask(env, w.bobProject, w.p1, { status: 'ready_for_feedback' });
  await optOut(w.bob.user.id, 'receive_feedback_notifications');
  const res = await uploadMarks(people.tutor, w.unit, [
    'astudent,Astudent Tester,LA1-01,P1,,,complete,,,0,Nice work',
    'bstudent,Bstudent Tester,LA1-01,P1,,,complete,,,0,',
  ]);
  assert.is(res.status, 201, res.text);
  assert.is((await jobsLeft()).filter((n) => n === 'send_email').length, 2, 'queued with the marks, read when sent');

  await runJobs(env, undefined, mailer);
  assert.equal(sentTo(), ['astudent@example.edu']);
  const [mail] = sink.received;
  assert.is(mail.subject, 'Programming: Feedback ready to review');
  assert.is(mail.from, 'no-reply@courses.example.edu');
  assert.match(mail.headers.from, /Atutor Tester via Course Service.*<no-reply@courses\.example\.edu>/);
  assert.match(mail.headers['reply-to'], /atutor@example\.edu/);
  assert.match(mail.text, /^Hi Astudent,/);
  assert.match(mail.text, / {2}\* P1 - Hello World \(with comments\)/);
  assert.equal(await jobsLeft(), [], "bob's job completed without sending");
});

test('a status set with PUT sends nothing (as the original, only batch marking mails feedback)', async () => {
  const w = await world();
  await seedTask(env, w.project, w.p1, { status: 'ready_for_feedback' });
  const res = await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.p1}`, { as: people.tutor.creds, json: { trigger: 'complete' } });
  assert.is(res.status, 200, res.text);
  assert.not.ok((await jobsLeft()).includes('send_email'));
});

test('a unit with send_notifications off mails nobody, whatever the preferences', async () => {
  const w = await world();
  await seedTask(env, w.project, w.p1, { status: 'ready_for_feedback' });
  await notificationsOff(w.unit);
  assert.is((await uploadMarks(people.tutor, w.unit, ['astudent,Astudent Tester,LA1-01,P1,,,complete,,,0,Good'])).status, 201);
  await inTransaction((em) => queuePortfolioMail(em, { projectId: w.project, ok: true }));
  await runJobs(env, undefined, mailer);
  assert.equal(sink.received, []);
  assert.equal(await jobsLeft(), []);
});

test('task PDF failed: every member of a group submission is told, with the reason; one who opted out is not', async () => {
  const w = await world();
  const { group } = await seedGroupIn(env, w.unit, w.tutorial, { members: [w.project, w.bobProject] });
  const g1 = await seedTaskDefinition(env, w.unit, 'G1', { name: 'Team report' });
  const [submission] = await db(env.orm.em.fork())
    .insertInto('group_submissions')
    .values({ group_id: group, task_definition_id: g1, submitted_by_id: w.project, created_at: new Date().toISOString() })
    .returning('id')
    .execute();
  const mine = await seedTask(env, w.project, g1, { status: 'fix_and_resubmit' });
  const bobs = await seedTask(env, w.bobProject, g1, { status: 'fix_and_resubmit' });
  await db(env.orm.em.fork()).updateTable('tasks').set({ group_submission_id: submission.id }).where('id', 'in', [mine, bobs]).execute();
  const carol = await signedIn(env, 'cstudent', 'Student');
  const carolProject = await enrol(env, carol.user, w.unit);
  const carols = await seedTask(env, carolProject, w.p1, { status: 'fix_and_resubmit' });
  await optOut(carol.user.id, 'receive_task_notifications');

  await inTransaction(async (em) => {
    await queuePdfFailedMail(em, { taskId: mine, reason: 'file0 is not a readable PDF' });
    await queuePdfFailedMail(em, { taskId: carols });
  });
  await runJobs(env, undefined, mailer);
  assert.equal(sentTo(), ['astudent@example.edu', 'bstudent@example.edu']);
  for (const mail of sink.received) {
    assert.is(mail.subject, 'Programming: Task PDFs ready to view');
    assert.match(mail.text, / {2}\* G1 - Team report/);
    assert.match(mail.text, /What went wrong: file0 is not a readable PDF/);
    assert.match(mail.headers.from, /Atutor Tester via Course Service/, "on behalf of the students' tutor");
  }
});

test('portfolio ready and failed go to the student from the main convenor; an opted-out student gets nothing', async () => {
  const w = await world();
  await optOut(w.bob.user.id, 'receive_portfolio_notifications');
  await inTransaction(async (em) => {
    await queuePortfolioMail(em, { projectId: w.project, ok: true });
    await queuePortfolioMail(em, { projectId: w.project, ok: false });
    await queuePortfolioMail(em, { projectId: w.bobProject, ok: true });
  });
  await runJobs(env, undefined, mailer);
  assert.equal(sentTo(), ['astudent@example.edu', 'astudent@example.edu']);
  assert.equal(sink.received.map((m) => m.subject).sort(), ['Programming: Portfolio failed to compile', 'Programming: Portfolio ready to review']);
  assert.match(sink.received[0].headers.from, /Aconvenor Tester via Course Service/);
});

test('a mail queued in a transaction that rolls back is never sent', async () => {
  const w = await world();
  await inTransaction(async (em) => {
    await queuePortfolioMail(em, { projectId: w.project, ok: true });
    throw new Error('the change failed');
  }).catch(() => {});
  await runJobs(env, undefined, mailer);
  assert.equal(sink.received, []);
});

test('without SMTP_URL the mail jobs complete without sending', async () => {
  const w = await world();
  await inTransaction((em) => queuePortfolioMail(em, { projectId: w.project, ok: true }));
  await runJobs(env); // the default mailer of the tests: no SMTP_URL
  assert.equal(sink.received, []);
  assert.equal(await jobsLeft(), [], 'completed, not left to retry');
});

test('a permanent refusal (5xx) completes the job; a temporary one (4xx) is retried', async () => {
  const w = await world();
  sink.refuse.set('astudent@example.edu', 550);
  await inTransaction((em) => queuePortfolioMail(em, { projectId: w.project, ok: true }));
  await runJobs(env, undefined, mailer);
  assert.equal(await jobsLeft(), []);
  sink.refuse.set('astudent@example.edu', 451);
  await inTransaction((em) => queuePortfolioMail(em, { projectId: w.project, ok: true }));
  await runJobs(env, undefined, mailer);
  const [job] = await env.orm.em.fork().execute<{ attempts: number; last_error: string }[]>('select attempts, last_error from graphile_worker.jobs');
  assert.is(job.attempts, 1);
  assert.match(job.last_error, /451|refused/);
  assert.equal(sink.received, []);
});

/** The week of 9-15 March 2026 (the summary runs on Monday 16 March). */
async function weeklyWorld() {
  const w = await world();
  const at = (day: string) => new Date(`${day}T10:00:00Z`);
  // astudent: P1 overdue and untouched, P2 waiting since 12 March; Bob: P1 waiting since 10 March.
  await seedTaskDefinition(env, w.unit, 'P2', { name: 'Loops', targetDate: '2026-03-18' });
  const p2Def = (await db(env.orm.em.fork()).selectFrom('task_definitions').select('id').where('abbreviation', '=', 'P2').executeTakeFirstOrThrow()).id;
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ target_date: '2026-03-09' }).where('id', '=', w.p1).execute();
  const mineP2 = await seedTask(env, w.project, p2Def, { status: 'ready_for_feedback', submissionDate: at('2026-03-12') });
  const bobsP1 = await seedTask(env, w.bobProject, w.p1, { status: 'ready_for_feedback', submissionDate: at('2026-03-10') });
  const em = env.orm.em.fork();
  await insertComments(
    em,
    [{ taskId: mineP2, authorId: people.student.user.id, recipientId: people.tutor.user.id, kind: 'text', comment: 'Please check' }],
    at('2026-03-12'),
  );
  await insertComments(
    em,
    [{ taskId: mineP2, authorId: people.tutor.user.id, recipientId: people.student.user.id, kind: 'text', comment: 'Soon' }],
    at('2026-03-13'),
  );
  await insertComments(
    em,
    [
      {
        taskId: mineP2,
        authorId: people.student.user.id,
        recipientId: people.tutor.user.id,
        kind: 'status',
        comment: 'Ready',
        taskStatus: 'ready_for_feedback',
      },
    ],
    at('2026-03-12'),
  );
  await insertComments(
    em,
    [{ taskId: bobsP1, authorId: w.bob.user.id, recipientId: people.tutor.user.id, kind: 'text', comment: 'Last week' }],
    at('2026-03-05'),
  );
  return w;
}

test('weekly summaries: each student their tasks to do and the week; each staff member the work waiting; the convenor the staff table', async () => {
  const w = await weeklyWorld();
  await jobQueue(env.orm.em.fork()).add('weekly_summaries', { weekEnd: '2026-03-16' });
  await runJobs(env, undefined, mailer);
  assert.equal(sentTo(), ['aconvenor@example.edu', 'astudent@example.edu', 'atutor@example.edu', 'bstudent@example.edu']);
  const to = (address: string) => sink.received.find((m) => m.to.includes(address))!;
  for (const mail of sink.received) assert.is(mail.subject, 'Programming: Weekly Summary');

  const student = to('astudent@example.edu').text;
  assert.match(student, /weekly summary for 9 March 2026 to 15 March 2026/);
  assert.match(student, /Overdue - catch up on these first:\n {2}\* P1 - Hello World\n/);
  assert.not.match(student, /P2 - Loops/, 'waiting for feedback: nothing to do');
  assert.match(student, /Your tasks: Not Started: 1, Ready for Feedback: 1\./);
  assert.match(student, /2 comments were made in the unit\./, "Bob's comment was the week before");
  assert.match(student, /You posted 1 comment and received 1 comment\./);
  assert.match(student, /yours changed 1 time\./);

  const tutor = to('atutor@example.edu').text;
  assert.match(tutor, /2 tasks are waiting for your feedback; the oldest was submitted 6 days ago\./);
  assert.match(tutor, /You posted 1 comment and received 1 comment\./, "Bob's comment was the week before");
  assert.not.match(tutor, /Teaching staff this week/);

  const convenor = to('aconvenor@example.edu').text;
  assert.match(convenor, /Teaching staff this week:/);
  assert.match(convenor, /\nAtutor Tester +\| +2 \|/);
  assert.not.match(convenor, /waiting for your feedback/, 'the convenor takes no tutorial');
  assert.ok(w.unit > 0);
});

test('weekly summaries honour preferences and send_notifications, and running twice for one week sends each mail once', async () => {
  const w = await weeklyWorld();
  await optOut(w.bob.user.id, 'receive_feedback_notifications');
  await optOut(people.convenor.user.id, 'receive_feedback_notifications');
  const quiet = await seedUnit(env, { code: 'SIT202' });
  await employ(env, w.bob.user, quiet, 'Tutor'); // a unit with notifications off
  await enrol(env, people.student.user, quiet);
  await notificationsOff(quiet);
  const queue = jobQueue(env.orm.em.fork());
  await queue.add('weekly_summaries', { weekEnd: '2026-03-16' });
  await queue.add('weekly_summaries', { weekEnd: '2026-03-16' });
  await runJobs(env, undefined, mailer);
  assert.equal(sentTo(), ['astudent@example.edu', 'atutor@example.edu']);
});

test('weekly summaries skip a unit that started less than 4 days before, and a student with a portfolio near the end', async () => {
  const w = await weeklyWorld();
  await db(env.orm.em.fork()).updateTable('projects').set({ portfolio_production_date: '2026-03-15T00:00:00Z' }).where('id', '=', w.project).execute();
  await jobQueue(env.orm.em.fork()).add('weekly_summaries', { weekEnd: '2026-03-05' });
  await runJobs(env, undefined, mailer);
  assert.equal(sink.received, []);
  await jobQueue(env.orm.em.fork()).add('weekly_summaries', { weekEnd: '2026-03-16' });
  await runJobs(env, undefined, mailer);
  assert.not.ok(sentTo().includes('astudent@example.edu'), 'portfolio done and not mid-unit (28 days in)');
  assert.ok(sentTo().includes('bstudent@example.edu'));
});

test('the cron item runs the weekly summaries on Mondays at 07:00 UTC only, under one job key', () => {
  const item = parseCrontab(CRONTAB).find((i) => i.task === 'weekly_summaries')!;
  assert.ok(item, 'in the crontab');
  const at = (date: number, dow: number, hour: number, min = 0) => ({ min, hour, date, month: 3, dow });
  assert.ok(item.match(at(16, 1, 7)));
  assert.not.ok(item.match(at(17, 2, 7)));
  assert.not.ok(item.match(at(16, 1, 8)));
  assert.is(item.options.jobKey, 'weekly_summaries');
});

test.run();
