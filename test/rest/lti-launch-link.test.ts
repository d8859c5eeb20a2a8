import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import { createUser } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { chooseUnit, counts, exchange, launchAs, launchWorld, signInTarget, startLogin, unitChoices } from '../support/lti-launch.ts';
import type { LoopbackPlatform } from '../support/lti-platform.ts';
import { seedUnit } from '../support/seed.ts';

const test = suite('REST POST /api/lti/launch[/link]: the first Instructor launch links the course');
let env: TestEnv;
let platform: LoopbackPlatform;
let platformId: number;
let unit: number;

launchWorld(
  test,
  (world) => {
    ({ env, platform, platformId, unit } = world);
  },
  { unitName: 'Intro to Programming', linkedContext: null },
);

const COURSE = { id: 'course-7', label: 'COS20007', title: 'Object Oriented Programming' };
const CONVENOR = { sub: 'teacher-1', roles: ['Instructor' as const], context: COURSE, person: { email: 'aconvenor@example.edu' } };

const choose = (ticket: string, unitChoice: string) => chooseUnit(env, ticket, unitChoice);

test('an Instructor launch from an unlinked course asks which unit, creating nothing but the ticket', async () => {
  const before = await counts(env);
  const page = unitChoices(await launchAs(env, platform, CONVENOR));
  assert.equal(page.options, ['new Create a new unit from this course', `${unit} COS10001 Intro to Programming`]);
  const after = await counts(env);
  assert.equal(after, { ...before, lti_launch_tickets: 1 });
});

test('choosing a unit links the course, signs the Instructor in, and later launches reuse the link', async () => {
  const page = unitChoices(await launchAs(env, platform, CONVENOR));
  const linked = await choose(page.ticket, String(unit));
  const target = signInTarget(linked);
  assert.is(target.username, 'aconvenor');
  assert.is((await exchange(env, target)).status, 201);
  assert.equal(await env.orm.em.fork().execute('select context_id, unit_id, title, label, platform_id from lti_contexts'), [
    { context_id: COURSE.id, unit_id: unit, title: COURSE.title, label: COURSE.label, platform_id: platformId },
  ]);
  // The ticket is used.
  const again = await choose(page.ticket, String(unit));
  assert.is(again.status, 400);
  assert.match(again.body.error, /expired or was already made/);
  // A learner of the course now lands in the unit; the Instructor launches straight through.
  signInTarget(await launchAs(env, platform, { sub: 'learner-1', context: COURSE, person: { email: 'l1@example.edu' } }));
  signInTarget(await launchAs(env, platform, CONVENOR));
  assert.equal(await env.orm.em.fork().execute('select p.unit_id from projects p join users u on u.id = p.user_id where u.username = ?', ['l1']), [
    { unit_id: unit },
  ]);
  assert.is((await counts(env)).lti_contexts, 1);
});

test('"create a new unit from this course": named from the course, the Instructor its main convenor', async () => {
  const page = unitChoices(await launchAs(env, platform, CONVENOR));
  signInTarget(await choose(page.ticket, 'new'));
  const [created] = await env.orm.em.fork().execute<{ id: number; code: string; name: string; convenor: string }[]>(
    `select u.id, u.code, u.name, us.username as convenor from units u
       join unit_roles r on r.id = u.main_convenor_id join users us on us.id = r.user_id where u.code = ?`,
    [COURSE.label],
  );
  assert.equal({ ...created, id: 0 }, { id: 0, code: COURSE.label, name: COURSE.title, convenor: 'aconvenor' });
  assert.equal(await env.orm.em.fork().execute('select unit_id from lti_contexts'), [{ unit_id: created.id }]);
});

test('a unit the Instructor does not convene cannot be chosen (403, nothing linked; the ticket is spent)', async () => {
  const other = await seedUnit(env, { code: 'OTHER' });
  const page = unitChoices(await launchAs(env, platform, CONVENOR));
  const before = await counts(env);
  const res = await choose(page.ticket, String(other));
  assert.is(res.status, 403);
  assert.equal(await counts(env), { ...before, lti_launch_tickets: 0 });
});

test('an Instructor who convenes nothing and may not create units gets 403, and nothing is created', async () => {
  await createUser(env, 'helper', 'Tutor');
  const before = await counts(env);
  for (const person of [{ email: 'helper@example.edu' }, { email: 'brand-new@example.edu' }]) {
    const res = await launchAs(env, platform, { ...CONVENOR, sub: person.email, person });
    assert.is(res.status, 403);
    assert.match(res.body.error, /not linked to a unit yet/);
  }
  assert.equal(await counts(env), before);
});

test('a Learner or TA from an unlinked course gets a clear 400 page, and nothing is created', async () => {
  const before = await counts(env);
  for (const roles of [['Learner' as const], ['TeachingAssistant' as const]]) {
    const { state, nonce } = await startLogin(env, platform);
    const res = await api(env, 'POST', '/api/lti/launch', {
      form: { id_token: await platform.idToken({ nonce, roles, context: COURSE, person: { email: 'x@example.edu' } }), state },
      headers: { accept: 'text/html' },
    });
    assert.is(res.status, 400);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.text, /This course is not linked to a unit yet\. Ask your instructor/);
  }
  assert.equal(await counts(env), before);
});

test('a deep linking request from a Learner is refused with 403', async () => {
  const res = await launchAs(env, platform, {
    sub: 'learner-1',
    messageType: 'LtiDeepLinkingRequest',
    context: COURSE,
    claims: {
      'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
        deep_link_return_url: `${platform.issuer}/dl`,
        accept_types: ['ltiResourceLink'],
      },
    },
  });
  assert.is(res.status, 403);
  assert.match(res.body.error, /Only an Instructor/);
});

test.run();
