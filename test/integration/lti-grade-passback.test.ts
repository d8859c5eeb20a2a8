// Grade passback (LTI AGS) against the loopback platform: a tutor's marking through the web
// client's REST route queues the passback in the change's transaction, the worker's job posts the
// score to the line item's scores endpoint with a token carrying the score scope, and the convenor
// sees the state per task. Line items are found or created through the course's lineitems endpoint.
import type { ServerResponse } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { LTI_SCOPES } from '../../src/operations/lti/service-token.ts';
import { changeTask } from '../../src/operations/tasks/change-task.ts';
import { ROLE } from '../../src/policy/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { registerPlatform } from '../support/lti-launch.ts';
import { type LoopbackPlatform, type PlatformRequest, startLoopbackPlatform } from '../support/lti-platform.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';
import { type TaskWorld, taskWorld } from '../support/task-world.ts';
import { seedUnit } from '../support/seed.ts';

const test = suite('LTI grade passback (AGS) against the loopback platform');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;

interface Received {
  body: Record<string, unknown>;
  contentType: string | undefined;
  scopes: string[];
}
/** Scores the platform recorded, and what it answers next (a status per call, then 200). */
let scores: Received[];
let scoreAnswers: number[];
/** The course's line items at the platform (GET filters by resource_id; POST adds one). */
let lineItems: Record<string, unknown>[];
let lineItemRequests: { method: string; accept: string | undefined; contentType: string | undefined; scopes: string[]; query: string; body: string }[];

const SUB = 'learner-sub-1';

test.before(async () => {
  platform = await startLoopbackPlatform({ toolJwks: async () => (await api(env, 'GET', '/api/lti/jwks')).body, now: () => env.clock.now() });
  platform.handle('/lineitems/1/scores', ({ req, body, scopes: granted }: PlatformRequest, res: ServerResponse) => {
    const status = scoreAnswers.shift() ?? 200;
    if (status !== 200) return void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `refused with ${status}` }));
    if (!granted.includes(LTI_SCOPES.score)) return void res.writeHead(403).end('{"error":"no score scope"}');
    scores.push({ body: JSON.parse(body), contentType: req.headers['content-type'], scopes: granted });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  platform.handle('/lineitems', ({ req, url, body, scopes: granted }: PlatformRequest, res: ServerResponse) => {
    lineItemRequests.push({
      method: req.method ?? '',
      accept: req.headers.accept,
      contentType: req.headers['content-type'],
      scopes: granted,
      query: url.search,
      body,
    });
    if (req.method === 'POST') {
      if (!granted.includes(LTI_SCOPES.lineItem)) return void res.writeHead(403).end('{"error":"no lineitem scope"}');
      const item = { ...JSON.parse(body), id: platform.url(`/lineitems/${100 + lineItems.length}`) };
      lineItems.push(item);
      return void res.writeHead(201, { 'content-type': 'application/vnd.ims.lis.v2.lineitem+json' }).end(JSON.stringify(item));
    }
    const wanted = url.searchParams.get('resource_id');
    const found = lineItems.filter((item) => wanted === null || item.resourceId === wanted);
    res.writeHead(200, { 'content-type': 'application/vnd.ims.lis.v2.lineitemcontainer+json' }).end(JSON.stringify(found));
  });
});
freshEachTest(test, (world) => {
  ({ env, people } = world);
  scores = [];
  scoreAnswers = [];
  lineItems = [];
  lineItemRequests = [];
});
test.after(() => platform.close());

const AGS_SCOPES = [LTI_SCOPES.lineItem, LTI_SCOPES.resultReadOnly, LTI_SCOPES.score];

