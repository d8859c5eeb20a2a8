// The task workflow through the typed server-side caller (as scripts and workers call it): the
// same procedures and rules as REST, with typed inputs and answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TRPCError } from '@trpc/server';
import { appRouter } from '../../src/routers/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { TestEnv } from '../support/env.ts';
import type { Actor, People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { outsideTutor, taskWorld } from '../support/task-world.ts';

const test = suite('tRPC: the task workflow through the caller');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const as = (actor: Actor) => createCallerFactory(appRouter)(createContext(env.services, actor.creds));

test('a student hands in and asks a question; the tutor finds it in the inbox, answers and marks it complete', async () => {
  const w = await taskWorld(env, people, { isGraded: true });
  const student = as(people.student);
  const tutor = as(people.tutor);

  const handedIn = await student.projects.task.update({ id: w.project, task_definition_id: w.td, trigger: 'rff' });
  assert.is(handedIn.status, 'ready_for_feedback');
  const question = await student.projects.task.comments.create({ project_id: w.project, task_definition_id: w.td, comment: 'Is part 2 right?' });
  assert.is(question.recipient?.id, people.tutor.user.id);

  const inbox = await tutor.units.inbox({ id: w.unit });
  assert.is(inbox.length, 1);
  assert.is(inbox[0].num_new_comments, 1);
  const read = await tutor.projects.task.comments.list({ project_id: w.project, task_definition_id: w.td });
  assert.equal(
    read.map((c) => [c.type, c.is_new]),
    [
      ['status', false],
      ['text', true],
    ],
  );

  const done = await tutor.projects.task.update({ id: w.project, task_definition_id: w.td, trigger: 'complete', grade: 'hd' });
  assert.is(done.status, 'complete');
  assert.is(done.grade, 3);
  assert.is(JSON.parse(done.new_stats).green_pct, 1);
  assert.equal(await tutor.units.inbox({ id: w.unit }), []);
});

test("refusals reach the caller as typed errors: a student cannot grade, another unit's tutor cannot read", async () => {
  const w = await taskWorld(env, people, { isGraded: true });
  const grading = await as(people.student)
    .projects.task.update({ id: w.project, task_definition_id: w.td, trigger: 'working_on_it', grade: 3 })
    .catch((e: unknown) => e);
  assert.instance(grading, TRPCError);
  assert.is((grading as TRPCError).code, 'FORBIDDEN');
  const stranger = await outsideTutor(env);
  const reading = await as(stranger)
    .projects.task.comments.list({ project_id: w.project, task_definition_id: w.td })
    .catch((e: unknown) => e);
  assert.is((reading as TRPCError).code, 'FORBIDDEN');
  const missing = await as(people.tutor)
    .projects.task.update({ id: w.project, task_definition_id: 999999, trigger: 'complete' })
    .catch((e: unknown) => e);
  assert.is((missing as TRPCError).code, 'NOT_FOUND');
});

test.run();
