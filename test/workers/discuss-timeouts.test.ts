// The daily discuss-timeout job (docs/discuss-timeouts.md): the warning and the expiry at the right
// teaching days, once per stay in discuss, idempotent, crash-safe and safe to run twice at once; the
// mails delivered for real to an SMTP server on loopback.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCrontab } from 'graphile-worker';
import { sql } from 'kysely';
import { Break } from '../../schema/index.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import { smtpMailer, type Mailer } from '../../src/adapters/mailer.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { db } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { changeTask } from '../../src/operations/tasks/change-task.ts';
import { runDiscussTimeouts } from '../../src/operations/tasks/discuss-timeouts.ts';
import { ROLE } from '../../src/policy/index.ts';
import { CRONTAB } from '../../workers/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, signedIn, type Actor, type People } from '../support/fixtures.ts';
import { runJobs } from '../support/jobs.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedEnrolmentIn, seedGroupIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('worker: discuss timeouts (discuss_timeouts)');
let env: TestEnv;
let people: People;
let sink: SmtpSink;
let mailer: Mailer;
freshEachTest(test, (world) => ({ env, people } = world));

test.before(async () => {
  sink = await startSmtpSink();
  mailer = smtpMailer(sink.url, '"Course Service" <no-reply@courses.example.edu>');
});
test.before.each(() => {
  sink.received.length = 0;
});
test.after(() => sink.close());

interface World {
  unit: number;
  tutorial: number;
  project: number;
  bob: Actor;
  bobProject: number;
  p1: number;
  p2: number;
}

/**
 * SIT101 (from 2026-03-02, in no period unless given one) with timeouts on at 7 and 14 days; the
 * tutor takes astudent's tutorial, Bob is in none (his tutor is the main convenor).
 */
async function world(options: { period?: number; enabled?: boolean; code?: string } = {}): Promise<World> {
  const unit = await seedUnit(env, { code: options.code ?? 'SIT101', name: 'Programming', teachingPeriod: options.period ?? null });
  await db(env.orm.em.fork())
    .updateTable('units')
    .set({ discuss_timeout_enabled: options.enabled ?? true, discuss_timeout_warning_days: 7, discuss_timeout_expire_days: 14 })
    .where('id', '=', unit)
    .execute();
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const tutorial = await seedTutorialRow(env, unit, 'LA1-01', { tutor: tutorRole });
  const project = await enrol(env, people.student.user, unit);
  await seedEnrolmentIn(env, project, tutorial);
  const bob = await signedIn(env, `bstudent${options.code ?? ''}`.toLowerCase(), 'Student');
  const bobProject = await enrol(env, bob.user, unit);
  const p1 = await seedTaskDefinition(env, unit, 'P1', { name: 'Hello World' });
  const p2 = await seedTaskDefinition(env, unit, 'P2', { name: 'Loops' });
  return { unit, tutorial, project, bob, bobProject, p1, p2 };
}

const at = (day: string) => new Date(`${day}T10:00:00.000Z`);

/** A task moved to `status` by the tutor through changeTask at 10:00 UTC on `day` (so discuss records its stay). */
async function move(task: number, status: TaskStatus, day: string): Promise<void> {
  await env.orm.em
    .fork()
    .transactional((em) =>
      changeTask(
        em as Em,
        task,
        { actor: { userId: people.tutor.user.id, role: ROLE.tutor }, change: { kind: 'trigger', target: status }, comment: 'Noted.' },
        at(day),
      ),
    );
}

async function inDiscuss(project: number, definition: number, day: string): Promise<number> {
  const task = await seedTask(env, project, definition, { status: 'ready_for_feedback' });
  await move(task, 'discuss', day);
  return task;
}

/** The job as the worker runs it (queued, then taken by runOnce with its mails), on `day`. */
async function runOn(day: string): Promise<void> {
  env.clock.set(at(day));
  await jobQueue(env.orm.em.fork()).add('discuss_timeouts', {});
  await runJobs(env, undefined, mailer);
}