/** What a launch would have left: the platform, the course linked to the unit, the link with its line item, the student's identity. */
async function linked(w: TaskWorld, options: { identity?: boolean; scopes?: string[]; resourceLink?: boolean } = {}) {
  const platformId = await registerPlatform(env, people, platform);
  const k = db(env.orm.em.fork());
  const at = env.clock.now().toISOString();
  const context = await k
    .insertInto('lti_contexts')
    .values({
      platform_id: platformId,
      context_id: 'course-1',
      deployment_id: platform.deploymentId,
      title: 'Intro to Programming',
      unit_id: w.unit,
      lineitems_url: platform.url('/lineitems'),
      ags_scopes: options.scopes ?? AGS_SCOPES,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.resourceLink !== false) {
    await k
      .insertInto('lti_resource_links')
      .values({
        context_id: context.id,
        resource_link_id: 'link-1',
        task_definition_id: w.td,
        lineitem_url: platform.url('/lineitems/1'),
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  if (options.identity !== false)
    await k.insertInto('lti_identities').values({ user_id: people.student.user.id, issuer: platform.issuer, sub: SUB, created_at: at }).execute();
  return { contextId: context.id };
}

const mark = (w: TaskWorld, json: Record<string, unknown>, who: keyof People = 'tutor') =>
  api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: people[who].creds, json });

async function passbackJobs(): Promise<{ key: string | null; payload: { passbackId: number }; attempts: number; last_error: string | null }[]> {
  return env.orm.em
    .fork()
    .execute(
      "select j.key, j.payload, j.attempts, j.last_error from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'lti_score_passback' order by j.id",
    );
}

async function passbackRows() {
  return db(env.orm.em.fork()).selectFrom('lti_score_passbacks').selectAll().orderBy('id').execute();
}

/** Makes the queued jobs due now (graphile-worker's back-off put a failed one in the future). */
const dueNow = () => env.orm.em.fork().execute('update graphile_worker._private_jobs set run_at = now()');

const passbacks = (who: keyof People, unit: number, query?: Record<string, unknown>) =>
  api(env, 'GET', `/api/lti/units/${unit}/passbacks`, { as: people[who].creds, query });

test('a tutor marks the task complete: the passback is queued with the change, and the platform records the score', async () => {
  const w = await taskWorld(env, people);
  await linked(w);
  const res = await mark(w, { trigger: 'complete', grade: null, quality_pts: -1 });
  assert.is(res.status, 200, res.text);

  const [job, ...more] = await passbackJobs();
  assert.is(more.length, 0);
  const [row] = await passbackRows();
  assert.is(row.state, 'pending');
  assert.is(row.lineitem_url, platform.url('/lineitems/1'));
  assert.equal(job.payload.passbackId, row.id);
  assert.is(job.key, `lti_score_passback:${row.id}`);

  await runJobs(env);
  assert.is(scores.length, 1);
  const [score] = scores;
  assert.is(score.contentType, 'application/vnd.ims.lis.v1.score+json');
  assert.ok(score.scopes.includes(LTI_SCOPES.score), 'the bearer token carries the score scope');
  assert.equal(score.body, {
    userId: SUB,
    scoreGiven: 100,
    scoreMaximum: 100,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: env.clock.now().toISOString(),
  });
  assert.match(String(score.body.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.is((await passbackJobs()).length, 0, 'the job is done');

  const seen = await passbacks('convenor', w.unit);
  assert.is(seen.status, 200, seen.text);
  assert.is(seen.body.length, 1);
  assert.equal(
    { ...seen.body[0], sent_at: typeof seen.body[0].sent_at, updated_at: typeof seen.body[0].updated_at },
    {
      id: row.id,
      task_id: row.task_id,
      project_id: w.project,
      student_id: people.student.user.id,
      username: people.student.creds.username,
      student_name: seen.body[0].student_name,
      task_definition_id: w.td,
      abbreviation: 'P1',
      lineitem_url: platform.url('/lineitems/1'),
      state: 'sent',
      error: null,
      attempts: 1,
      score: score.body,
      changed_at: env.clock.now().toISOString(),
      updated_at: 'string',
      sent_at: 'string',
    },
  );
});

test('a change rolled back queues nothing', async () => {
  const w = await taskWorld(env, people);
  await linked(w);
  const em = env.orm.em.fork();
  const [{ id: taskId }] = await db(em)
    .insertInto('tasks')
    .values({ project_id: w.project, task_definition_id: w.td, created_at: env.clock.now().toISOString(), updated_at: env.clock.now().toISOString() })
    .returning('id')
    .execute();
  try {
    await em.transactional(async (tx) => {
      await changeTask(
        tx,
        taskId,
        { actor: { userId: people.tutor.user.id, role: ROLE.tutor }, change: { kind: 'trigger', target: 'complete' } },
        env.clock.now(),
      );
      assert.is((await db(tx).selectFrom('lti_score_passbacks').select('id').execute()).length, 1, 'queued inside the transaction');
      throw new Error('roll back');
    });
  } catch (error) {
    assert.is((error as Error).message, 'roll back');
  }
  assert.equal(await passbackJobs(), []);
  assert.equal(await passbackRows(), []);
  assert.is((await db(em).selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirstOrThrow()).status, 'not_started');
});

test('a later change before sending supersedes the earlier one: one job, the latest state sent', async () => {
  const w = await taskWorld(env, people, { isGraded: true });
  await linked(w);
  assert.is((await mark(w, { trigger: 'fix_and_resubmit' })).status, 200);
  assert.is((await mark(w, { trigger: 'complete', grade: 2 })).status, 200);
  const jobs = await passbackJobs();
  assert.is(jobs.length, 1, 'one job per (task, line item)');
  const [row] = await passbackRows();
  assert.is(row.version, 2);
  await runJobs(env);
  assert.is(scores.length, 1);
  assert.equal(scores[0].body, {
    userId: SUB,
    scoreGiven: 70,
    scoreMaximum: 100,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: env.clock.now().toISOString(),
  });
  // A change that does not touch the score (portfolio inclusion) queues nothing.
  assert.is((await mark(w, { include_in_portfolio: false })).status, 200);
  assert.equal(await passbackJobs(), []);
});

test('the platform fails (500): retrying with the error, then sent on a later attempt', async () => {
  const w = await taskWorld(env, people);
  await linked(w);
  scoreAnswers = [500];
  await mark(w, { trigger: 'complete' });
  await runJobs(env);
  assert.is(scores.length, 0);
  let [row] = await passbackRows();
  assert.is(row.state, 'retrying');
  assert.is(row.attempts, 1);
  assert.match(row.error ?? '', /500/);
  const [job] = await passbackJobs();
  assert.is(job.attempts, 1, 'graphile-worker keeps the job for another attempt');
  assert.match(job.last_error ?? '', /500/);

  await dueNow();
  await runJobs(env);
  assert.is(scores.length, 1);
  [row] = await passbackRows();
  assert.is(row.state, 'sent');
  assert.is(row.attempts, 2);
  assert.is(row.error, null);
});

test('a 401 forgets the token and retries with a new one', async () => {
  const w = await taskWorld(env, people);
  await linked(w);
  scoreAnswers = [401];
  await mark(w, { trigger: 'complete' });
  await runJobs(env);
  assert.is((await passbackRows())[0].state, 'retrying');
  const tokensBefore = platform.tokenRequests.length;
  await dueNow();
  await runJobs(env);
  assert.is(platform.tokenRequests.length, tokensBefore + 1, 'a new token was asked for');
  assert.is((await passbackRows())[0].state, 'sent');
});

test('the platform refuses (400): failed for good, no retry, the error shown to the convenor', async () => {
  const w = await taskWorld(env, people);
  await linked(w);
  scoreAnswers = [400];
  await mark(w, { trigger: 'complete' });
  await runJobs(env);
  assert.equal(await passbackJobs(), [], 'not retried');
  const seen = await passbacks('convenor', w.unit, { state: 'failed' });
  assert.is(seen.status, 200);
  assert.is(seen.body.length, 1);
  assert.is(seen.body[0].state, 'failed');
  assert.match(seen.body[0].error, /answered 400: .*refused with 400/);
  assert.equal((await passbacks('convenor', w.unit, { state: 'sent' })).body, []);

  // The convenor asks again for the failed ones once the platform is fixed.
  const again = await api(env, 'POST', `/api/lti/units/${w.unit}/passbacks`, { as: people.convenor.creds, json: { state: 'failed' } });
  assert.is(again.status, 201, again.text);
  assert.equal(again.body, { queued: 1 });
  await runJobs(env);
  assert.is(scores.length, 1);
  assert.is((await passbackRows())[0].state, 'sent');
});

test('a student without an identity at the platform: skipped, saying so; feedback states send progress without a score', async () => {
  const w = await taskWorld(env, people);
  await linked(w, { identity: false });
  await mark(w, { trigger: 'complete' });
  await runJobs(env);
  assert.is(scores.length, 0);
  const [row] = await passbackRows();
  assert.is(row.state, 'skipped');
  assert.match(row.error ?? '', /no identity at this platform/);

  await db(env.orm.em.fork())
    .insertInto('lti_identities')
    .values({ user_id: people.student.user.id, issuer: platform.issuer, sub: SUB, created_at: env.clock.now().toISOString() })
    .execute();
  await mark(w, { trigger: 'discuss' });
  await runJobs(env);
  assert.equal(
    scores.map((s) => s.body),
    [{ userId: SUB, activityProgress: 'Completed', gradingProgress: 'PendingManual', timestamp: env.clock.now().toISOString() }],
  );
});

test('a unit without LTI: a change queues nothing; a course without the score scope queues nothing', async () => {
  const w = await taskWorld(env, people);
  await mark(w, { trigger: 'complete' });
  assert.equal(await passbackJobs(), []);
  assert.equal(await passbackRows(), []);

  const other = await taskWorld(env, people, {}, {}, 'SIT202');
  await linked(other, { scopes: [LTI_SCOPES.lineItem] });
  await mark(other, { trigger: 'complete' });
  assert.equal(await passbackJobs(), []);
});

test('line items: listed per definition; created through the lineitems endpoint when the platform has none, found when it has', async () => {
  const w = await taskWorld(env, people);
  await linked(w, { resourceLink: false });
  const td2 = await seedTaskDefinition(env, w.unit, 'P2', { targetDate: '2026-03-20' });
  const before = await api(env, 'GET', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds });
  assert.is(before.status, 200, before.text);
  assert.equal(
    before.body.map((d: { abbreviation: string; line_items: unknown[] }) => [d.abbreviation, d.line_items]),
    [
      ['P1', []],
      ['P2', []],
    ],
  );

  // Work already marked is passed back once the column exists.
  await mark(w, { trigger: 'complete' });
  const created = await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: { task_definition_id: w.td } });
  assert.is(created.status, 201, created.text);
  const [get, post] = lineItemRequests;
  assert.is(get.method, 'GET');
  assert.is(get.accept, 'application/vnd.ims.lis.v2.lineitemcontainer+json');
  assert.is(get.query, `?resource_id=task-definition-${w.td}`);
  assert.is(post.method, 'POST');
  assert.is(post.contentType, 'application/vnd.ims.lis.v2.lineitem+json');
  assert.ok(post.scopes.includes(LTI_SCOPES.lineItem));
  assert.equal(JSON.parse(post.body), { scoreMaximum: 100, label: 'Task P1', resourceId: `task-definition-${w.td}`, tag: 'P1' });
  assert.equal(created.body.line_items, [
    {
      context_id: created.body.line_items[0].context_id,
      course: 'Intro to Programming',
      lineitem_url: platform.url('/lineitems/100'),
      source: 'created',
      passback: true,
    },
  ]);
  assert.is((await passbackJobs()).length, 1, 'the complete task is queued for the new column');

  // P2's column exists at the platform already: found, not created.
  lineItems.push({ id: platform.url('/lineitems/7'), resourceId: `task-definition-${td2}`, scoreMaximum: 100, label: 'Task P2' });
  lineItemRequests = [];
  const found = await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: { task_definition_id: td2 } });
  assert.is(found.status, 201, found.text);
  assert.equal(
    lineItemRequests.map((r) => r.method),
    ['GET'],
  );
  assert.is(found.body.line_items[0].source, 'found');
  assert.is(found.body.line_items[0].lineitem_url, platform.url('/lineitems/7'));

  // Asking again changes nothing at the platform.
  lineItemRequests = [];
  assert.is((await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: { task_definition_id: td2 } })).status, 201);
  assert.equal(lineItemRequests, []);
  const after = await api(env, 'GET', `/api/lti/units/${w.unit}/line_items`, { as: people.admin.creds });
  assert.is(after.status, 200);
  assert.equal(
    after.body.map((d: { abbreviation: string; line_items: { source: string }[] }) => [d.abbreviation, d.line_items.map((i) => i.source)]),
    [
      ['P1', ['created']],
      ['P2', ['found']],
    ],
  );
});

