import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TaskDefinition } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { counts, exchange, launchAs, launchWorld, linkContext, signInTarget } from '../support/lti-launch.ts';
import type { LoopbackPlatform } from '../support/lti-platform.ts';
import { seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';

const test = suite('REST POST /api/lti/launch: people, roles and sign-in');
let env: TestEnv;
let platform: LoopbackPlatform;
let platformId: number;
let unit: number;

launchWorld(test, (world) => {
  ({ env, platform, platformId, unit } = world);
});

const NEW_LEARNER = { email: 'Learner.One@Example.edu', given_name: 'Lee', family_name: 'Learner' };

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const rows = await env.orm.em.fork().execute<T[]>(sql, params);
  return rows[0];
}

test('a new Learner ends signed in: 302 to the web client, POST /api/auth answers the user once', async () => {
  const res = await launchAs(env, platform, { sub: 'learner-1', person: NEW_LEARNER, context: { id: 'context-1', label: 'COS10001', title: 'Intro' } });
  const target = signInTarget(res);
  assert.is(target.username, 'learner.one');
  const signedIn = await exchange(env, target);
  assert.is(signedIn.status, 201, signedIn.text);
  assert.is(signedIn.body.user.username, 'learner.one');
  assert.is(signedIn.body.user.first_name, 'Lee');
  assert.is(signedIn.body.user.last_name, 'Learner');
  assert.is(signedIn.body.user.system_role, 'Student');
  assert.is(signedIn.body.user.has_run_first_time_setup, true);
  // The session is an ordinary one: it opens the unit the launch enrolled them in.
  const projects = await api(env, 'GET', '/api/projects', { as: { username: 'learner.one', token: signedIn.body.auth_token } });
  assert.is(projects.status, 200, projects.text);
  assert.equal(
    projects.body.map((p: { unit: { id: number } }) => p.unit.id),
    [unit],
  );
  // Single use.
  const again = await exchange(env, target);
  assert.is(again.status, 401);
  assert.equal(again.body, { error: 'Invalid token.' });
  const identity = await one<{ issuer: string; sub: string }>('select issuer, sub from lti_identities');
  assert.equal(identity, { issuer: platform.issuer, sub: 'learner-1' });
  const context = await one<{ title: string; label: string }>('select title, label from lti_contexts');
  assert.equal(context, { title: 'Intro', label: 'COS10001' });
  assert.is((await counts(env)).lti_sign_in_tokens, 0);
});

test('the sign-in token lasts two minutes and belongs to its user only', async () => {
  const target = signInTarget(await launchAs(env, platform, { sub: 'learner-1', person: NEW_LEARNER }));
  const wrongUser = await exchange(env, { ...target, username: 'astudent' });
  assert.is(wrongUser.status, 401);
  env.clock.advance(2 * 60 * 1000 + 1000);
  const late = await exchange(env, target);
  assert.is(late.status, 401);
});

test('a later launch finds the user by (iss, sub) and re-enrols a withdrawn student; the resource link is kept', async () => {
  signInTarget(await launchAs(env, platform, { sub: 'learner-1', person: NEW_LEARNER }));
  await env.orm.em.fork().execute('update projects set enrolled = false');
  // Another email now: the identity still names the same account.
  const second = signInTarget(await launchAs(env, platform, { sub: 'learner-1', person: { email: 'moved@example.edu' } }));
  assert.is(second.username, 'learner.one');
  const after = await counts(env);
  assert.is(after.lti_identities, 1);
  assert.is(after.lti_resource_links, 1);
  assert.equal(await env.orm.em.fork().execute('select enrolled from projects'), [{ enrolled: true }]);
});

test('an existing account is matched by email (any case) and linked to the identity', async () => {
  const before = await counts(env);
  const target = signInTarget(await launchAs(env, platform, { sub: 'learner-9', person: { email: 'AStudent@example.edu' } }));
  assert.is(target.username, 'astudent');
  const after = await counts(env);
  assert.is(after.users, before.users);
  assert.is(after.lti_identities, 1);
  assert.is(after.projects, before.projects + 1);
});

