// The similarity operations on document similarities (the similarity-check service's), beside the
// code similarities of similarities.test.ts: the same shapes, the PDF report as part 0, no viewer
// before the report is ready.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Readable } from 'node:stream';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { samplePdf } from '../support/sample-files.ts';
import { seedTask } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('REST /api/tasks/{task_id}/similarities: document similarities');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function documentSimilarity(reportPath: string | null) {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td, { status: 'ready_for_feedback' });
  const k = db(env.orm.em.fork());
  const { id } = await k
    .insertInto('task_similarities')
    .values({ task_id: task, kind: 'simcheck', pct: 42, flagged: true, report_path: reportPath, created_at: env.clock.now().toISOString() } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return { w, task, id };
}

test('listed as TiiTaskSimilarity with one PDF part; the report downloads as part 0, no part 1', async () => {
  const key = 'similarity/report-test.pdf';
  const pdf = samplePdf('Similarity report');
  await env.services.storage.put(key, Readable.from([pdf]));
  const { task, id } = await documentSimilarity(key);
  const res = await api(env, 'GET', `/api/tasks/${task}/similarities`, { as: people.tutor.creds });
  assert.is(res.status, 200);
  assert.equal(res.body, [
    {
      id,
      task_id: task,
      flagged: true,
      similarity_details: { type: 'TiiTaskSimilarity', pct: 42 },
      type: 'TiiTaskSimilarity',
      pct: 42,
      ready_for_viewer: false,
      parts: [{ idx: 0, format: 'pdf', description: `${people.student.user.firstName} ${people.student.user.lastName} (astudent) - 42%` }],
    },
  ]);
  const report = await env.app.inject({
    method: 'GET',
    url: `/api/tasks/${task}/similarities/${id}/contents/0`,
    headers: { Username: 'atutor', 'Auth-Token': people.tutor.creds.token },
  });
  assert.is(report.statusCode, 200);
  assert.is(report.headers['content-type'], 'application/pdf');
  assert.equal(Buffer.compare(report.rawPayload, pdf), 0);
  const beyond = await api(env, 'GET', `/api/tasks/${task}/similarities/${id}/contents/1`, { as: people.tutor.creds });
  assert.equal([beyond.status, beyond.body], [404, { error: 'No details to download for this similarity' }]);
});

test('without a report: no PDF part, contents 404, and the viewer is not ready (404)', async () => {
  const { task, id } = await documentSimilarity(null);
  const listed = await api(env, 'GET', `/api/tasks/${task}/similarities`, { as: people.tutor.creds });
  assert.equal(listed.body[0].parts[0].format, null);
  const contents = await api(env, 'GET', `/api/tasks/${task}/similarities/${id}/contents/0`, { as: people.tutor.creds });
  assert.equal([contents.status, contents.body], [404, { error: 'No details to download for this similarity' }]);
  const viewer = await api(env, 'GET', `/api/tasks/${task}/similarities/${id}/viewer_url`, { as: people.tutor.creds });
  assert.equal([viewer.status, viewer.body], [404, { error: 'Similarity report is not yet ready to be viewed for this submission' }]);
});

test.run();