const state = (task: number) =>
  db(env.orm.em.fork())
    .selectFrom('tasks')
    .select(['status', 'moved_to_discuss_at', 'notified_discuss_warning_at', 'notified_discuss_expiry_at'])
    .where('id', '=', task)
    .executeTakeFirstOrThrow();

/** The task's comments from the timeout job (its text comments, which start "This task"). */
const notices = async (task: number) =>
  (
    await db(env.orm.em.fork())
      .selectFrom('task_comments')
      .select(['author_id', 'recipient_id', 'comment'])
      .where('task_id', '=', task)
      .where('kind', '=', 'text')
      .where('comment', 'like', 'This task%')
      .orderBy('id')
      .execute()
  ).map((c) => ({ ...c, comment: c.comment!.replace(/ (for|on) .*?(teaching days|\d{4}-\d{2}-\d{2})/g, ' $1 …') }));

const statusComments = async (task: number) =>
  (
    await db(env.orm.em.fork())
      .selectFrom('task_comments')
      .select('task_status')
      .where('task_id', '=', task)
      .where('kind', '=', 'status')
      .orderBy('id')
      .execute()
  ).map((c) => c.task_status);

const queuedMails = async () =>
  (
    await env.orm.em
      .fork()
      .execute<{ payload: { kind: string; taskId: number } }[]>(
        `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'send_email' order by j.id`,
      )
  ).map((j) => `${j.payload.kind}:${j.payload.taskId}`);

const WARNING =
  'This task has been waiting in Discuss for …. Please talk it over with your tutor soon: if it is still in Discuss on …, it will go back to Fix and Resubmit.';
const EXPIRY =
  'This task stayed in Discuss for … without being discussed, so it has gone back to Fix and Resubmit. Look over your work, submit it again, and then discuss it with your tutor.';

test('nothing before the warning day; on it a warning comment from the tutor and a mail; the expiry day sends it back to fix and resubmit, with a comment and a mail', async () => {
  const w = await world();
  const task = await inDiscuss(w.project, w.p1, '2026-03-02');
  assert.ok((await state(task)).moved_to_discuss_at, 'changeTask recorded the stay');

  await runOn('2026-03-08');
  assert.equal(await notices(task), [], 'day 6: nothing');
  assert.equal(sink.received, []);

  await runOn('2026-03-09');
  assert.equal(await notices(task), [{ author_id: people.tutor.user.id, recipient_id: people.student.user.id, comment: WARNING }]);
  const [warning] = (
    await db(env.orm.em.fork()).selectFrom('task_comments').select('comment').where('task_id', '=', task).where('comment', 'like', 'This task%').execute()
  ).map((c) => c.comment);
  assert.match(warning!, /for 7 teaching days/);
  assert.match(warning!, /still in Discuss on 2026-03-16/);
  let s = await state(task);
  assert.equal([s.status, s.notified_discuss_warning_at !== null, s.notified_discuss_expiry_at], ['discuss', true, null]);
  assert.equal(
    sink.received.map((m) => [m.to, m.subject]),
    [[['astudent@example.edu'], 'Programming: P1 is waiting to be discussed']],
  );
  assert.match(sink.received[0].text, /^Hi Astudent,/);
  assert.match(sink.received[0].text, /waiting in Discuss for 7 teaching days/);
  assert.match(sink.received[0].text, /still in Discuss on 16 March 2026/);
  assert.match(sink.received[0].headers['reply-to'], /atutor@example\.edu/);

  sink.received.length = 0;
  await runOn('2026-03-15');
  assert.equal([(await notices(task)).length, sink.received.length], [1, 0], 'day 13: warned already, not expired yet');

  await runOn('2026-03-16');
  assert.equal(await notices(task), [
    { author_id: people.tutor.user.id, recipient_id: people.student.user.id, comment: WARNING },
    { author_id: people.tutor.user.id, recipient_id: people.student.user.id, comment: EXPIRY },
  ]);
  s = await state(task);
  assert.equal([s.status, s.notified_discuss_expiry_at !== null], ['fix_and_resubmit', true]);
  assert.equal(await statusComments(task), ['discuss', 'fix_and_resubmit'], 'the move is a status change of the workflow');
  assert.equal(
    sink.received.map((m) => [m.to, m.subject]),
    [[['astudent@example.edu'], 'Programming: P1 moved to Fix and Resubmit']],
  );
  assert.match(sink.received[0].text, /stayed in Discuss for 14 teaching days/);
});

