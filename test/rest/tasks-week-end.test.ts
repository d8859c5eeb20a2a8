import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { anotherStudent, outsideTutor, taskWorld } from '../support/task-world.ts';

const test = suite('REST PUT /api/projects/{id} trigger=trigger_week_end');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const weekEnd = (who: keyof People | { creds: { username: string; token: string } }, project: number, trigger = 'trigger_week_end') =>
  api(env, 'PUT', `/api/projects/${project}`, { as: typeof who === 'string' ? people[who].creds : who.creds, json: { trigger } });

async function statuses(project: number) {
  return db(env.orm.em.fork())
    .selectFrom('tasks')
    .select(['id', 'status', 'completion_date', 'times_assessed', 'quality_pts'])
    .where('project_id', '=', project)
    .orderBy('id')
    .execute();
}

test('staff end the week: discussed and demonstrated work is complete (status comments, stats), the rest is untouched', async () => {
  const w = await taskWorld(env, people, { maxQualityPts: 3 });
  const td2 = await seedTaskDefinition(env, w.unit, 'P2');
  const td3 = await seedTaskDefinition(env, w.unit, 'P3');
  const td4 = await seedTaskDefinition(env, w.unit, 'P4');
  const discussed = await seedTask(env, w.project, w.td, { status: 'discuss' });
  await env.orm.em
    .fork()
    .getConnection()
    .execute(
      `update tasks set quality_pts = 2, times_assessed = 1, assessment_date = now(), submission_date = now() - interval '1 day', ` +
        `completion_date = '2026-02-27' where id = ${discussed}`,
    );
  const demonstrated = await seedTask(env, w.project, td2, { status: 'demonstrate' });
  const fixing = await seedTask(env, w.project, td3, { status: 'fix_and_resubmit' });
  const ready = await seedTask(env, w.project, td4, { status: 'ready_for_feedback' });
  const other = await anotherStudent(env, w, 'bstudent');
  const othersDiscussed = await seedTask(env, other.project, w.td, { status: 'discuss' });

  const res = await weekEnd('tutor', w.project);
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), [
    'campus_id',
    'compile_portfolio',
    'portfolio_available',
    'submitted_grade',
    'target_grade',
    'uses_draft_learning_summary',
  ]);
  const after = await statuses(w.project);
  assert.equal(
    after.map((t) => [t.id, t.status]),
    [
      [discussed, 'complete'],
      [demonstrated, 'complete'],
      [fixing, 'fix_and_resubmit'],
      [ready, 'ready_for_feedback'],
    ],
  );
  const d = after.find((t) => t.id === discussed)!;
  assert.is(String(d.completion_date).slice(0, 10), '2026-02-27', 'its completion date stays');
  assert.is(d.quality_pts, 2, 'its quality points stay');
  assert.is(d.times_assessed, 1, 'no new submission, no new assessment counted');
  assert.is((await statuses(other.project))[0].status, 'discuss', "another student's project is not touched");
  assert.is(othersDiscussed > 0, true);

  const comments = await db(env.orm.em.fork()).selectFrom('task_comments').select(['task_id', 'author_id', 'task_status']).orderBy('id').execute();
  assert.equal(comments, [
    { task_id: discussed, author_id: people.tutor.user.id, task_status: 'complete' },
    { task_id: demonstrated, author_id: people.tutor.user.id, task_status: 'complete' },
  ]);
  const stats = await db(env.orm.em.fork()).selectFrom('projects').select('task_stats').where('id', '=', w.project).executeTakeFirstOrThrow();
  const parsed = typeof stats.task_stats === 'string' ? JSON.parse(stats.task_stats) : stats.task_stats;
  assert.is(parsed.green_pct, 0.5);
});

test('refused: the student, a tutor of another unit (403, nothing changes); any other trigger word 403 "Invalid trigger - X unknown"', async () => {
  const w = await taskWorld(env, people);
  await seedTask(env, w.project, w.td, { status: 'discuss' });
  const outsider = await outsideTutor(env);
  for (const who of ['student', outsider, 'admin'] as const) {
    const res = await weekEnd(who, w.project);
    assert.is(res.status, 403);
    assert.equal(res.body, { error: `You are not authorised to perform this action for Project with id=${w.project}` });
  }
  const unknown = await weekEnd('tutor', w.project, 'complete');
  assert.is(unknown.status, 403);
  assert.equal(unknown.body, { error: 'Invalid trigger - complete unknown' });
  assert.equal(
    (await statuses(w.project)).map((t) => t.status),
    ['discuss'],
  );
  assert.is((await weekEnd('tutor', 999999)).status, 404);
});

test('the trigger comes first: sent with target_grade, only the week end is applied', async () => {
  const w = await taskWorld(env, people);
  await seedTask(env, w.project, w.td, { status: 'demonstrate' });
  const res = await api(env, 'PUT', `/api//projects/${w.project}`, {
    as: people.convenor.creds,
    hyphenHeader: true,
    json: { trigger: 'trigger_week_end', target_grade: 3 },
  });
  assert.is(res.status, 200);
  assert.is(res.body.target_grade, 0);
  assert.equal(
    (await statuses(w.project)).map((t) => t.status),
    ['complete'],
  );
});

test.run();
