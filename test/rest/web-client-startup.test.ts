import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resetDatabase, testEnv, type TestEnv } from '../support/env.ts';
import { createUser, PASSWORD } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, seedCampus, seedPeriod, seedUnit } from '../support/seed.ts';

// The requests the real web client makes from its sign-in page to a loaded home page, in order
// and in its own form (shared/reference/web-client.md §1.6): no auth headers before sign-in, JSON
// bodies, then `Auth-Token` and `Username` headers and trailing slashes.
const test = suite('the web client signs in and loads its home page');
let env: TestEnv;

test.before.each(async () => {
  env = await testEnv();
  await resetDatabase(env);
});

test('a tutor signs in and every start-up request answers with what the client reads', async () => {
  const tutor = await createUser(env, 'tutor1', 'Tutor');
  await seedCampus(env);
  const period = await seedPeriod(env);
  const unit = await seedUnit(env, { code: 'SIT101', teachingPeriod: period, startDate: '2026-03-02', endDate: '2026-06-01' });
  await employ(env, tutor, unit, 'Tutor');

  const settings = await api(env, 'GET', '/api/settings');
  assert.is(settings.status, 200);
  for (const key of ['externalName', 'overseerEnabled', 'tiiEnabled']) assert.ok(key in settings.body, key);
  assert.equal((await api(env, 'GET', '/api/auth/signout_url')).body, { auth_signout_url: null });
  assert.is((await api(env, 'GET', '/api/auth/method')).body.redirect_to, null);

  const signIn = await api(env, 'POST', '/api/auth', { json: { username: 'tutor1', password: PASSWORD, remember: true } });
  assert.is(signIn.status, 201);
  const { user, auth_token } = signIn.body;
  assert.is(user.system_role, 'Tutor');
  assert.is(user.has_run_first_time_setup, true);
  assert.type(user.first_name, 'string');
  assert.type(user.last_name, 'string');
  const headers = { Username: 'tutor1', 'Auth-Token': auth_token };

  const [campuses, periods] = await Promise.all([api(env, 'GET', '/api/campuses/', { headers }), api(env, 'GET', '/api/teaching_periods/', { headers })]);
  assert.equal([campuses.status, campuses.body.length], [200, 1]);
  assert.equal([periods.status, periods.body.length], [200, 1]);
  assert.equal(Object.keys(periods.body[0]).sort(), ['active', 'active_until', 'end_date', 'id', 'period', 'start_date', 'year']);

  const roles = await api(env, 'GET', '/api/unit_roles/', { headers });
  assert.is(roles.status, 200);
  assert.is(roles.body.length, 1);
  assert.equal(roles.body[0].unit, {
    code: 'SIT101',
    id: unit,
    name: 'Unit SIT101',
    my_role: 'Tutor',
    teaching_period_id: period,
    start_date: '2026-03-02',
    end_date: '2026-06-01',
    active: true,
  });

  const projects = await api(env, 'GET', '/api/projects/?include_inactive=false', { headers });
  assert.equal([projects.status, projects.body], [200, []]);
});

test('after a timeout the client gets 419 on its next calls and its sign-out is accepted', async () => {
  await createUser(env, 'student1', 'Student');
  const signIn = await api(env, 'POST', '/api/auth', { json: { username: 'student1', password: PASSWORD, remember: false } });
  const headers = { Username: 'student1', 'Auth-Token': signIn.body.auth_token };
  env.clock.advance(3 * 3600_000);
  const campuses = await api(env, 'GET', '/api/unit_roles/', { headers });
  assert.is(campuses.status, 419);
  assert.type(campuses.body.error, 'string');
  // The client then signs out; the token is already gone, so this is a 419 the client ignores.
  assert.is((await api(env, 'DELETE', '/api/auth', { headers })).status, 419);
});

test.run();
