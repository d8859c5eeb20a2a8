// PUT .../overseer_assessment/{oa_id}/trigger and POST .../task_definitions/{td}/test_overseer_assessment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { startFakeDocker, type FakeDockerEngine } from '../support/fake-docker.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { assessmentComments, assessments, overseerWorld, queued, uploadProgram } from '../support/overseer-world.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST automated assessment operations');
let env: TestEnv;
let people: People;
let engine: FakeDockerEngine;
let savedHost: string | undefined;

test.before(async () => {
  engine = await startFakeDocker();
});
test.after(async () => {
  await engine.close();
});
freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(() => {
  savedHost = env.config.docker.host;
  env.config.docker.host = engine.host;
  engine.containersDo(() => ({ kind: 'exit', code: 0, yaml: 'run_message: ok\n' }));
});
test.after.each(() => {
  env.config.docker.host = savedHost;
});

const triggerUrl = (project: number, td: number, oa: number) => `/api/projects/${project}/task_def_id/${td}/overseer_assessment/${oa}/trigger`;

async function assessedOnce() {
  const world = await overseerWorld(env, people, 'course/overseer:1');
  assert.is((await uploadProgram(env, people, world, 'print(1)\n')).status, 201);
  await runJobs(env);
  const [record] = await assessments(env);
  assert.is(record.status, 'done');
  return { world, record };
}

test('trigger: the student runs a done assessment again; it is queued with a started comment and runs', async () => {
  const { world, record } = await assessedOnce();
  const res = await api(env, 'PUT', triggerUrl(world.project, world.td, record.id), { as: people.student.creds });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { message: 'Automated assessment queued' });
  assert.is((await assessments(env))[0].status, 'queued');
  assert.is((await queued(env, 'run_overseer_assessment')).length, 1);
  assert.equal(
    (await assessmentComments(env)).map((c) => c.comment),
    ['Automated Assessment Started', 'ok', 'Automated Assessment Started'],
  );
  engine.created.length = 0;
  await runJobs(env);
  assert.is(engine.created.length, 2);
  assert.is((await assessments(env))[0].status, 'done');
});

test('trigger: 403 while queued, 404 for another task or an unknown id, 403 with overseer off or the resources gone', async () => {
  const { world, record } = await assessedOnce();
  const url = triggerUrl(world.project, world.td, record.id);
  assert.is((await api(env, 'PUT', url, { as: people.tutor.creds })).status, 200);
  const again = await api(env, 'PUT', url, { as: people.student.creds });
  assert.is(again.status, 403);
  assert.match(again.body.error, /already queued/);
  await runJobs(env);
  assert.is((await api(env, 'PUT', triggerUrl(world.project, world.td, record.id + 100), { as: people.student.creds })).status, 404);
  assert.is((await api(env, 'PUT', triggerUrl(world.project, world.td, 99_999_999_999), { as: people.student.creds })).status, 404);

  env.config.overseerEnabled = false;
  const off = await api(env, 'PUT', url, { as: people.student.creds });
  assert.equal([off.status, off.body], [403, { error: 'Overseer is not enabled' }]);
  env.config.overseerEnabled = true;
  await env.services.storage.delete(storageKeys.taskAssessmentResources(world.td));
  const gone = await api(env, 'PUT', url, { as: people.student.creds });
  assert.equal([gone.status, gone.body], [403, { error: 'This task has no assessment resources' }]);
});

const testUrl = (unit: number, td: number) => `/api/units/${unit}/task_definitions/${td}/test_overseer_assessment`;
const file0 = { file0: { filename: 'main.py', contentType: 'text/x-python', data: Buffer.from('print(42)\n') } };

test('test_overseer_assessment: the convenor gets a project of their own, the files are submitted and assessed', async () => {
  const world = await overseerWorld(env, people, 'course/overseer:1');
  const res = await api(env, 'POST', testUrl(world.unit, world.td), { as: people.convenor.creds, multipart: file0 });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.status, 'ready_for_feedback');
  const project = await db(env.orm.em.fork())
    .selectFrom('projects')
    .select(['id', 'enrolled'])
    .where('user_id', '=', people.convenor.user.id)
    .where('unit_id', '=', world.unit)
    .executeTakeFirstOrThrow();
  assert.is(res.body.project_id, project.id);
  const [record] = await assessments(env);
  assert.is(record.status, 'queued');
  await runJobs(env);
  assert.is((await assessments(env))[0].status, 'done');

  // A second try reuses the project.
  assert.is((await api(env, 'POST', testUrl(world.unit, world.td), { as: people.convenor.creds, multipart: file0 })).status, 200);
  const projects = await db(env.orm.em.fork()).selectFrom('projects').select('id').where('user_id', '=', people.convenor.user.id).execute();
  assert.is(projects.length, 1);
});

test('test_overseer_assessment: off answers the reference status; tutors are refused; a definition not set up is 403', async () => {
  const world = await overseerWorld(env, people, 'course/overseer:1');
  env.config.overseerEnabled = false;
  const off = await api(env, 'POST', testUrl(world.unit, world.td), { as: people.convenor.creds, multipart: file0 });
  assert.equal([off.status, off.body], [200, { status: 'Overseer is not enabled' }]);
  env.config.overseerEnabled = true;
  assert.is((await api(env, 'POST', testUrl(world.unit, world.td), { as: people.tutor.creds, multipart: file0 })).status, 403);
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ assessment_enabled: false }).execute();
  const notSet = await api(env, 'POST', testUrl(world.unit, world.td), { as: people.convenor.creds, multipart: file0 });
  assert.equal([notSet.status, notSet.body], [403, { error: 'Automated assessment is not enabled for this task' }]);
  assert.equal(await assessments(env), []);
});

test.run();
