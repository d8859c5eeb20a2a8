import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { enrol } from '../support/seed.ts';
import { seedTask } from '../support/seed-enrolments.ts';
import { anotherTutor, taskWorld, type TaskWorld } from '../support/task-world.ts';
import { countStatements } from '../support/statements.ts';
import { db } from '../../src/db/kysely.ts';
import { seedOversight } from '../../scripts/demo/oversight.ts';

const test = suite('REST moderation samples, their report, and escalations to the convenor');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** `count` enrolled students whose task of `td` is complete, assessed by `assessorId` (recorded as changeTask records it). */
async function completedBy(w: TaskWorld, td: number, assessorId: number, count: number, prefix: string): Promise<number[]> {
  const k = db(env.orm.em.fork());
  const tasks: number[] = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(env, `${prefix}${i}`, 'Student');
    const project = await enrol(env, user, w.unit);
    const task = await seedTask(env, project, td, { status: 'complete' });
    const at = new Date(Date.UTC(2026, 2, 3, 0, i)).toISOString();
    await k
      .insertInto('task_submissions')
      .values({ task_id: task, submitted_at: at, assessor_id: assessorId, assessed_at: at, outcome: 'complete', processing: false })
      .execute();
    tasks.push(task);
  }
  return tasks;
}

const count = async (table: 'moderation_samples' | 'moderation_items' | 'task_escalations') =>
  Number(
    (
      await db(env.orm.em.fork())
        .selectFrom(table)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('a 10% sample draws ceil(10%) of each tutor, fixed once drawn; reviews feed the report', async () => {
  const w = await taskWorld(env, people);
  const second = await anotherTutor(env, w, 'tutor2');
  await completedBy(w, w.td, people.tutor.user.id, 12, 'a'); // ceil(1.2) = 2
  await completedBy(w, w.td, second.user.id, 5, 'b'); // ceil(0.5) = 1
  const url = `/api/units/${w.unit}/moderation_samples`;
  const drawn = await api(env, 'POST', url, { as: people.convenor.creds, json: { task_definition_id: w.td, percent: 10, moderator_ids: [second.user.id] } });
  assert.is(drawn.status, 201, drawn.text);
  assert.equal([drawn.body.items, drawn.body.reviewed, drawn.body.moderator_ids], [3, 0, [second.user.id]]);
  const sample = await api(env, 'GET', `${url}/${drawn.body.id}`, { as: people.convenor.creds });
  assert.is(sample.status, 200, sample.text);
  const items = sample.body.sampled as { id: number; assessor_id: number; task_id: number }[];
  const perTutor = (id: number) => items.filter((i) => i.assessor_id === id).length;
  assert.equal([perTutor(people.tutor.user.id), perTutor(second.user.id)], [2, 1]);

  // Fixed: drawing again takes only tasks not sampled yet.
  const again = await api(env, 'POST', url, { as: people.convenor.creds, json: { task_definition_id: w.td, percent: 100 } });
  assert.is(again.status, 201, again.text);
  assert.is(again.body.items, 14, 'the other 10 + 4');
  const again2 = await api(env, 'GET', `${url}/${drawn.body.id}`, { as: people.convenor.creds });
  assert.equal(
    again2.body.sampled.map((i: { task_id: number }) => i.task_id),
    items.map((i) => i.task_id),
    'the first sample is unchanged',
  );
  const empty = await api(env, 'POST', url, { as: people.convenor.creds, json: { task_definition_id: w.td, percent: 100 } });
  assert.is(empty.status, 400, empty.text);
  assert.is(await count('moderation_samples'), 2, 'a refused draw leaves no sample behind');

  // Reviews: the named moderator reviews the first tutor's; not their own; a disagreement needs a comment.
  const mine = items.find((i) => i.assessor_id === second.user.id)!;
  const theirs = items.filter((i) => i.assessor_id === people.tutor.user.id);
  const review = (item: number, who: { username: string; token: string }, json: Record<string, unknown>) =>
    api(env, 'PUT', `${url}/${drawn.body.id}/items/${item}`, { as: who, json });
  assert.is((await review(mine.id, second.creds, { verdict: 'agree' })).status, 403, 'not their own');
  assert.is((await review(theirs[0]!.id, second.creds, { verdict: 'disagree' })).status, 400, 'comment required');
  assert.is((await review(theirs[0]!.id, second.creds, { verdict: 'maybe' })).status, 400);
  assert.is((await review(theirs[0]!.id, people.tutor.creds, { verdict: 'agree' })).status, 403, 'not a moderator of this sample');
  assert.is((await review(999_999, second.creds, { verdict: 'agree' })).status, 404);
  const disagreed = await review(theirs[0]!.id, second.creds, { verdict: 'disagree', comment: 'Should be fix and resubmit' });
  assert.is(disagreed.status, 200, disagreed.text);
  assert.equal([disagreed.body.verdict, disagreed.body.reviewer_id], ['disagree', second.user.id]);
  assert.is((await review(theirs[1]!.id, people.convenor.creds, { verdict: 'agree' })).status, 200);
  assert.is((await review(mine.id, people.convenor.creds, { verdict: 'agree' })).status, 200);

  const report = await api(env, 'GET', `/api/units/${w.unit}/moderation_report`, { as: people.convenor.creds });
  assert.is(report.status, 200, report.text);
  const row = (id: number) => report.body.by_tutor.find((r: { tutor_id: number }) => r.tutor_id === id);
  assert.equal(
    [row(people.tutor.user.id).sampled, row(people.tutor.user.id).reviewed, row(people.tutor.user.id).disagreed, row(people.tutor.user.id).rate],
    [12, 2, 1, 0.5],
  );
  assert.equal([row(second.user.id).sampled, row(second.user.id).reviewed, row(second.user.id).rate], [5, 1, 0]);
  assert.is(report.body.by_definition.length, 2);

  // Who may: the report and drawing are the convenor's; a tutor sees only samples naming them.
  assert.is((await api(env, 'GET', `/api/units/${w.unit}/moderation_report`, { as: people.tutor.creds })).status, 403);
  assert.is((await api(env, 'POST', url, { as: people.tutor.creds, json: { task_definition_id: w.td, percent: 10 } })).status, 403);
  assert.is((await api(env, 'GET', url, { as: people.student.creds })).status, 403);
  assert.is((await api(env, 'GET', `${url}/${drawn.body.id}`, { as: people.tutor.creds })).status, 403);
  assert.equal(
    (await api(env, 'GET', url, { as: second.creds })).body.map((s: { id: number }) => s.id),
    [drawn.body.id],
  );
  assert.is((await api(env, 'GET', url, { as: people.convenor.creds })).body.length, 2);
});

test('drawing: bad input is 400 and leaves nothing; unknown unit 404', async () => {
  const w = await taskWorld(env, people);
  const url = `/api/units/${w.unit}/moderation_samples`;
  const post = (json: Record<string, unknown>) => api(env, 'POST', url, { as: people.convenor.creds, json });
  await completedBy(w, w.td, people.tutor.user.id, 2, 'a');
  for (const json of [
    { task_definition_id: w.td, percent: 0 },
    { task_definition_id: w.td, percent: 101 },
    { task_definition_id: w.td, percent: 'ten' },
    { task_definition_id: w.td },
    { percent: 10 },
    { task_definition_id: 999_999, percent: 10 },
    { task_definition_id: w.td, percent: 10, moderator_ids: [people.student.user.id] },
  ]) {
    const res = await post(json);
    assert.is(res.status, 400, `${JSON.stringify(json)}: ${res.text}`);
    assert.ok(typeof res.body.error === 'string');
  }
  assert.equal([await count('moderation_samples'), await count('moderation_items')], [0, 0]);
  assert.is(
    (await api(env, 'POST', '/api/units/999999/moderation_samples', { as: people.convenor.creds, json: { task_definition_id: w.td, percent: 10 } })).status,
    404,
  );
});

test("an escalation is in every convenor's inbox (not a tutor's) until a convenor resolves it; students never see it", async () => {
  const w = await taskWorld(env, people);
  const url = `/api/projects/${w.project}/task_def_id/${w.td}/escalations`;
  const inboxOf = async (who: { username: string; token: string }) =>
    (await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: who })).body as { id: number; escalated: number }[];
  assert.is((await api(env, 'POST', url, { as: people.student.creds, json: { reason: 'help' } })).status, 403);
  assert.is((await api(env, 'POST', url, { as: people.tutor.creds, json: { reason: '  ' } })).status, 400);
  assert.is(await count('task_escalations'), 0);
  // The task has not been touched yet: escalating creates it.
  const opened = await api(env, 'POST', url, { as: people.tutor.creds, json: { reason: 'Possible contract cheating' } });
  assert.is(opened.status, 201, opened.text);
  assert.equal([opened.body.escalated_by_id, opened.body.resolved_at], [people.tutor.user.id, null]);
  assert.is((await api(env, 'POST', url, { as: people.tutor.creds, json: { reason: 'again' } })).status, 400, 'one open at a time');
  assert.equal(
    (await inboxOf(people.convenor.creds)).map((t) => [t.id, t.escalated]),
    [[opened.body.task_id, 1]],
  );
  assert.equal(await inboxOf(people.tutor.creds), []);
  assert.is((await api(env, 'GET', url, { as: people.student.creds })).status, 403);
  const task = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.student.creds });
  assert.not.ok(task.text.includes('contract cheating'));
  assert.is((await api(env, 'GET', url, { as: people.tutor.creds })).body.length, 1);

  assert.is((await api(env, 'PUT', `${url}/${opened.body.id}`, { as: people.tutor.creds, json: { note: 'mine' } })).status, 403, 'a tutor does not resolve');
  assert.is((await api(env, 'PUT', `${url}/999999`, { as: people.convenor.creds, json: {} })).status, 404);
  const resolved = await api(env, 'PUT', `${url}/${opened.body.id}`, { as: people.convenor.creds, json: { note: 'Spoke to the student' } });
  assert.is(resolved.status, 200, resolved.text);
  assert.equal([resolved.body.resolved_by_id, resolved.body.resolution_note], [people.convenor.user.id, 'Spoke to the student']);
  assert.ok(resolved.body.resolved_at);
  assert.equal(await inboxOf(people.convenor.creds), []);
  assert.is((await api(env, 'PUT', `${url}/${opened.body.id}`, { as: people.convenor.creds, json: {} })).status, 400, 'already resolved');
  assert.is((await api(env, 'POST', url, { as: people.tutor.creds, json: { reason: 'New concern' } })).status, 201, 'a new one may open');
});

