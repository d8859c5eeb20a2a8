import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/routers/index.ts';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { typedClient } from '../support/trpc-client.ts';
import { freshEachTest } from '../support/suite.ts';
import { seedTask } from '../support/seed-enrolments.ts';
import { taskWorld } from '../support/task-world.ts';

const test = suite('tRPC: staff notes and escalations through a typed client');
let env: TestEnv;
let people: People;
let baseUrl: string;

test.before(async () => {
  env = await testEnv();
  baseUrl = await listeningBaseUrl(env);
});

freshEachTest(test, (world) => ({ env, people } = world));

const client = (creds: Credentials) => typedClient(baseUrl, creds);

test('a note with a mention and an escalation reach the convenor through the typed inbox; a student is FORBIDDEN', async () => {
  const w = await taskWorld(env, people);
  const task = await seedTask(env, w.project, w.td, { status: 'working_on_it' });
  const tutor = client(people.tutor.creds);
  const note = await tutor.projects.staffNotes.create.mutate({ project_id: w.project, text: 'see me', mentioned_user_ids: [people.convenor.user.id] });
  assert.is(note.author_id, people.tutor.user.id);
  await tutor.projects.task.escalations.create.mutate({ project_id: w.project, task_definition_id: w.td, reason: 'odd' });
  const inbox = await client(people.convenor.creds).units.inbox.query({ id: w.unit });
  assert.equal(
    inbox.map((t) => [t.id, t.mentioned, t.escalated]),
    [[task, 1, 1]],
  );
  try {
    await client(people.student.creds).projects.staffNotes.list.query({ project_id: w.project });
    assert.unreachable('a student read staff notes');
  } catch (error) {
    assert.instance(error, TRPCClientError);
    assert.is((error as TRPCClientError<AppRouter>).data?.code, 'FORBIDDEN');
  }
});

test.run();
