import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { User } from '../../schema/index.ts';
import { toUser } from '../../src/operations/users/to-user.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { countStatements } from '../support/statements.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST GET /api/users: every user in one query, in the one User shape');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

test('each listed user is exactly the User shape the other user operations answer with', async () => {
  const varied = await createUser(env, 'varied', 'Tutor', { studentId: 'S123', nickname: null });
  const em = env.orm.em.fork();
  const row = await em.findOneOrFail(User, varied.id);
  Object.assign(row, {
    pronouns: 'they/them',
    optInToResearch: false,
    receiveTaskNotifications: false,
    simcheckEulaAcceptedAt: new Date('2026-01-01T00:00:00Z'),
  });
  await em.flush();

  const res = await api(env, 'GET', '/api/users', { as: people.admin.creds });
  assert.is(res.status, 200);
  const expected = (await env.orm.em.fork().find(User, {}, { orderBy: { id: 'asc' } })).map(toUser);
  // Same keys in the same order, same values: the JSON text is identical.
  assert.is(res.text, JSON.stringify(expected));
  const listed = res.body.find((u: { username: string }) => u.username === 'varied');
  assert.equal(
    [listed.student_id, listed.nickname, listed.pronouns, listed.opt_in_to_research, listed.receive_task_notifications, listed.accepted_tii_eula],
    ['S123', null, 'they/them', false, false, true],
  );
});

test('5,000 users cost the same statements as 4: one query, no query per user (timings: npm run bench -- users)', async () => {
  const list = async (count: number) => {
    const res = await api(env, 'GET', '/api/users', { as: people.admin.creds });
    assert.is(res.status, 200);
    assert.is(res.body.length, count);
  };
  await list(4); // the session is then cached, as for the second request
  const few = await countStatements(() => list(4));
  await env.orm.em.fork().execute(
    `insert into users (username, email, first_name, last_name, nickname, system_role, student_id, has_run_first_time_setup, created_at, updated_at)
     select 'bulk' || i, 'bulk' || i || '@example.edu', 'First' || i, 'Last' || i, 'Nick' || i, 'Student', 'S' || i, true, now(), now()
     from generate_series(1, 4996) as i`,
  );
  const many = await countStatements(() => list(5000));
  assert.is(many, few);
  assert.ok(few <= 3, `${few} statements`);
});

test.run();
