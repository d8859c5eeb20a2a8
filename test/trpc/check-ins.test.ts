import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/routers/index.ts';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { typedClient } from '../support/trpc-client.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('tRPC: check-ins through a typed client');
let env: TestEnv;
let people: People;
let baseUrl: string;

test.before(async () => {
  env = await testEnv();
  baseUrl = await listeningBaseUrl(env);
});

freshEachTest(test, (world) => ({ env, people } = world));

const client = (creds: Credentials) => typedClient(baseUrl, creds);

test('a tutor records a check-in, the student reads it and replies, and is FORBIDDEN to record one; the report counts it', async () => {
  const w = await taskWorld(env, people);
  const tutor = client(people.tutor.creds);
  const made = await tutor.projects.engagements.create.mutate({
    project_id: w.project,
    engagement_type: 'attendance',
    note: 'In the workshop',
    occurred_at: new Date('2026-03-02T09:00:00Z'),
    evidence_url: 'https://example.edu/register',
  });
  assert.is(made.author_id, people.tutor.user.id);
  const student = client(people.student.creds);
  const replied = await student.projects.engagements.reply.mutate({ project_id: w.project, id: made.id, comment: 'I was there' });
  assert.equal(
    replied.comments.map((c) => c.comment),
    ['I was there'],
  );
  const listed = await student.projects.engagements.list.query({ project_id: w.project });
  assert.equal(
    listed.map((e) => [e.id, e.evidence_url, e.comments.length]),
    [[made.id, 'https://example.edu/register', 1]],
  );
  try {
    await student.projects.engagements.create.mutate({ project_id: w.project, engagement_type: 'x', note: 'y', occurred_at: new Date('2026-03-02T09:00:00Z') });
    assert.unreachable('a student recorded a check-in');
  } catch (error) {
    assert.instance(error, TRPCClientError);
    assert.is((error as TRPCClientError<AppRouter>).data?.code, 'FORBIDDEN');
  }
  const report = await client(people.convenor.creds).units.engagements.report.query({ unit_id: w.unit });
  assert.is(
    report.tutorials.reduce((n, t) => n + t.total, 0),
    1,
  );
});

test.run();