test('run twice on the same day: no second comment, mail or status change', async () => {
  const w = await world();
  const warned = await inDiscuss(w.project, w.p1, '2026-03-02');
  const expired = await inDiscuss(w.project, w.p2, '2026-02-20');
  env.clock.set(at('2026-03-09'));
  await jobQueue(env.orm.em.fork()).add('discuss_timeouts', {});
  await runJobs(env, undefined, mailer);
  await jobQueue(env.orm.em.fork()).add('discuss_timeouts', {});
  await runJobs(env, undefined, mailer);
  const again = await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'));
  assert.equal([again.warned, again.expired, again.skipped], [0, 0, 0]);
  assert.equal([(await notices(warned)).length, (await notices(expired)).length], [1, 1]);
  assert.equal(await statusComments(expired), ['discuss', 'fix_and_resubmit']);
  assert.equal(sink.received.map((m) => m.subject).sort(), ['Programming: P1 is waiting to be discussed', 'Programming: P2 moved to Fix and Resubmit']);
});

test("a group task: the members in discuss go back together, each told once, as the submission's tutor", async () => {
  const w = await world();
  await seedEnrolmentIn(env, w.bobProject, w.tutorial);
  const { groupSet } = await seedGroupIn(env, w.unit, w.tutorial, { members: [w.project, w.bobProject] });
  const g1 = await seedTaskDefinition(env, w.unit, 'G1', { name: 'Team project', groupSet });
  const task = await inDiscuss(w.project, g1, '2026-02-20');
  const bobTask = await db(env.orm.em.fork())
    .selectFrom('tasks')
    .select(['id', 'status'])
    .where('project_id', '=', w.bobProject)
    .where('task_definition_id', '=', g1)
    .executeTakeFirstOrThrow();
  assert.is(bobTask.status, 'discuss', "the group's submission moved together");

  await runOn('2026-03-09');
  for (const t of [task, bobTask.id]) {
    const s = await state(t);
    assert.equal([s.status, s.notified_discuss_expiry_at !== null, (await notices(t)).length], ['fix_and_resubmit', true, 1], `task ${t}`);
  }
  assert.equal(sink.received.map((m) => m.to[0]).sort(), ['astudent@example.edu', w.bob.user.email]);
  const rerun = await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'));
  assert.equal([rerun.expired, rerun.skipped, rerun.problems], [0, 0, []]);
});

test('a stay past both thresholds at once (the job did not run for a while) is sent back without a warning first', async () => {
  const w = await world();
  const task = await inDiscuss(w.project, w.p1, '2026-03-02');
  await runOn('2026-03-20');
  assert.equal(await notices(task), [{ author_id: people.tutor.user.id, recipient_id: people.student.user.id, comment: EXPIRY }]);
  const s = await state(task);
  assert.equal([s.status, s.notified_discuss_warning_at, s.notified_discuss_expiry_at !== null], ['fix_and_resubmit', null, true]);
  assert.equal(
    sink.received.map((m) => m.subject),
    ['Programming: P1 moved to Fix and Resubmit'],
  );
});