test('an Admin account is never claimed by email (403, nothing created)', async () => {
  const before = await counts(env);
  const res = await launchAs(env, platform, { sub: 'x', person: { email: 'aadmin@example.edu' } });
  assert.is(res.status, 403);
  assert.match(res.body.error, /administrator/);
  const after = await counts(env);
  assert.equal({ ...after, auth_tokens: before.auth_tokens }, before);
});

test('a new user without an email claim is refused with 400 and nothing created', async () => {
  const before = await counts(env);
  const res = await launchAs(env, platform, { sub: 'anon', person: { name: 'No Mail' } });
  assert.is(res.status, 400);
  assert.match(res.body.error, /email/);
  assert.equal(await counts(env), before);
});

test('a TeachingAssistant becomes a Tutor (new account: system role Tutor)', async () => {
  const target = signInTarget(
    await launchAs(env, platform, { sub: 'ta-1', roles: ['TeachingAssistant'], person: { email: 'ta@example.edu', name: 'Tee Ay' } }),
  );
  const row = await one<{ role: string; system_role: string; first_name: string; last_name: string }>(
    'select r.role, u.system_role, u.first_name, u.last_name from unit_roles r join users u on u.id = r.user_id where u.username = ?',
    [target.username],
  );
  assert.equal(row, { role: 'Tutor', system_role: 'Tutor', first_name: 'Tee', last_name: 'Ay' });
  assert.is((await counts(env)).projects, 0);
});

test('an Instructor becomes a Tutor when the unit has a main convenor, its Convenor when it has none', async () => {
  await createUser(env, 'second', 'Convenor');
  const target = signInTarget(await launchAs(env, platform, { sub: 'i-2', roles: ['Instructor'], person: { email: 'second@example.edu' } }));
  assert.is(target.username, 'second');
  const role = (u: string, unitId: number) =>
    one<{ role: string } | undefined>('select r.role from unit_roles r join users u on u.id = r.user_id where u.username = ? and r.unit_id = ?', [u, unitId]);
  assert.equal(await role('second', unit), { role: 'Tutor' });

  const orphan = await seedUnit(env, { code: 'ORPHAN1' });
  await linkContext(env, platformId, 'context-orphan', orphan);
  signInTarget(await launchAs(env, platform, { sub: 'i-2', roles: ['Instructor'], context: { id: 'context-orphan' } }));
  assert.equal(await role('second', orphan), { role: 'Convenor' });
  const main = await one<{ main: number | null; id: number }>(
    'select u.main_convenor_id as main, r.id from units u join unit_roles r on r.unit_id = u.id where u.id = ?',
    [orphan],
  );
  assert.is(main.main, main.id);
});

test('a new Instructor account is a Tutor (a system role is never raised by a launch)', async () => {
  const target = signInTarget(await launchAs(env, platform, { sub: 'i-new', roles: ['Instructor'], person: { email: 'newstaff@example.edu' } }));
  const row = await one<{ role: string; system_role: string }>(
    'select r.role, u.system_role from unit_roles r join users u on u.id = r.user_id where u.username = ?',
    [target.username],
  );
  assert.equal(row, { role: 'Tutor', system_role: 'Tutor' });
});

test("a resource link whose custom task_definition_id names a task of the linked unit opens it; another unit's is ignored", async () => {
  const td = await seedTaskDefinition(env, unit, 'P1');
  const other = await seedUnit(env, { code: 'OTHER' });
  const foreign = await seedTaskDefinition(env, other, 'P9');
  signInTarget(
    await launchAs(env, platform, {
      sub: 'learner-1',
      person: NEW_LEARNER,
      resourceLink: { id: 'rl-1', title: 'Pass task 1' },
      custom: { task_definition_id: String(td) },
    }),
  );
  signInTarget(await launchAs(env, platform, { sub: 'learner-1', resourceLink: { id: 'rl-2' }, custom: { task_definition_id: String(foreign) } }));
  const links = await env.orm.em.fork().execute('select resource_link_id, title, task_definition_id from lti_resource_links order by resource_link_id');
  assert.equal(links, [
    { resource_link_id: 'rl-1', title: 'Pass task 1', task_definition_id: td },
    { resource_link_id: 'rl-2', title: null, task_definition_id: null },
  ]);
});

