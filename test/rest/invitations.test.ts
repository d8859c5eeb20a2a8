import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { User } from '../../schema/index.ts';
import { hashToken, createInvitation } from '../../src/operations/invitations/invitation-tokens.ts';
import { verifyPassword } from '../../src/lib/passwords.ts';
import { composeMail } from '../../src/operations/mail/compose-mail.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';

const test = suite('GET/POST /invitations/{token} (set a first password from the invitation mail)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const DAY = 86_400_000;

async function invitedUser(username = 'newbie') {
  const em = env.orm.em.fork();
  const user = em.create(User, { username, email: `${username}@uni.edu`, firstName: '<b>Ann</b>', lastName: 'New', systemRole: 'Student', passwordHash: null });
  await em.flush();
  return user;
}

const page = (token: string) => api(env, 'GET', `/invitations/${token}`);
const post = (token: string, form: Record<string, string>) => api(env, 'POST', `/invitations/${token}`, { form });
const signIn = (username: string, password: string) => api(env, 'POST', '/api/auth', { json: { username, password } });

test('the invitation mail carries a link; its page is a form, escaped; the token is stored only as its SHA-256', async () => {
  const user = await invitedUser();
  const composed = await composeMail(
    env.orm.em.fork(),
    { kind: 'invitation', userId: user.id },
    { product: 'Course Service', webUrl: 'https://lms.example.edu' },
  );
  assert.ok(composed.send);
  if (!composed.send) return;
  assert.equal(composed.to, { name: '<b>Ann</b> New', address: 'newbie@uni.edu' });
  const token = /https:\/\/lms\.example\.edu\/invitations\/([A-Za-z0-9_-]+)/.exec(composed.content.text)?.[1];
  assert.ok(token, composed.content.text);
  assert.match(composed.content.text, /within 7 days/);

  const stored = await env.orm.em.fork().execute<{ token_hash: string }[]>('select token_hash from invitations');
  assert.equal(
    stored.map((r) => r.token_hash),
    [hashToken(token!)],
  );
  const dump = JSON.stringify(await env.orm.em.fork().execute('select * from invitations'));
  assert.not.ok(dump.includes(token!));

  const res = await page(token!);
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /text\/html/);
  assert.is(res.headers['referrer-policy'], 'no-referrer');
  assert.match(res.text, /<form method="post"/);
  assert.match(res.text, /name="password"/);
  assert.match(res.text, /&lt;b&gt;Ann&lt;\/b&gt;/);
  assert.not.match(res.text, /<b>Ann/);
});

test('the form post sets the password once: the user signs in; the same link is then refused (400)', async () => {
  const user = await invitedUser();
  const token = await createInvitation(env.orm.em.fork(), user.id, env.clock.now());
  const res = await post(token, { password: 'correct horse', password_confirmation: 'correct horse' });
  assert.is(res.status, 200);
  assert.match(res.text, /Your password is set/);
  const stored = await env.orm.em.fork().findOneOrFail(User, { id: user.id });
  assert.ok(await verifyPassword('correct horse', stored.passwordHash));
  assert.is((await signIn('newbie', 'correct horse')).status, 201);

  const again = await post(token, { password: 'another one!', password_confirmation: 'another one!' });
  assert.is(again.status, 400);
  assert.match(again.text, /already used/);
  assert.is((await page(token)).status, 400);
  assert.ok(await verifyPassword('correct horse', (await env.orm.em.fork().findOneOrFail(User, { id: user.id })).passwordHash));
});

test('a short or mismatched password re-shows the form with the reason (400) and leaves the link usable', async () => {
  const user = await invitedUser();
  const token = await createInvitation(env.orm.em.fork(), user.id, env.clock.now());
  const short = await post(token, { password: 'short', password_confirmation: 'short' });
  assert.is(short.status, 400);
  assert.match(short.text, /too short \(minimum is 8 characters\)/);
  const mismatch = await post(token, { password: 'long enough', password_confirmation: 'long enougH' });
  assert.is(mismatch.status, 400);
  assert.match(mismatch.text, /do not match/);
  assert.is((await page(token)).status, 200);
});

test('an expired link (after 7 days) and an unknown one are refused with a clear page', async () => {
  const user = await invitedUser();
  const token = await createInvitation(env.orm.em.fork(), user.id, env.clock.now());
  (env.clock as unknown as { advance(ms: number): void }).advance(7 * DAY + 1000);
  const expired = await page(token);
  assert.is(expired.status, 400);
  assert.match(expired.text, /expired/);
  const posted = await post(token, { password: 'long enough', password_confirmation: 'long enough' });
  assert.is(posted.status, 400);
  assert.is((await env.orm.em.fork().findOneOrFail(User, { id: user.id })).passwordHash, null);
  const unknown = await page('A'.repeat(43));
  assert.is(unknown.status, 404);
  assert.match(unknown.text, /not valid/);
  assert.is((await page('<script>')).status, 404);
});

test('a user who already has a password gets no invitation mail', async () => {
  const composed = await composeMail(env.orm.em.fork(), { kind: 'invitation', userId: people.student.user.id }, { product: 'Course Service', webUrl: null });
  assert.is(composed.send, false);
});

test.run();