test("across a teaching break: the break's days do not count, so a task due on calendar days is not warned yet", async () => {
  const period = await seedPeriod(env, { startDate: new Date('2026-03-02T00:00:00Z') });
  const em = env.orm.em.fork();
  em.create(Break, { teachingPeriod: period, startDate: '2026-03-16', numberOfWeeks: 1 });
  await em.flush();
  const inPeriod = await world({ period });
  const calendarDays = await world({ code: 'SIT202' });
  const task = await inDiscuss(inPeriod.project, inPeriod.p1, '2026-03-12');
  const control = await inDiscuss(calendarDays.project, calendarDays.p1, '2026-03-12');

  await runOn('2026-03-19');
  assert.equal((await notices(control)).length, 1, 'the unit in no period: 7 calendar days, warned');
  assert.equal(await notices(task), [], 'the unit with the break: 4 teaching days, not yet');
  await runOn('2026-03-25');
  assert.equal(await notices(task), [], '6 teaching days');
  await runOn('2026-03-26');
  assert.equal((await notices(task)).length, 1, '7 teaching days');
  const [comment] = (
    await db(env.orm.em.fork()).selectFrom('task_comments').select('comment').where('task_id', '=', task).where('comment', 'like', 'This task%').execute()
  ).map((c) => c.comment);
  assert.match(comment!, /still in Discuss on 2026-04-02/, 'the expiry day skips the break too');
  await runOn('2026-04-01');
  assert.is((await state(task)).status, 'discuss', '13 teaching days');
  await runOn('2026-04-02');
  assert.is((await state(task)).status, 'fix_and_resubmit', '14 teaching days');
});

test('units with timeouts off, inactive units, withdrawn students and tasks not in discuss are left alone', async () => {
  const on = await world();
  const off = await world({ code: 'SIT202', enabled: false });
  const offTask = await inDiscuss(off.project, off.p1, '2026-02-01');
  const demonstrate = await seedTask(env, on.project, on.p1, { status: 'ready_for_feedback' });
  await move(demonstrate, 'demonstrate', '2026-02-01');
  const waiting = await seedTask(env, on.project, on.p2, { status: 'ready_for_feedback' });
  const withdrawn = await inDiscuss(on.bobProject, on.p1, '2026-02-01');
  await db(env.orm.em.fork()).updateTable('projects').set({ enrolled: false }).where('id', '=', on.bobProject).execute();
  const inactive = await world({ code: 'SIT303' });
  const inactiveTask = await inDiscuss(inactive.project, inactive.p1, '2026-02-01');
  await db(env.orm.em.fork()).updateTable('units').set({ active: false }).where('id', '=', inactive.unit).execute();

  await runOn('2026-03-20');
  for (const task of [offTask, demonstrate, waiting, withdrawn, inactiveTask]) {
    assert.equal(await notices(task), [], `task ${task}`);
    const s = await state(task);
    assert.equal([s.notified_discuss_warning_at, s.notified_discuss_expiry_at], [null, null], `task ${task}`);
  }
  assert.equal(
    [(await state(offTask)).status, (await state(demonstrate)).status, (await state(waiting)).status],
    ['discuss', 'demonstrate', 'ready_for_feedback'],
  );
  assert.equal(sink.received, []);
});

test('a task moved out of discuss and back in is warned again for its new stay', async () => {
  const w = await world();
  const task = await inDiscuss(w.project, w.p1, '2026-03-02');
  await runOn('2026-03-09');
  assert.is((await notices(task)).length, 1);
  await move(task, 'fix_and_resubmit', '2026-03-10');
  await move(task, 'ready_for_feedback', '2026-03-11');
  await move(task, 'discuss', '2026-03-12');
  const s = await state(task);
  assert.equal([s.notified_discuss_warning_at, s.notified_discuss_expiry_at], [null, null], 'changeTask began a new stay');
  await runOn('2026-03-16');
  assert.is((await notices(task)).length, 1, 'the new stay is 4 days old: the old warning does not count, nor does the old stay');
  await runOn('2026-03-19');
  assert.is((await notices(task)).length, 2, 'warned for the new stay');
  assert.is((await state(task)).status, 'discuss');
});

