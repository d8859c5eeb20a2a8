import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { enrol } from '../support/seed.ts';
import { seedSimilarity, seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedEnrolmentIn } from '../support/seed-tutorials.ts';
import { taskWorld } from '../support/task-world.ts';
import { countStatements } from '../support/statements.ts';
import { insertComments, type NewComment } from '../../src/operations/tasks/comments.ts';
import { db } from '../../src/db/kysely.ts';

const test = suite('REST inbox, feedback and task lists: a fixed number of SQL statements');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** Students `from`..`to`, each with three tasks: one ready for feedback, one to discuss, one needing help; three comments a task. */
async function addStudents(w: { unit: number; tutorial: number }, tds: number[], from: number, to: number) {
  const comments: NewComment[] = [];
  for (let i = from; i < to; i++) {
    const user = await createUser(env, `st${i}`, 'Student');
    const project = await enrol(env, user, w.unit);
    await seedEnrolmentIn(env, project, w.tutorial);
    const statuses = ['ready_for_feedback', 'discuss', 'need_help'] as const;
    for (const [n, td] of tds.entries()) {
      const task = await seedTask(env, project, td, { status: statuses[n], submissionDate: new Date(Date.UTC(2026, 2, 3, 0, i)) });
      if (i % 2 === 0) await seedSimilarity(env, task, true);
      comments.push(
        { taskId: task, authorId: user.id, recipientId: people.tutor.user.id, kind: 'text', comment: `question ${i}` },
        { taskId: task, authorId: people.tutor.user.id, recipientId: user.id, kind: 'text', comment: `answer ${i}` },
        { taskId: task, authorId: user.id, recipientId: people.tutor.user.id, kind: 'extension', comment: 'more time', extensionWeeksRequested: 1 },
      );
    }
  }
  await insertComments(env.orm.em.fork(), comments, env.clock.now());
}

async function measure(url: string): Promise<{ statements: number; rows: number; locked: number }> {
  let rows = 0;
  let locked = 0;
  // Every measured request looks the session up itself: the session cache keeps a lookup for a few
  // seconds of real time, so whether one was cached would otherwise depend on the machine's speed.
  env.services.sessions.forgetUser(people.tutor.user.id);
  const statements = await countStatements(async () => {
    const res = await api(env, 'GET', url, { as: people.tutor.creds });
    assert.is(res.status, 200, res.text);
    rows = res.body.length;
    locked = res.body.filter((t: { locked: boolean }) => t.locked).length;
  });
  return { statements, rows, locked };
}

test("inbox, feedback and a definition's task list issue as many statements for 30 students as for 3, with prerequisites", async () => {
  const w = await taskWorld(env, people);
  const tds = [w.td, await seedTaskDefinition(env, w.unit, 'P2'), await seedTaskDefinition(env, w.unit, 'P3')];
  // P2 needs P1 complete and P3 needs P2 discussed (docs/prerequisites.md).
  await db(env.orm.em.fork())
    .insertInto('task_prerequisites')
    .values([
      { task_definition_id: tds[1]!, prerequisite_id: tds[0]!, task_status: 'complete', created_at: 'now()', updated_at: 'now()' },
      { task_definition_id: tds[2]!, prerequisite_id: tds[1]!, task_status: 'discuss', created_at: 'now()', updated_at: 'now()' },
    ])
    .execute();
  const urls = {
    inbox: `/api/units/${w.unit}/tasks/inbox`,
    feedback: `/api/units/${w.unit}/feedback`,
    definition: `/api/units/${w.unit}/task_definitions/${tds[0]}/tasks`,
  };
  await addStudents(w, tds, 0, 3);
  await measure(urls.inbox); // the session's first request also looks it up
  const small = { inbox: await measure(urls.inbox), feedback: await measure(urls.feedback), definition: await measure(urls.definition) };
  await addStudents(w, tds, 3, 30);
  const large = { inbox: await measure(urls.inbox), feedback: await measure(urls.feedback), definition: await measure(urls.definition) };
  // Every task has an unread question, so all 9 (90) are in the inbox; one in three waits in feedback.
  assert.equal([small.inbox.rows, small.feedback.rows, small.definition.rows], [9, 3, 3]);
  assert.equal([large.inbox.rows, large.feedback.rows, large.definition.rows], [90, 30, 30]);
  // Every P2 is locked (its P1 is only ready for feedback); no P3 is (its P2 is in discuss).
  assert.equal([large.inbox.locked, large.feedback.locked, large.definition.locked], [30, 30, 0]);
  for (const list of ['inbox', 'feedback', 'definition'] as const) assert.is(large[list].statements, small[list].statements, list);
});

test.run();
