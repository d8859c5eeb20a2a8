// The unit's analytics (three stats reads) and its grades CSV.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ActivityType, Project, Task, TaskDefinition, Tutorial, TutorialEnrolment, TutorialStream } from '../../schema/index.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import { statistic } from '../../src/domain/statistics.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('units: stats and grades');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const ZERO = { median: 0, lower: 0, upper: 0, min: 0, max: 0 };

/** A unit with one stream, two tutorials in it, and definitions of target grade 0 and 2. */
async function analyticsUnit() {
  const unit = await seedUnit(env, { code: 'SIT200' });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const em = env.orm.em.fork();
  const type = em.create(ActivityType, { name: 'Workshop', abbreviation: 'wrk' });
  const stream = em.create(TutorialStream, { unit, activityType: type, name: 'Workshop 1', abbreviation: 'wrk 1' });
  const base = { unit, meetingDay: 'Monday', meetingTime: '9:00', meetingLocation: 'A1', capacity: -1 };
  const t1 = em.create(Tutorial, { ...base, tutorialStream: stream, abbreviation: 'W01' });
  const t2 = em.create(Tutorial, { ...base, tutorialStream: stream, abbreviation: 'W02' });
  const dates = { startDate: '2026-03-02', targetDate: '2026-03-13', description: '' };
  const pass = em.create(TaskDefinition, {
    plagiarismChecks: [],
    uploadRequirements: [],
    ...dates,
    unit,
    name: 'Pass task',
    abbreviation: 'P1',
    targetGrade: 0,
    tutorialStream: stream,
  });
  const credit = em.create(TaskDefinition, {
    plagiarismChecks: [],
    uploadRequirements: [],
    ...dates,
    unit,
    name: 'Credit task',
    abbreviation: 'C1',
    targetGrade: 1,
  });
  await em.flush();
  return { unit, stream: stream.id, t1: t1.id, t2: t2.id, pass: pass.id, credit: credit.id };
}

async function student(name: string, unit: number, targetGrade: number, tutorial: number | null, tasks: [number, TaskStatus][]) {
  const user = await createUser(env, name, 'Student');
  const project = await enrol(env, user, unit, { targetGrade });
  const em = env.orm.em.fork();
  if (tutorial) em.create(TutorialEnrolment, { project, tutorial });
  for (const [taskDefinition, status] of tasks) em.create(Task, { project, taskDefinition, status });
  await em.flush();
  return project;
}

test('with nothing in the unit yet, each stats read answers its shape', async () => {
  const unit = await seedUnit(env, { code: 'EMPTY' });
  await employ(env, people.convenor.user, unit, 'Convenor');
  const get = (path: string) => api(env, 'GET', `/api/units/${unit}/stats/${path}`, { as: people.convenor.creds });
  assert.equal([(await get('task_status_pct')).status, (await get('task_status_pct')).body], [200, {}]);
  assert.equal((await get('student_target_grade')).body, []);
  assert.equal((await get('task_completion_stats')).body, { unit: ZERO, tutorial: {}, grade: { 0: ZERO, 1: ZERO, 2: ZERO, 3: ZERO } });
});

test('task_status_pct counts started tasks per definition and tutorial, plus the students who have not started', async () => {
  const u = await analyticsUnit();
  await student('s1', u.unit, 0, u.t1, [[u.pass, 'complete']]);
  await student('s2', u.unit, 1, u.t1, [
    [u.pass, 'ready_for_feedback'],
    [u.credit, 'working_on_it'],
  ]);
  await student('s3', u.unit, 0, u.t1, []);
  await student('s4', u.unit, 2, null, [[u.pass, 'complete']]);
  await student('s5', u.unit, 0, u.t2, [[u.pass, 'not_started']]);
  const res = await api(env, 'GET', `/api/units/${u.unit}/stats/task_status_pct`, { as: people.tutor.creds });
  assert.is(res.status, 200);
  const s = u.stream;
  assert.equal(res.body, {
    [u.pass]: {
      [u.t1]: [
        { tutorial_stream_id: s, status: 'complete', num: 1 },
        { tutorial_stream_id: s, status: 'ready_for_feedback', num: 1 },
        { tutorial_stream_id: s, status: 'not_started', num: 1 },
      ],
      [u.t2]: [{ tutorial_stream_id: s, status: 'not_started', num: 1 }],
      '': [{ tutorial_stream_id: null, status: 'complete', num: 1 }],
    },
    // The credit task has no stream: only stream-less tutorials would count, so everyone is in "".
    [u.credit]: {
      '': [
        { tutorial_stream_id: null, status: 'working_on_it', num: 1 },
        { tutorial_stream_id: null, status: 'not_started', num: 1 },
      ],
    },
  });
});

