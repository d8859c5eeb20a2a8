import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'csv-parse/sync';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition, seedTutorial, seedTutorialEnrolment } from '../support/seed-enrolments.ts';

const test = suite('REST /api/csv/units/{id}/tutor_assessments (tasks assessed per tutor)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

test("the unit's staff download the sum of assessments per tutorial tutor, also at .json", async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const tutorial = await seedTutorial(env, unit, 'P1');
  await env.orm.em.fork().execute('update tutorials set tutor_id = ? where id = ?', [tutorRole, tutorial]);
  const td1 = await seedTaskDefinition(env, unit, 'T1');
  const td2 = await seedTaskDefinition(env, unit, 'T2');
  const project = await enrol(env, people.student.user, unit);
  const other = await enrol(env, await createUser(env, 'bstudent', 'Student'), unit);
  await seedTutorialEnrolment(env, project, tutorial);
  await seedTutorialEnrolment(env, other, tutorial);
  for (const [p, td, n] of [
    [project, td1, 2],
    [project, td2, 1],
    [other, td1, 3],
  ] as const) {
    const task = await seedTask(env, p, td);
    await env.orm.em.fork().execute('update tasks set times_assessed = ? where id = ?', [n, task]);
  }
  for (const path of [`/api/csv/units/${unit}/tutor_assessments`, `/api/csv/units/${unit}/tutor_assessments.json`]) {
    const res = await api(env, 'GET', path, { as: people.tutor.creds });
    assert.is(res.status, 200);
    assert.match(String(res.headers['content-disposition']), /SIT101-TutorAssessments\.csv/);
    assert.equal(parse(res.text), [
      ['Username', 'Tutor Name', 'Total Tasks Assessed'],
      ['atutor', 'Atutor Tester', '6'],
    ]);
  }
  const refused = await api(env, 'GET', `/api/csv/units/${unit}/tutor_assessments`, { as: people.student.creds });
  assert.is(refused.status, 403);
  assert.type(refused.body.error, 'string');
});

test.run();
