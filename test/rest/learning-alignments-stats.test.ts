// GET /api/units/{unit_id}/learning_alignments/class_stats and /class_details against numbers
// worked out by hand from behaviour.md §10.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LearningAlignment, LearningOutcome, Task, TutorialEnrolment } from '../../schema/index.ts';
import type { TaskStatus } from '../../schema/enums.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, signedIn, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { seedStream, seedTaskDefinition, seedTutorial } from '../support/seed-enrolments.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST learning_alignments class_stats and class_details');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const ZERO = { median: 0, lower: 0, upper: 0, min: 0, max: 0 };
const only = (v: number) => ({ median: v, lower: v, upper: v, min: v, max: v });

/**
 * Stream S with tutorials T1, T2, T3 (nobody in it) and TN without a stream. Definitions P1
 * (Pass, S), C1 (Credit, no stream), D1 (Distinction, S) and U1 (Pass, S, aligned to nothing).
 * The unit aligns P1–O1 at 3, C1–O1 at 2, D1–O2 at 1 and C1–O2 at 5; O3 has no alignment.
 */
async function unitWithOutcomes() {
  const unit = await seedUnit(env, { code: 'SIT200' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const stream = await seedStream(env, unit, 'S');
  const t1 = await seedTutorial(env, unit, 'T1', { stream });
  const t2 = await seedTutorial(env, unit, 'T2', { stream });
  const t3 = await seedTutorial(env, unit, 'T3', { stream });
  const tn = await seedTutorial(env, unit, 'TN');
  const p1 = await seedTaskDefinition(env, unit, 'P1', { tutorialStream: stream });
  const c1 = await seedTaskDefinition(env, unit, 'C1', { targetGrade: 1 });
  const d1 = await seedTaskDefinition(env, unit, 'D1', { targetGrade: 2, tutorialStream: stream });
  const u1 = await seedTaskDefinition(env, unit, 'U1', { tutorialStream: stream });
  const em = env.orm.em.fork();
  const [o1, o2, o3] = [1, 2, 3].map((n) => em.create(LearningOutcome, { unit, iloNumber: n, abbreviation: `O${n}`, name: `O${n}`, description: 'd' }));
  await em.flush();
  for (const [definition, outcome, rating] of [
    [p1, o1.id, 3],
    [c1, o1.id, 2],
    [d1, o2.id, 1],
    [c1, o2.id, 5],
  ]) {
    em.create(LearningAlignment, { taskDefinition: definition, learningOutcome: outcome, rating, description: '' });
  }
  await em.flush();
  return { unit, t1, t2, t3, tn, p1, c1, d1, u1, o1: o1.id, o2: o2.id, o3: o3.id };
}

async function student(name: string, unit: number, tutorials: number[], tasks: [number, TaskStatus][], enrolled = true): Promise<number> {
  const user = await createUser(env, name, 'Student');
  const project = await enrol(env, user, unit, { enrolled });
  const em = env.orm.em.fork();
  for (const tutorial of tutorials) em.create(TutorialEnrolment, { project, tutorial });
  for (const [taskDefinition, status] of tasks) em.create(Task, { project, taskDefinition, status });
  await em.flush();
  return project;
}

test('class_stats and class_details: hand-computed scores, tutorials by stream, zeros where there is no data', async () => {
  const u = await unitWithOutcomes();
  // s1: P1 (T1) O1 3 × 1.0 × 1 = 3.0; C1 (TN, no stream) O1 2 × 0.7 × 2 = 2.8, O2 5 × 0.7 × 2 = 7.0;
  //     D1 (T1) O2 1 × 0.8 × 4 = 3.2. Overall O1 5.8, O2 10.2.
  const s1 = await student(
    's1',
    u.unit,
    [u.t1, u.tn],
    [
      [u.p1, 'complete'],
      [u.c1, 'ready_for_feedback'],
      [u.d1, 'discuss'],
      [u.u1, 'complete'],
    ],
  );
  // s2: P1 (T1) O1 3 × 0.3 = 0.9; C1 working_on_it adds 0 (no tutorial without a stream: none).
  await student(
    's2',
    u.unit,
    [u.t1],
    [
      [u.p1, 'fix_and_resubmit'],
      [u.c1, 'working_on_it'],
    ],
  );
  // s3: P1 (T2) O1 3 × 0.1 = 0.3; D1 (T2) O2 1 × 0.5 × 4 = 2.0.
  await student(
    's3',
    u.unit,
    [u.t2],
    [
      [u.p1, 'redo'],
      [u.d1, 'time_exceeded'],
    ],
  );
  // Contribute nothing: no tasks, only unaligned tasks, withdrawn.
  await student('s4', u.unit, [u.t2], []);
  await student('s6', u.unit, [u.t1], [[u.u1, 'complete']]);
  await student('s5', u.unit, [u.t1], [[u.p1, 'complete']], false);
  // A student's own alignment of their task is no alignment of the unit.
  const s1Task = await env.orm.em.fork().findOneOrFail(Task, { project: s1, taskDefinition: u.p1 });
  await api(env, 'POST', `/api/units/${u.unit}/learning_alignments`, {
    as: people.convenor.creds,
    json: { project_id: s1, task_id: s1Task.id, learning_outcome_id: u.o2, task_definition_id: u.p1, rating: 5, description: 'mine' },
  });

  const stats = await api(env, 'GET', `/api/units/${u.unit}/learning_alignments/class_stats`, { as: people.tutor.creds });
  assert.is(stats.status, 200, stats.text);
  const expectedAll = {
    // O1 sorted 0.3, 0.9, 5.8: median index 1, lower ⌊0.9⌋ = 0, upper ⌊2.4⌋ = 2
    [u.o1]: { median: 0.9, lower: 0.3, upper: 5.8, min: 0.3, max: 5.8 },
    // O2 sorted 0, 2.0, 10.2
    [u.o2]: { median: 2, lower: 0, upper: 10.2, min: 0, max: 10.2 },
    [u.o3]: ZERO,
  };
  assert.equal(stats.body, expectedAll);

  const details = await api(env, 'GET', `/api/units/${u.unit}/learning_alignments/class_details`, { as: people.tutor.creds });
  assert.is(details.status, 200, details.text);
  assert.equal(details.body, {
    [u.t1]: {
      // s1 3.0 and s2 0.9: an even count, median (0.9 + 3.0) / 2 = 1.95 → 2.0; lower index 0, upper index 1
      [u.o1]: { median: 2, lower: 0.9, upper: 3, min: 0.9, max: 3 },
      // s1 3.2 and s2 0
      [u.o2]: { median: 1.6, lower: 0, upper: 3.2, min: 0, max: 3.2 },
      [u.o3]: ZERO,
    },
    [u.t2]: { [u.o1]: only(0.3), [u.o2]: only(2), [u.o3]: ZERO },
    [u.t3]: { [u.o1]: ZERO, [u.o2]: ZERO, [u.o3]: ZERO },
    [u.tn]: { [u.o1]: only(2.8), [u.o2]: only(7), [u.o3]: ZERO },
    all: expectedAll,
  });
});

test('a unit without outcomes answers {}; without aligned work every outcome and tutorial is zeros', async () => {
  const bare = await seedUnit(env, { code: 'BARE1' });
  await employ(env, people.tutor.user, bare, 'Tutor');
  assert.equal((await api(env, 'GET', `/api/units/${bare}/learning_alignments/class_stats`, { as: people.tutor.creds })).body, {});
  assert.equal((await api(env, 'GET', `/api/units/${bare}/learning_alignments/class_details`, { as: people.tutor.creds })).body, { all: {} });
  const u = await unitWithOutcomes();
  await student('idle', u.unit, [u.t1], [[u.u1, 'complete']]);
  const none = { [u.o1]: ZERO, [u.o2]: ZERO, [u.o3]: ZERO };
  assert.equal((await api(env, 'GET', `/api/units/${u.unit}/learning_alignments/class_stats`, { as: people.tutor.creds })).body, none);
  assert.equal((await api(env, 'GET', `/api/units/${u.unit}/learning_alignments/class_details`, { as: people.tutor.creds })).body, {
    [u.t1]: none,
    [u.t2]: none,
    [u.t3]: none,
    [u.tn]: none,
    all: none,
  });
});

test('class_stats: anyone in the unit; class_details: its tutors and convenors only; others 403', async () => {
  const u = await unitWithOutcomes();
  await enrol(env, people.student.user, u.unit);
  const outsider = await signedIn(env, 'otutor', 'Tutor');
  await employ(env, outsider.user, await seedUnit(env, { code: 'SIT999' }), 'Convenor');
  const refused = { error: 'You are not authorised to access these task alignments.' };
  const get = (path: string, who: { creds: { username: string; token: string } }) =>
    api(env, 'GET', `/api/units/${u.unit}/learning_alignments/${path}`, { as: who.creds });
  for (const who of [people.student, people.tutor, people.convenor, people.admin]) assert.is((await get('class_stats', who)).status, 200, who.creds.username);
  for (const who of [people.tutor, people.convenor]) assert.is((await get('class_details', who)).status, 200, who.creds.username);
  // An Admin off the staff manages the unit but does not mark in it (provide_feedback).
  for (const who of [people.student, people.admin, outsider])
    assert.equal([(await get('class_details', who)).status, (await get('class_details', who)).body], [403, refused]);
  assert.equal([(await get('class_stats', outsider)).status, (await get('class_stats', outsider)).body], [403, refused]);
  assert.is((await api(env, 'GET', '/api/units/9999/learning_alignments/class_details', { as: people.admin.creds })).status, 404);
});

test('each read issues the same number of SQL statements for 2 and for 40 students', async () => {
  const u = await unitWithOutcomes();
  const statuses: TaskStatus[] = ['complete', 'discuss', 'redo', 'ready_for_feedback'];
  const addStudents = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      await student(
        `many${i}`,
        u.unit,
        [i % 2 ? u.t1 : u.t2, u.tn],
        [
          [u.p1, statuses[i % 4]],
          [u.c1, statuses[(i + 1) % 4]],
          [u.d1, statuses[(i + 2) % 4]],
        ],
      );
    }
  };
  const count = (path: string) => countStatements(() => api(env, 'GET', `/api/units/${u.unit}/learning_alignments/${path}`, { as: people.tutor.creds }));
  await addStudents(0, 2);
  await count('class_stats'); // the first request also verifies the token, which is then cached
  const few = [await count('class_stats'), await count('class_details')];
  await addStudents(2, 40);
  const many = [await count('class_stats'), await count('class_details')];
  assert.equal(many, few);
});

test.run();
