import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { db } from '../../src/db/kysely.ts';

const test = suite('REST PUT /api/projects/{id}/task_def_id/{td}');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world(extra: Parameters<typeof seedTaskDefinition>[3] = {}) {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'P1', extra);
  return { unit, project, td };
}

const put = (who: keyof People, project: number, td: number, json: Record<string, unknown>) =>
  api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: people[who].creds, json });

test('the student hands work in on time, the tutor marks it complete: statuses, dates, comments and stats', async () => {
  const { project, td } = await world();
  await travelTo(env, people, '2026-03-02T09:00:00Z');
  const rff = await put('student', project, td, { trigger: 'rff' });
  assert.is(rff.status, 200);
  assert.is(rff.body.status, 'ready_for_feedback');
  assert.is(rff.body.submission_date, '2026-03-02');
  assert.is(rff.body.due_date, '2026-03-16');
  assert.is(rff.body.times_assessed, 0);
  assert.equal(JSON.parse(rff.body.new_stats).blue_pct, 1);
  await travelTo(env, people, '2026-03-02T10:00:00Z');
  const done = await put('tutor', project, td, { trigger: 'complete', grade: null, quality_pts: -1 });
  assert.is(done.status, 200);
  assert.is(done.body.status, 'complete');
  assert.is(done.body.completion_date, '2026-03-02');
  assert.is(done.body.times_assessed, 1);
  assert.equal(JSON.parse(done.body.new_stats).green_pct, 1);
  const comments = await db(env.orm.em.fork()).selectFrom('task_comments').select(['kind', 'task_status']).orderBy('id').execute();
  assert.equal(comments, [
    { kind: 'status', task_status: 'ready_for_feedback' },
    { kind: 'status', task_status: 'complete' },
  ]);
});

test('late work (after the due day ends anywhere on earth) is time exceeded with a fail grade when graded', async () => {
  const { project, td } = await world({ isGraded: true, targetDate: '2026-03-01' });
  await travelTo(env, people, '2026-03-02T11:59:59Z');
  const onTime = await put('student', project, td, { trigger: 'ready_for_feedback' });
  assert.is(onTime.body.status, 'ready_for_feedback');
  await travelTo(env, people, '2026-03-02T12:00:01Z');
  await put('student', project, td, { trigger: 'working_on_it' });
  const late = await put('student', project, td, { trigger: 'ready_for_feedback' });
  assert.is(late.body.status, 'time_exceeded');
  assert.is(late.body.grade, -1);
});

test('a student cannot assess: the status stays; a restricted definition answers 403', async () => {
  const { project, td } = await world();
  const res = await put('student', project, td, { trigger: 'complete' });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'not_started');
});
test.run();
