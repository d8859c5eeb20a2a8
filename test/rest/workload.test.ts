import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { signedIn, travelTo, type Actor, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol } from '../support/seed.ts';
import { seedEnrolmentIn, seedTutorialRow } from '../support/seed-tutorials.ts';
import { taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('REST GET /api/units/{unit_id}/workload');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

type Row = Record<string, unknown> & { user_id: number };

const workload = (who: Actor, unit: number, query = '') => api(env, 'GET', `/api/units/${unit}/workload${query}`, { as: who.creds });
const put = (who: Actor, project: number, td: number, json: Record<string, unknown>) =>
  api(env, 'PUT', `/api/projects/${project}/task_def_id/${td}`, { as: who.creds, json });

/**
 * The task world (the tutor takes tutorial T1 with the student), plus a second tutor with their own
 * tutorial and student, and a student in no tutorial. Everyone hands P1 in at 09:00 on Monday
 * 2 March; the tutor marks their student's complete at 11:00.
 */
async function markingDay(): Promise<{ w: TaskWorld; second: Actor }> {
  await travelTo(env, people, '2026-03-02T09:00:00Z');
  const w = await taskWorld(env, people);
  const second = await signedIn(env, 'btutor', 'Tutor');
  const secondRole = await employ(env, second.user, w.unit, 'Tutor');
  const t2 = await seedTutorialRow(env, w.unit, 'T2', { tutor: secondRole });
  const secondStudent = await signedIn(env, 'bstudent', 'Student');
  const p2 = await enrol(env, secondStudent.user, w.unit);
  await seedEnrolmentIn(env, p2, t2);
  const loner = await signedIn(env, 'cstudent', 'Student');
  const p3 = await enrol(env, loner.user, w.unit);
  for (const [who, project] of [
    [people.student, w.project],
    [secondStudent, p2],
    [loner, p3],
  ] as const) {
    const res = await put(who, project, w.td, { trigger: 'rff' });
    assert.is(res.status, 200, res.text);
  }
  await travelTo(env, people, '2026-03-02T11:00:00Z');
  const marked = await put(people.tutor, w.project, w.td, { trigger: 'complete', grade: null, quality_pts: -1 });
  assert.is(marked.status, 200, marked.text);
  return { w, second };
}

const figures = (row: Record<string, unknown>) => ({
  awaiting_feedback: row.awaiting_feedback,
  oldest_waiting_seconds: row.oldest_waiting_seconds,
  median_feedback_seconds_7d: row.median_feedback_seconds_7d,
  feedbacks_7d: row.feedbacks_7d,
  median_feedback_seconds_28d: row.median_feedback_seconds_28d,
  feedbacks_28d: row.feedbacks_28d,
  assessed_this_week: row.assessed_this_week,
  open_escalations: row.open_escalations,
});

test('the convenor sees every tutor, the unassigned tasks and each definition; the counts agree with the inbox', async () => {
  const { w, second } = await markingDay();
  const res = await workload(people.convenor, w.unit);
  assert.is(res.status, 200, res.text);
  assert.is(res.body.week_start, '2026-03-02');
  const byUser = new Map((res.body.tutors as Row[]).map((r) => [r.user_id, r]));
  assert.equal([...byUser.keys()].sort(), [people.convenor.user.id, people.tutor.user.id, second.user.id].sort());
  assert.equal(figures(byUser.get(people.tutor.user.id)!), {
    awaiting_feedback: 0,
    oldest_waiting_seconds: null,
    median_feedback_seconds_7d: 7200,
    feedbacks_7d: 1,
    median_feedback_seconds_28d: 7200,
    feedbacks_28d: 1,
    assessed_this_week: 1,
    open_escalations: 0,
  });
  assert.equal(figures(byUser.get(second.user.id)!), {
    awaiting_feedback: 1,
    oldest_waiting_seconds: 7200,
    median_feedback_seconds_7d: null,
    feedbacks_7d: 0,
    median_feedback_seconds_28d: null,
    feedbacks_28d: 0,
    assessed_this_week: 0,
    open_escalations: 0,
  });
  assert.is(res.body.unassigned.awaiting_feedback, 1);
  assert.is(res.body.unassigned.oldest_waiting_seconds, 7200);
  assert.equal(res.body.task_definitions, [
    {
      task_definition_id: w.td,
      abbreviation: 'P1',
      name: 'Task P1',
      awaiting_feedback: 2,
      oldest_waiting_seconds: 7200,
      median_feedback_seconds_28d: 7200,
      feedbacks_28d: 1,
      assessed_this_week: 1,
    },
  ]);
  // The inbox's waiting-on-staff tasks are exactly those the dashboard counts (tutors plus unassigned).
  const inbox = await api(env, 'GET', `/api/units/${w.unit}/tasks/inbox`, { as: people.convenor.creds });
  const waiting = (inbox.body as { status: string }[]).filter((t) => t.status === 'ready_for_feedback' || t.status === 'need_help').length;
  const counted = (res.body.tutors as Row[]).reduce((n, r) => n + (r.awaiting_feedback as number), 0) + res.body.unassigned.awaiting_feedback;
  assert.is(counted, waiting);
  assert.is(waiting, 2);
});

test("an open escalation of a tutor's student counts for that tutor until the convenor resolves it", async () => {
  const { w, second } = await markingDay();
  const escalationOf = async () => ((await workload(people.convenor, w.unit)).body.tutors as Row[]).find((r) => r.user_id === second.user.id)!.open_escalations;
  const secondProject = (
    await env.orm.em.fork().execute<{ id: number }[]>("select p.id from projects p join users u on u.id = p.user_id where u.username = 'bstudent'")
  )[0].id;
  const raised = await api(env, 'POST', `/api/projects/${secondProject}/task_def_id/${w.td}/escalations`, {
    // Any staff member may escalate; the count goes to the student's tutor.
    as: people.tutor.creds,
    json: { reason: 'Possible plagiarism: please look' },
  });
  assert.is(raised.status, 201, raised.text);
  assert.is(await escalationOf(), 1);
  const resolved = await api(env, 'PUT', `/api/projects/${secondProject}/task_def_id/${w.td}/escalations/${raised.body.id}`, {
    as: people.convenor.creds,
    json: { note: 'Checked: own work' },
  });
  assert.ok(resolved.status < 300, resolved.text);
  assert.is(await escalationOf(), 0);
});

test('a tutor sees only their own row; the windows and the week move with the clock and the query', async () => {
  const { w, second } = await markingDay();
  const own = await workload(people.tutor, w.unit);
  assert.is(own.status, 200, own.text);
  assert.equal(
    (own.body.tutors as Row[]).map((r) => r.user_id),
    [people.tutor.user.id],
  );
  assert.is(own.body.unassigned, null);
  assert.is(own.body.task_definitions, null);
  assert.is((await workload(people.tutor, w.unit, `?tutor_id=${people.tutor.user.id}`)).status, 200);
  const other = await workload(people.tutor, w.unit, `?tutor_id=${second.user.id}`);
  assert.is(other.status, 403, other.text);
  assert.equal(Object.keys(other.body), ['error']);

  // Ten days on: the 2-hour feedback has left the 7-day window but not the 28-day one; the week is a new one.
  await travelTo(env, people, '2026-03-12T11:00:00Z');
  const later = await workload(people.tutor, w.unit);
  assert.is(later.body.week_start, '2026-03-09');
  assert.equal(
    [later.body.tutors[0].feedbacks_7d, later.body.tutors[0].median_feedback_seconds_7d, later.body.tutors[0].median_feedback_seconds_28d],
    [0, null, 7200],
  );
  assert.is(later.body.tutors[0].assessed_this_week, 0);
  const back = await workload(people.tutor, w.unit, '?week_start=2026-03-02');
  assert.is(back.body.tutors[0].assessed_this_week, 1);
});

test('role rules and bad input: student 403, admin all, unknown unit 404, bad query 400, unknown tutor 404', async () => {
  const { w, second } = await markingDay();
  const student = await workload(people.student, w.unit);
  assert.is(student.status, 403, student.text);
  assert.equal(Object.keys(student.body), ['error']);
  const admin = await workload(people.admin, w.unit);
  assert.is(admin.status, 200, admin.text);
  assert.is((admin.body.tutors as Row[]).length, 3);
  assert.ok(Array.isArray(admin.body.task_definitions));
  const one = await workload(people.convenor, w.unit, `?tutor_id=${second.user.id}`);
  assert.equal(
    (one.body.tutors as Row[]).map((r) => r.user_id),
    [second.user.id],
  );
  assert.is((await workload(people.convenor, 999999)).status, 404);
  for (const query of ['?week_start=yesterday', '?week_start=2026-02-30', '?tutor_id=abc', '?tutor_id=-1']) {
    const res = await workload(people.convenor, w.unit, query);
    assert.is(res.status, 400, `${query}: ${res.text}`);
    assert.equal(Object.keys(res.body), ['error']);
  }
  const nobody = await workload(people.convenor, w.unit, `?tutor_id=${people.student.user.id}`);
  assert.is(nobody.status, 404, nobody.text);
});

test.run();