test('a link placed for an online test opens the SCORM player, signed in by a single-use token in the fragment', async () => {
  const td = await seedTaskDefinition(env, unit, 'T1');
  await env.orm.em.fork().nativeUpdate(TaskDefinition, { id: td }, { scormEnabled: true });
  const res = await launchAs(env, platform, { sub: 'learner-1', person: NEW_LEARNER, custom: { task_definition_id: String(td), scorm_player: 'true' } });
  assert.is(res.status, 302, res.text);
  const location = new URL(String(res.headers.location));
  // On the origin of the launch's target_link_uri (LTI_TOOL_URL's when set).
  assert.is(location.pathname, `/api/scorm/player/${td}`);
  assert.is(location.search, '', 'nothing a server would log');
  const fragment = new URLSearchParams(location.hash.slice(1));
  assert.is(fragment.get('username'), 'learner.one');
  const signedIn = await exchange(env, { authToken: String(fragment.get('sign_in_token')), username: 'learner.one' });
  assert.is(signedIn.status, 201, signedIn.text);
  // Without online tests on (or for another unit's task) the same link goes to the web client as before.
  await env.orm.em.fork().nativeUpdate(TaskDefinition, { id: td }, { scormEnabled: false });
  signInTarget(await launchAs(env, platform, { sub: 'learner-1', custom: { task_definition_id: String(td), scorm_player: 'true' } }));
});

test('the NRPS and AGS service URLs are stored and kept fresh on every launch', async () => {
  const claims = (n: number) => ({
    'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': { context_memberships_url: `${platform.issuer}/nrps/${n}`, service_versions: ['2.0'] },
    'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
      scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
      lineitems: `${platform.issuer}/lineitems/${n}`,
      lineitem: `${platform.issuer}/lineitems/${n}/li`,
    },
  });
  signInTarget(await launchAs(env, platform, { sub: 'learner-1', person: NEW_LEARNER, claims: claims(1) }));
  signInTarget(await launchAs(env, platform, { sub: 'learner-1', claims: claims(2) }));
  assert.equal(await one('select memberships_url, lineitems_url, ags_scopes from lti_contexts'), {
    memberships_url: `${platform.issuer}/nrps/2`,
    lineitems_url: `${platform.issuer}/lineitems/2`,
    ags_scopes: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
  });
  assert.equal(await one('select lineitem_url from lti_resource_links'), { lineitem_url: `${platform.issuer}/lineitems/2/li` });
  // A launch without the service claims (some platforms send them only with some messages) keeps them.
  signInTarget(await launchAs(env, platform, { sub: 'learner-1' }));
  assert.equal(await one('select memberships_url, lineitems_url, ags_scopes from lti_contexts'), {
    memberships_url: `${platform.issuer}/nrps/2`,
    lineitems_url: `${platform.issuer}/lineitems/2`,
    ags_scopes: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
  });
});

test('a staff member who launches as Learner keeps their role and is not enrolled', async () => {
  const before = await counts(env);
  signInTarget(await launchAs(env, platform, { sub: 'c-1', person: { email: 'aconvenor@example.edu' } }));
  const after = await counts(env);
  assert.is(after.projects, before.projects);
  assert.is(after.unit_roles, before.unit_roles);
});

test('without WEB_CLIENT_URL the launch is 503 and the login is not spent', async () => {
  env.config.mail.webUrl = undefined;
  const before = await counts(env);
  const res = await launchAs(env, platform, { sub: 'learner-1', person: NEW_LEARNER });
  assert.is(res.status, 503);
  assert.match(res.body.error, /WEB_CLIENT_URL/);
  assert.equal(await counts(env), before);
  assert.is((await env.orm.em.fork().execute('select * from lti_login_states')).length, 1);
});

test.run();