test('student_target_grade counts enrolled students per tutorial and grade; task_completion_stats summarises complete tasks', async () => {
  const u = await analyticsUnit();
  await student('s1', u.unit, 0, u.t1, [
    [u.pass, 'complete'],
    [u.credit, 'complete'],
  ]);
  await student('s2', u.unit, 0, u.t1, [[u.pass, 'complete']]);
  await student('s3', u.unit, 1, u.t2, [[u.pass, 'discuss']]);
  await student('s4', u.unit, 1, null, [[u.credit, 'complete']]);
  const gone = await student('s5', u.unit, 3, u.t2, [[u.pass, 'complete']]);
  await env.orm.em.fork().nativeUpdate(Project, { id: gone }, { enrolled: false });

  const grades = await api(env, 'GET', `/api/units/${u.unit}/stats/student_target_grade`, { as: people.tutor.creds });
  assert.equal(grades.body, [
    { tutorial_id: u.t1, tutorial_stream_id: u.stream, grade: 0, num: 2 },
    { tutorial_id: u.t2, tutorial_stream_id: u.stream, grade: 1, num: 1 },
    { tutorial_id: null, tutorial_stream_id: null, grade: 1, num: 1 },
  ]);

  const stats = await api(env, 'GET', `/api/units/${u.unit}/stats/task_completion_stats`, { as: people.admin.creds });
  assert.equal(stats.body, {
    unit: statistic([2, 1, 1]),
    tutorial: { [u.t1]: statistic([2, 1]), [u.t2]: ZERO },
    grade: { 0: statistic([2, 1]), 1: statistic([1]), 2: ZERO, 3: ZERO },
  });
  assert.equal(statistic([2, 1]), { median: 1.5, lower: 1, upper: 2, min: 1, max: 2 });
});

test('stats are refused to students and convenors of other units; unknown units are 404; the query count does not grow with students', async () => {
  const u = await analyticsUnit();
  await enrol(env, people.student.user, u.unit);
  for (const path of ['task_status_pct', 'student_target_grade', 'task_completion_stats']) {
    for (const who of [people.student, people.convenor]) {
      const res = await api(env, 'GET', `/api/units/${u.unit}/stats/${path}`, { as: who.creds });
      assert.equal([res.status, res.body], [403, { error: 'Not authorised to download stats of student tasks in SIT200' }], path);
    }
    assert.is((await api(env, 'GET', `/api/units/999/stats/${path}`, { as: people.admin.creds })).status, 404);
    assert.is((await api(env, 'GET', `/api/units/x/stats/${path}`, { as: people.admin.creds })).status, 400);
  }
  const count = () => countStatements(() => api(env, 'GET', `/api/units/${u.unit}/stats/task_status_pct`, { as: people.tutor.creds }));
  await count(); // the first request also verifies the token, which is then cached
  const few = await count();
  for (let i = 0; i < 5; i++) await student(`many${i}`, u.unit, 0, u.t1, [[u.pass, 'complete']]);
  assert.is(await count(), few);
});

test('GET /api/units/{id}/grades: a CSV of enrolled students graded above 0', async () => {
  const unit = await seedUnit(env, { code: 'SIT300' });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const graded = await createUser(env, 'graded', 'Student', { studentId: '1234' });
  const ungraded = await createUser(env, 'ungraded', 'Student');
  const withdrawn = await createUser(env, 'withdrawn', 'Student');
  const em = env.orm.em.fork();
  const p1 = await enrol(env, graded, unit);
  await enrol(env, ungraded, unit);
  const p3 = await enrol(env, withdrawn, unit, { enrolled: false });
  await em.nativeUpdate(Project, { id: p1 }, { grade: 2, gradeRationale: 'Solid, work' });
  await em.nativeUpdate(Project, { id: p3 }, { grade: 3 });
  const res = await api(env, 'GET', `/api/units/${unit}/grades`, { as: people.tutor.creds });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-disposition']), /attachment; filename="?SIT300-Students\.csv"?/);
  assert.is(res.text, 'unit_code,username,student_id,grade,rationale\r\nSIT300,graded,1234,2,"Solid, work"\r\n');
  const refused = await api(env, 'GET', `/api/units/${unit}/grades`, { as: people.student.creds });
  assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to download grades for this unit' }]);
  assert.is((await api(env, 'GET', '/api/units/999/grades', { as: people.tutor.creds })).status, 404);
});

test.run();