test("the convenor's inbox with mentions and escalations issues as many statements for 30 students as for 3", async () => {
  const w = await taskWorld(env, people);
  const add = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const user = await createUser(env, `s${i}`, 'Student');
      const project = await enrol(env, user, w.unit);
      await seedTask(env, project, w.td, { status: 'working_on_it' });
      const note = await api(env, 'POST', `/api/projects/${project}/staff_notes`, {
        as: people.tutor.creds,
        json: { text: 'n', mentioned_user_ids: [people.convenor.user.id] },
      });
      assert.is(note.status, 201);
      if (i % 2 === 0)
        assert.is(
          (await api(env, 'POST', `/api/projects/${project}/task_def_id/${w.td}/escalations`, { as: people.tutor.creds, json: { reason: 'r' } })).status,
          201,
        );
    }
  };
  const measure = async () => {
    env.services.sessions.forgetUser(people.convenor.user.id);
    let rows = 0;
    const statements = await countStatements(async () => {
      const res = await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.convenor.creds });
      assert.is(res.status, 200, res.text);
      rows = res.body.length;
    });
    return { statements, rows };
  };
  await add(0, 3);
  await measure();
  const small = await measure();
  await add(3, 30);
  const large = await measure();
  assert.equal([small.rows, large.rows], [3, 30]);
  assert.is(large.statements, small.statements);
});

test('the demo seed makes notes, a reviewed sample and an open escalation the convenor sees at once', async () => {
  const w = await taskWorld(env, people);
  await completedBy(w, w.td, people.tutor.user.id, 20, 'd');
  const made = await env.orm.em.fork().transactional((em) => seedOversight(em, w.unit, env.clock.now()));
  assert.equal(made, { notes: 3, sampled: 2, escalations: 1 });
  const report = await api(env, 'GET', `/api/units/${w.unit}/moderation_report`, { as: people.convenor.creds });
  assert.equal([report.body.by_tutor[0].sampled, report.body.by_tutor[0].reviewed, report.body.by_tutor[0].disagreed], [2, 2, 1]);
  const inbox = (await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.convenor.creds })).body as { mentioned: number; escalated: number }[];
  assert.ok(inbox.some((t) => t.mentioned === 1));
  assert.ok(inbox.some((t) => t.escalated === 1));
});

test.run();
