import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCrontab } from 'graphile-worker';
import { AuthToken, SignInFailure, UsedSamlAssertion } from '../../schema/index.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { CRONTAB } from '../../workers/index.ts';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import { runJobs } from '../support/jobs.ts';

const test = suite('worker: delete_expired_tokens');
let env: TestEnv;

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
});

test('the hourly job removes expired sign-in tokens and keeps live ones', async () => {
  const user = await createUser(env, 'astudent', 'Student');
  await issueToken(env.orm.em.fork(), user, env.clock.now(), false); // expires in 2 hours
  const stale = new Date(env.clock.now().getTime() - 3 * 3600_000);
  await issueToken(env.orm.em.fork(), user, stale, false); // expired an hour ago
  await jobQueue(env.orm.em.fork()).add('delete_expired_tokens', {});
  await runJobs(env);
  const left = await env.orm.em.fork().find(AuthToken, {});
  assert.is(left.length, 1);
  assert.ok(left[0].expiresAt.getTime() > env.clock.now().getTime());
});

test('the same job removes ended sign-in failure windows and expired SAML assertion records, keeping current ones', async () => {
  const em = env.orm.em.fork();
  const at = (minutes: number) => new Date(env.clock.now().getTime() + minutes * 60_000);
  em.create(SignInFailure, { key: 'address:192.0.2.1', points: 10, expire: at(-1).getTime() });
  em.create(SignInFailure, { key: 'address:192.0.2.2', points: 3, expire: at(5).getTime() });
  em.create(UsedSamlAssertion, { assertionId: '_old', expiresAt: at(-1) });
  em.create(UsedSamlAssertion, { assertionId: '_current', expiresAt: at(5) });
  await em.flush();
  await jobQueue(env.orm.em.fork()).add('delete_expired_tokens', {});
  await runJobs(env);
  const check = env.orm.em.fork();
  assert.equal(
    (await check.find(SignInFailure, {})).map((r) => r.key),
    ['address:192.0.2.2'],
  );
  assert.equal(
    (await check.find(UsedSamlAssertion, {})).map((r) => r.assertionId),
    ['_current'],
  );
});

test('the worker schedules it every hour', () => {
  const [item] = parseCrontab(CRONTAB);
  assert.is(item.task, 'delete_expired_tokens');
  const at = (hour: number, min: number) => ({ min, hour, date: 2, month: 3, dow: 1 });
  assert.ok(item.match(at(9, 0)));
  assert.ok(item.match(at(23, 0)));
  assert.not.ok(item.match(at(9, 30)));
});

test.run();