test('a student in no tutorial: the main convenor warns; a unit that requires feedback comments still sends back (the explaining comment is the feedback)', async () => {
  const w = await world();
  await db(env.orm.em.fork()).updateTable('units').set({ require_feedback_comment: true }).where('id', '=', w.unit).execute();
  const task = await inDiscuss(w.bobProject, w.p1, '2026-03-02');
  await runOn('2026-03-09');
  assert.equal(
    (await notices(task)).map((c) => [c.author_id, c.recipient_id]),
    [[people.convenor.user.id, w.bob.user.id]],
  );
  await runOn('2026-03-16');
  assert.is((await state(task)).status, 'fix_and_resubmit');
  assert.equal(
    sink.received.map((m) => m.to[0]),
    [w.bob.user.email, w.bob.user.email],
  );
});

test("send_notifications off: the comments and the move happen, but no mail is sent; an opted-out student's preference is kept", async () => {
  const w = await world();
  await db(env.orm.em.fork()).updateTable('units').set({ send_notifications: false }).where('id', '=', w.unit).execute();
  const task = await inDiscuss(w.project, w.p1, '2026-03-02');
  await runOn('2026-03-09');
  assert.equal([(await notices(task)).length, sink.received.length], [1, 0]);
  await db(env.orm.em.fork()).updateTable('units').set({ send_notifications: true }).where('id', '=', w.unit).execute();
  await db(env.orm.em.fork()).updateTable('users').set({ receive_task_notifications: false }).where('id', '=', people.student.user.id).execute();
  await runOn('2026-03-16');
  assert.equal([(await state(task)).status, sink.received.length], ['fix_and_resubmit', 0]);
});

test('a warning mail still waiting when the task leaves discuss is not sent', async () => {
  const w = await world();
  const task = await inDiscuss(w.project, w.p1, '2026-03-02');
  await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'));
  assert.equal(await queuedMails(), [`discuss_timeout_warning:${task}`]);
  await move(task, 'complete', '2026-03-09');
  await runJobs(env, undefined, mailer);
  assert.equal(sink.received, []);
});

test('an interrupted run repeats nothing: what committed stays sent, the rest is sent by the next run', async () => {
  const w = await world();
  const first = await inDiscuss(w.project, w.p1, '2026-03-02');
  const second = await inDiscuss(w.project, w.p2, '2026-03-02');
  const expiring = await inDiscuss(w.bobProject, w.p1, '2026-02-20');
  // The database fails the run's writes to the second task, as a crash there would stop it.
  const k = db(env.orm.em.fork());
  await sql`create function fail_second() returns trigger language plpgsql as $$ begin raise exception 'interrupted'; end $$`.execute(k);
  await sql.raw(`create trigger fail_second before update on tasks for each row when (new.id = ${second}) execute function fail_second()`).execute(k);
  try {
    await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'), { chunkSize: 1 });
    assert.unreachable('the run stops at the second task');
  } catch (error) {
    assert.match((error as Error).message, /interrupted/);
  } finally {
    await sql`drop trigger fail_second on tasks`.execute(k);
    await sql`drop function fail_second()`.execute(k);
  }
  assert.equal([(await notices(first)).length, (await notices(second)).length, (await notices(expiring)).length], [1, 0, 0]);
  assert.equal(await queuedMails(), [`discuss_timeout_warning:${first}`], "the second task's comment and mail went with its rollback");
  assert.is((await state(second)).notified_discuss_warning_at, null);

  const rerun = await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'), { chunkSize: 1 });
  assert.equal([rerun.warned, rerun.expired], [1, 1], 'only what the first run did not commit');
  assert.equal([(await notices(first)).length, (await notices(second)).length, (await notices(expiring)).length], [1, 1, 1]);
  assert.equal(await queuedMails(), [`discuss_timeout_warning:${first}`, `discuss_timeout_warning:${second}`, `discuss_timeout_expired:${expiring}`]);
});

