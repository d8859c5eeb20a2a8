import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { appRouter } from '../../src/routers/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';
import {
  seedGroup,
  seedMembership,
  seedSimilarity,
  seedTask,
  seedTaskAlignment,
  seedTaskDefinition,
  seedTutorial,
  seedTutorialEnrolment,
} from '../support/seed-enrolments.ts';

const test = suite('REST GET /api/projects/{id}');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101', endDate: '2026-06-01' });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const campus = await seedCampus(env);
  const project = await enrol(env, people.student.user, unit, { campus, targetGrade: 1 });
  const tutorial = await seedTutorial(env, unit, 'LA1');
  await seedTutorialEnrolment(env, project, tutorial);
  const td1 = await seedTaskDefinition(env, unit, '1.1P', { targetDate: '2026-03-16' });
  const td2 = await seedTaskDefinition(env, unit, '1.2P', { targetDate: '2026-05-25', dueDate: '2026-05-29' });
  await seedTaskDefinition(env, unit, '1.3P');
  const t1 = await seedTask(env, project, td1, { status: 'complete', extensions: 1, grade: 2, submissionDate: new Date('2026-03-10T04:00:00Z') });
  const t2 = await seedTask(env, project, td2, { status: 'ready_for_feedback', extensions: 2 });
  await seedSimilarity(env, t2, true);
  const group = await seedGroup(env, unit, tutorial);
  await seedMembership(env, group, project);
  const alignment = await seedTaskAlignment(env, unit, td1, t1);
  return { unit, campus, project, tutorial, td1, td2, t1, t2, group, alignment };
}

test('its student gets the exact keys the web client reads, with tasks, enrolments, groups and alignments', async () => {
  const w = await world();
  const res = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.student.creds });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body), [
    'id',
    'campus_id',
    'user_id',
    'unit',
    'unit_id',
    'target_grade',
    'submitted_grade',
    'portfolio_files',
    'compile_portfolio',
    'portfolio_available',
    'uses_draft_learning_summary',
    'tasks',
    'tutorial_enrolments',
    'groups',
    'task_outcome_alignments',
  ]);
  assert.is(res.body.id, w.project);
  assert.is(res.body.campus_id, w.campus);
  assert.is(res.body.user_id, people.student.user.id);
  assert.is(res.body.unit_id, w.unit);
  assert.equal(res.body.unit, {
    code: 'SIT101',
    id: w.unit,
    name: 'Unit SIT101',
    my_role: 'Student',
    start_date: '2026-03-02',
    end_date: '2026-06-01',
    active: true,
  });
  assert.is(res.body.target_grade, 1);
  assert.equal(res.body.portfolio_files, []);
  assert.equal(res.body.tasks, [
    {
      id: w.t1,
      task_definition_id: w.td1,
      status: 'complete',
      due_date: '2026-03-23',
      submission_date: '2026-03-10T04:00:00.000Z',
      extensions: 1,
      scorm_extensions: 0,
      times_assessed: 0,
      grade: 2,
      quality_pts: -1,
      include_in_portfolio: true,
      similarity_flag: false,
      num_new_comments: 0,
      locked: false,
      prerequisites_unmet: [],
    },
    // Two weeks past the target would pass the deadline: due on the deadline.
    {
      id: w.t2,
      task_definition_id: w.td2,
      status: 'ready_for_feedback',
      due_date: '2026-05-29',
      extensions: 2,
      scorm_extensions: 0,
      times_assessed: 0,
      quality_pts: -1,
      include_in_portfolio: true,
      similarity_flag: false,
      num_new_comments: 0,
      locked: false,
      prerequisites_unmet: [],
    },
  ]);
  assert.equal(res.body.tutorial_enrolments, [{ project_id: w.project, tutorial_id: w.tutorial }]);
  assert.equal(res.body.groups, [
    { id: w.group, name: 'G', tutorial_id: w.tutorial, group_set_id: res.body.groups[0].group_set_id, student_count: 1, capacity_adjustment: 0, locked: false },
  ]);
  assert.equal(res.body.task_outcome_alignments, [
    {
      id: w.alignment,
      description: 'mine',
      rating: 3,
      learning_outcome_id: res.body.task_outcome_alignments[0].learning_outcome_id,
      task_definition_id: w.td1,
      task_id: w.t1,
    },
  ]);
});

test('its tutor sees the similarity flag and their own role; the tRPC caller answers the same', async () => {
  const w = await world();
  const res = await api(env, 'GET', `/api/projects/${w.project}`, { as: people.tutor.creds });
  assert.is(res.status, 200);
  assert.is(res.body.unit.my_role, 'Tutor');
  assert.equal(
    res.body.tasks.map((t: { similarity_flag: boolean }) => t.similarity_flag),
    [false, true],
  );
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.tutor.creds));
  const viaTrpc = await caller.projects.get({ id: w.project });
  assert.equal(JSON.parse(JSON.stringify(viaTrpc)), res.body);
});

test('other students, staff of other units and admins who are not staff get 403; unknown ids 404; bad ids 400', async () => {
  const w = await world();
  const other = await seedUnit(env, { code: 'OTH101' });
  await employ(env, people.convenor.user, other, 'Convenor');
  for (const who of [people.convenor, people.admin]) {
    const res = await api(env, 'GET', `/api/projects/${w.project}`, { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: `Couldn't find Project with id=${w.project}` }], who.creds.username);
  }
  const unknown = await api(env, 'GET', '/api/projects/9999', { as: people.student.creds });
  assert.equal([unknown.status, unknown.body], [404, { error: 'Unable to find requested Project' }]);
  assert.is((await api(env, 'GET', '/api/projects/abc', { as: people.student.creds })).status, 400);
  assert.is((await api(env, 'GET', `/api/projects/${w.project}`)).status, 419);
});

test('the same number of statements with one task or many', async () => {
  const w = await world();
  const read = () => api(env, 'GET', `/api/projects/${w.project}`, { as: people.tutor.creds });
  await read(); // the session is then cached, as it is for a client's every later request
  const few = await countStatements(read);
  for (let i = 0; i < 8; i++) await seedTask(env, w.project, await seedTaskDefinition(env, w.unit, `X${i}`), { status: 'working_on_it' });
  const many = await countStatements(async () => assert.is((await read()).body.tasks.length, 10));
  assert.is(many, few);
});

test.run();
