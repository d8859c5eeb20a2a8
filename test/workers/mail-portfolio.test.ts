// The portfolio compile's e-mails, end to end: PUT compile_portfolio, the compile job, then the mail.
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { smtpMailer, type Mailer } from '../../src/adapters/mailer.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('worker: portfolio e-mails');
let env: TestEnv;
let people: People;
let sink: SmtpSink;
let mailer: Mailer;
freshEachTest(test, (world) => ({ env, people } = world));
test.before(async () => {
  sink = await startSmtpSink();
  mailer = smtpMailer(sink.url, 'no-reply@courses.example.edu');
});
test.before.each(() => {
  sink.received.length = 0;
});
test.after(() => sink.close());

const compile = (project: number) => api(env, 'PUT', `/api/projects/${project}`, { as: people.student.creds, form: { compile_portfolio: true } });

test('a compiled portfolio mails the student "Portfolio ready to review"', async () => {
  const world = await taskWorld(env, people);
  assert.is((await compile(world.project)).status, 200);
  await runJobs(env, undefined, mailer);
  assert.equal(
    sink.received.map((m) => [m.to, m.subject]),
    [[['astudent@example.edu'], 'Unit SIT101: Portfolio ready to review']],
  );
  assert.match(sink.received[0].text, /has been compiled/);
});

test('a compile that fails on an unreadable task PDF mails "Portfolio failed to compile"; an opted-out student gets nothing', async () => {
  const world = await taskWorld(env, people);
  const td = await seedTaskDefinition(env, world.unit, 'B1');
  const task = await seedTask(env, world.project, td, { status: 'ready_for_feedback' });
  await env.services.storage.put(`submissions/${task}/submission.pdf`, Readable.from([Buffer.from('%PDF-1.4 not really')]));
  await db(env.orm.em.fork())
    .updateTable('tasks')
    .set({ pdf_path: `submissions/${task}/submission.pdf` })
    .where('id', '=', task)
    .execute();
  assert.is((await compile(world.project)).status, 200);
  await runJobs(env, undefined, mailer);
  assert.equal(
    sink.received.map((m) => m.subject),
    ['Unit SIT101: Portfolio failed to compile'],
  );

  sink.received.length = 0;
  await db(env.orm.em.fork()).updateTable('users').set({ receive_portfolio_notifications: false }).where('id', '=', people.student.user.id).execute();
  assert.is((await compile(world.project)).status, 200);
  await runJobs(env, undefined, mailer);
  assert.equal(sink.received, []);
});

test.run();
