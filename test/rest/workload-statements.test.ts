import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { enrol } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedEnrolmentIn } from '../support/seed-tutorials.ts';
import { taskWorld } from '../support/task-world.ts';
import { countStatements } from '../support/statements.ts';
import { insertComments, type NewComment } from '../../src/operations/tasks/comments.ts';
import { db } from '../../src/db/kysely.ts';

const test = suite('REST workload dashboard: a fixed number of SQL statements');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** Students `from`..`to`, each with three tasks (ready for feedback, need help, complete), a submission each and a tutor's comment. */
async function addStudents(w: { unit: number; tutorial: number }, tds: number[], from: number, to: number) {
  const comments: NewComment[] = [];
  const k = db(env.orm.em.fork());
  for (let i = from; i < to; i++) {
    const user = await createUser(env, `st${i}`, 'Student');
    const project = await enrol(env, user, w.unit);
    await seedEnrolmentIn(env, project, w.tutorial);
    const statuses = ['ready_for_feedback', 'need_help', 'complete'] as const;
    for (const [n, td] of tds.entries()) {
      const submitted = new Date(Date.UTC(2026, 2, 1, 0, i));
      const task = await seedTask(env, project, td, { status: statuses[n], submissionDate: submitted });
      await k
        .insertInto('task_submissions')
        .values({ task_id: task, submitted_by_id: user.id, submitted_at: submitted.toISOString(), processing: false } as never)
        .execute();
      comments.push({ taskId: task, authorId: people.tutor.user.id, recipientId: user.id, kind: 'text', comment: `answer ${i}` });
    }
  }
  await insertComments(env.orm.em.fork(), comments, env.clock.now());
}

async function measure(who: keyof People, url: string): Promise<{ statements: number; tutors: number }> {
  let tutors = 0;
  // As in inbox-statements: the session lookup happens on every measured request.
  env.services.sessions.forgetUser(people[who].user.id);
  const statements = await countStatements(async () => {
    const res = await api(env, 'GET', url, { as: people[who].creds });
    assert.is(res.status, 200, res.text);
    tutors = res.body.tutors.length;
  });
  return { statements, tutors };
}

test('the convenor and a tutor get the dashboard in as many statements for 30 students as for 3', async () => {
  const w = await taskWorld(env, people);
  const tds = [w.td, await seedTaskDefinition(env, w.unit, 'P2'), await seedTaskDefinition(env, w.unit, 'P3')];
  const url = `/api/units/${w.unit}/workload`;
  await addStudents(w, tds, 0, 3);
  await measure('convenor', url); // the sessions' first requests also look them up
  await measure('tutor', url);
  const small = { convenor: await measure('convenor', url), tutor: await measure('tutor', url) };
  await addStudents(w, tds, 3, 30);
  const large = { convenor: await measure('convenor', url), tutor: await measure('tutor', url) };
  assert.equal([small.convenor.tutors, small.tutor.tutors], [2, 1]);
  for (const who of ['convenor', 'tutor'] as const) assert.is(large[who].statements, small[who].statements, who);
  // The scope (session, unit, role) and the dashboard's one statement.
  assert.ok(large.convenor.statements <= 4, `convenor: ${large.convenor.statements} statements`);
});

test.run();