test('a run inside a transaction that rolls back leaves nothing behind, and the next run does it all once', async () => {
  const w = await world();
  const task = await inDiscuss(w.project, w.p1, '2026-02-20');
  await env.orm.em
    .fork()
    .transactional(async (em) => {
      const run = await runDiscussTimeouts(em as Em, at('2026-03-09'));
      assert.is(run.expired, 1);
      throw new Error('rolled back');
    })
    .catch(() => {});
  assert.equal([(await state(task)).status, (await notices(task)).length, (await queuedMails()).length], ['discuss', 0, 0]);
  await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'));
  assert.equal([(await state(task)).status, (await notices(task)).length, (await queuedMails()).length], ['fix_and_resubmit', 1, 1]);
});

test('two runs at once send each notice once; a task someone holds is skipped and left for the next run', async () => {
  const w = await world();
  const tasks = [
    await inDiscuss(w.project, w.p1, '2026-03-02'),
    await inDiscuss(w.project, w.p2, '2026-02-20'),
    await inDiscuss(w.bobProject, w.p1, '2026-03-02'),
    await inDiscuss(w.bobProject, w.p2, '2026-02-20'),
  ];
  const runs = await Promise.all([runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09')), runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'))]);
  assert.equal(
    runs.reduce((n, r) => n + r.warned + r.expired, 0),
    4,
  );
  for (const task of tasks) assert.is((await notices(task)).length, 1, `task ${task}`);
  assert.is((await queuedMails()).length, 4);

  const later = await world({ code: 'SIT202' });
  const busy = await inDiscuss(later.project, later.p1, '2026-03-02');
  const free = await inDiscuss(later.project, later.p2, '2026-03-02');
  await env.orm.em.fork().transactional(async (em) => {
    await sql`select id from tasks where id = ${busy} for update`.execute(db(em as Em));
    const run = await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'));
    assert.equal([run.warned, run.skipped], [1, 1]);
  });
  assert.equal([(await notices(busy)).length, (await notices(free)).length], [0, 1]);
  const next = await runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09'));
  assert.equal([next.warned, (await notices(busy)).length, (await notices(free)).length], [1, 1, 1]);
});

test('finding and warning the tasks takes the same number of statements for 10 tasks as for 60 (one chunk)', async () => {
  const w = await world();
  const more = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const user = await createUser(env, `s${String(i).padStart(3, '0')}`, 'Student');
      await seedTask(env, await enrol(env, user, w.unit), w.p1, { status: 'discuss' });
    }
    await db(env.orm.em.fork())
      .updateTable('tasks')
      .set({ moved_to_discuss_at: at('2026-03-02').toISOString() })
      .where('notified_discuss_warning_at', 'is', null)
      .execute();
  };
  await more(0, 10);
  const ten = await countStatements(() => runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09')));
  await more(10, 70);
  const sixty = await countStatements(() => runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09')));
  const nothing = await countStatements(() => runDiscussTimeouts(env.orm.em.fork(), at('2026-03-09')));
  assert.is((await db(env.orm.em.fork()).selectFrom('tasks').select('id').where('notified_discuss_warning_at', 'is not', null).execute()).length, 70);
  assert.is(sixty, ten, `${ten} statements for 10, ${sixty} for 60`);
  assert.is(nothing, 1, 'a run with nothing due: the one candidate statement');
});

test('the cron item runs daily at 06:00 UTC in a queue of its own, under one job key', () => {
  const item = parseCrontab(CRONTAB).find((i) => i.task === 'discuss_timeouts')!;
  assert.ok(item, 'scheduled');
  const when = (date: number, dow: number, hour: number, min = 0) => ({ min, hour, date, month: 3, dow });
  assert.ok(item.match(when(3, 2, 6)));
  assert.ok(item.match(when(8, 0, 6)), 'every day, weekends too: the count is in days');
  assert.not.ok(item.match(when(3, 2, 7)));
  assert.is(item.options.queueName, 'discuss_timeouts');
  assert.is(item.options.jobKey, 'discuss_timeouts');
});

test.run();
