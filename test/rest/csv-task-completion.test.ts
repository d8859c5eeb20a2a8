import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'csv-parse/sync';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedGroup, seedMembership, seedStream, seedTask, seedTaskDefinition, seedTutorial, seedTutorialEnrolment } from '../support/seed-enrolments.ts';

const test = suite('REST /api/csv/units/{id}/task_completion (every enrolled student’s tasks)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

test('the columns of the original: students, tutorial per stream, group per set, status/grade/stars/contribution per task; also at .json', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const prac = await seedStream(env, unit, 'prac');
  const p1 = await seedTutorial(env, unit, 'P1', { stream: prac });
  const group = await seedGroup(env, unit, p1, { name: 'Team A' });
  const [{ group_set_id: setId }] = await env.orm.em.fork().execute<{ group_set_id: number }[]>('select group_set_id from groups where id = ?', [group]);
  const credit = await seedTaskDefinition(env, unit, 'C1', { targetGrade: 1, isGraded: true, maxQualityPts: 5 });
  await seedTaskDefinition(env, unit, 'P1T', { groupSet: setId });
  const project = await enrol(env, people.student.user, unit, { targetGrade: 2 });
  await enrol(env, await createUser(env, 'gone', 'Student'), unit, { enrolled: false });
  await seedTutorialEnrolment(env, project, p1);
  await seedMembership(env, group, project);
  const task = await seedTask(env, project, credit, { status: 'complete', grade: 3 });
  await env.orm.em.fork().execute('update tasks set quality_pts = 4 where id = ?', [task]);
  for (const path of [`/api/csv/units/${unit}/task_completion`, `/api/csv/units/${unit}/task_completion.json`]) {
    const res = await api(env, 'GET', path, { as: people.tutor.creds });
    assert.is(res.status, 200);
    assert.match(String(res.headers['content-disposition']), /SIT101-TaskCompletion\.csv/);
    const rows = parse(res.text) as string[][];
    assert.equal(rows[0], [
      'Student ID',
      'Username',
      'Student Name',
      'Target Grade',
      'Email',
      'Portfolio',
      'Grade',
      'Rationale',
      'prac',
      'Set Team A',
      'P1T',
      'P1T contribution',
      'C1',
      'C1 grade',
      'C1 stars',
    ]);
    assert.equal(rows.slice(1), [
      ['', 'astudent', 'Astudent Tester', 'Distinction', 'astudent@example.edu', 'false', '', '', 'P1', 'Team A', 'Not Started', '', 'Complete', 'HD', '4'],
    ]);
  }
  const refused = await api(env, 'GET', `/api/csv/units/${unit}/task_completion`, { as: people.student.creds });
  assert.is(refused.status, 403);
  assert.type(refused.body.error, 'string');
});

test.run();