test("roles and bad input: students and tutors 403, convenor and Admin allowed; unknown unit 404; another unit's definition 400; unlinked unit 400", async () => {
  const w = await taskWorld(env, people);
  for (const who of ['student', 'tutor'] as const) {
    const list = await api(env, 'GET', `/api/lti/units/${w.unit}/line_items`, { as: people[who].creds });
    assert.is(list.status, 403, `${who}: ${list.text}`);
    assert.ok(typeof list.body.error === 'string');
    assert.is((await passbacks(who, w.unit)).status, 403);
    assert.is((await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people[who].creds, json: { task_definition_id: w.td } })).status, 403);
    assert.is((await api(env, 'POST', `/api/lti/units/${w.unit}/passbacks`, { as: people[who].creds, json: {} })).status, 403);
  }
  assert.is((await passbacks('convenor', w.unit)).status, 200);
  assert.is((await passbacks('admin', w.unit)).status, 200);
  assert.is((await passbacks('convenor', 999999)).status, 404);
  assert.is((await passbacks('convenor', w.unit, { state: 'lost' })).status, 400);

  const unlinked = await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: { task_definition_id: w.td } });
  assert.is(unlinked.status, 400);
  assert.match(unlinked.body.error, /not linked to an LMS course/);
  await linked(w);
  const elsewhere = await seedTaskDefinition(env, await seedUnit(env, { code: 'OTH101' }), 'X1');
  const wrong = await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: { task_definition_id: elsewhere } });
  assert.is(wrong.status, 400);
  assert.match(wrong.body.error, /not in this unit/);
  assert.is((await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: { task_definition_id: 999999 } })).status, 404);
  assert.is((await api(env, 'POST', `/api/lti/units/${w.unit}/line_items`, { as: people.convenor.creds, json: {} })).status, 400);
});

test('the convenor view is one query however many passbacks', async () => {
  const w = await taskWorld(env, people);
  await linked(w);
  await mark(w, { trigger: 'complete' });
  await passbacks('convenor', w.unit);
  const one = await countStatements(() => passbacks('convenor', w.unit));
  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  await api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${td2}`, { as: people.tutor.creds, json: { trigger: 'complete' } });
  const at = env.clock.now().toISOString();
  const [context] = await db(env.orm.em.fork()).selectFrom('lti_contexts').select('id').execute();
  await db(env.orm.em.fork())
    .insertInto('lti_line_items')
    .values({
      context_id: context.id,
      task_definition_id: td2,
      lineitem_url: platform.url('/lineitems/2'),
      created_by_tool: true,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await api(env, 'POST', `/api/lti/units/${w.unit}/passbacks`, { as: people.convenor.creds, json: {} });
  const res = await passbacks('convenor', w.unit);
  assert.is(res.body.length, 2);
  assert.is(await countStatements(() => passbacks('convenor', w.unit)), one);
});

test.run();
