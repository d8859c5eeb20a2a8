// Driving LTI 1.3 launches through the REST surface against the loopback platform: register it,
// start a login (the state and nonce the platform would carry), post the launch, follow the
// sign-in redirect through POST /api/auth, and count what a launch may create.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { LtiContext } from '../../schema/index.ts';
import type { TestEnv } from './env.ts';
import type { People } from './fixtures.ts';
import { api, type TestResponse } from './http.ts';
import { type LaunchOptions, type LoopbackPlatform, type PlatformOptions, startLoopbackPlatform } from './lti-platform.ts';
import { employ, seedUnit } from './seed.ts';
import { freshEachTest, type World } from './suite.ts';

/** The web client's address the launches redirect to (WEB_CLIENT_URL). */
export const WEB_CLIENT = 'https://courses.example.edu/';
const TOOL = 'https://tool.example.edu';

export async function registerPlatform(env: TestEnv, people: People, platform: LoopbackPlatform): Promise<number> {
  const res = await api(env, 'POST', '/api/lti/platforms', { as: people.admin.creds, json: platform.registration() });
  assert.is(res.status, 201, res.text);
  return res.body.id;
}

export interface PlatformWorld extends World {
  platform: LoopbackPlatform;
}

/** What every suite against the loopback platform sets up: one platform for the suite, closed after it, and a fresh world before each test. */
export function platformWorld(test: Test, receive: (world: PlatformWorld) => void, options?: PlatformOptions): void {
  let platform: LoopbackPlatform;
  test.before(async () => {
    platform = await startLoopbackPlatform(options);
  });
  freshEachTest(test, (world) => receive({ ...world, platform }));
  test.after(() => platform.close());
}

export interface LaunchWorld extends PlatformWorld {
  /** The loopback platform's id, registered by the Admin. */
  platformId: number;
  /** Unit COS10001, people.convenor its main convenor. */
  unit: number;
}

/**
 * The setup the launch suites share: platformWorld's, then before each test WEB_CLIENT_URL set
 * (launches redirect there), the platform registered, and unit COS10001 convened by
 * people.convenor, linked to course `linkedContext` (`null`: left unlinked, as before an
 * Instructor's first launch). WEB_CLIENT_URL is unset after the suite.
 */
export function launchWorld(test: Test, receive: (world: LaunchWorld) => void, options: { unitName?: string; linkedContext?: string | null } = {}): void {
  let world: PlatformWorld;
  platformWorld(test, (fresh) => {
    world = fresh;
  });
  test.before.each(async () => {
    const { env, people, platform } = world;
    env.config.mail.webUrl = WEB_CLIENT;
    const platformId = await registerPlatform(env, people, platform);
    const unit = await seedUnit(env, { code: 'COS10001', name: options.unitName });
    await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
    const { linkedContext = 'context-1' } = options;
    if (linkedContext !== null) await linkContext(env, platformId, linkedContext, unit);
    receive({ ...world, platformId, unit });
  });
  test.after(() => {
    if (world) world.env.config.mail.webUrl = undefined;
  });
}

/** Step 1 (OIDC login): the state and nonce the tool handed the platform. `clientId`: the tool's at the platform (a dynamically registered one). */
export async function startLogin(
  env: TestEnv,
  platform: LoopbackPlatform,
  clientId = platform.clientId,
): Promise<{ state: string; nonce: string; location: string }> {
  const res = await api(env, 'GET', '/api/lti/login', {
    query: { iss: platform.issuer, login_hint: 'hint', target_link_uri: `${TOOL}/api/lti/launch`, client_id: clientId },
  });
  assert.is(res.status, 302, res.text);
  const location = String(res.headers.location);
  const q = new URL(location).searchParams;
  return { state: String(q.get('state')), nonce: String(q.get('nonce')), location };
}

/** Step 2: the platform's form post of the id_token. */
export function postLaunch(env: TestEnv, idToken: string, state: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return api(env, 'POST', '/api/lti/launch', { form: { id_token: idToken, state }, headers });
}

/** A whole launch: login, then the platform's signed id_token for it. */
export async function launchAs(env: TestEnv, platform: LoopbackPlatform, options: Omit<LaunchOptions, 'nonce'> = {}): Promise<TestResponse> {
  const { state, nonce } = await startLogin(env, platform, options.clientId);
  return postLaunch(env, await platform.idToken({ nonce, ...options }), state);
}

/** The single-use ticket a page holds (the unit choice, the deep-linking choice). */
export const ticketOf = (html: string): string => /name="ticket" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** The ticket and options of the page asking an Instructor which unit to link the course to. */
export function unitChoices(res: TestResponse): { ticket: string; options: string[] } {
  assert.is(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /text\/html/);
  const ticket = ticketOf(res.text);
  assert.ok(ticket, res.text);
  return { ticket, options: [...res.text.matchAll(/<option value="([^"]+)">([^<]*)<\/option>/g)].map((m) => `${m[1]} ${m[2]}`) };
}

/** The unit choice page's form: a unit id, or `new`. */
export const chooseUnit = (env: TestEnv, ticket: string, unit: string): Promise<TestResponse> =>
  api(env, 'POST', '/api/lti/launch/link', { form: { ticket, unit } });

/** The deep-linking page's form as a browser posts it: `task_definition_ids[]` once per box ticked. */
export function chooseTasks(env: TestEnv, ticket: string, ids: number[]) {
  const form = new URLSearchParams([['ticket', ticket], ...ids.map((id) => ['task_definition_ids[]', String(id)])]);
  return env.app.inject({
    method: 'POST',
    url: '/api/lti/deep_link',
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
}

/** The sign-in token and username of the web client address a launch redirected to. */
export function signInTarget(res: TestResponse): { authToken: string; username: string } {
  assert.is(res.status, 302, res.text);
  const location = String(res.headers.location);
  assert.ok(location.startsWith(`${WEB_CLIENT}#/sign_in?`), location);
  const q = new URLSearchParams(location.slice(location.indexOf('?') + 1));
  return { authToken: String(q.get('authToken')), username: String(q.get('username')) };
}

/** What the web client does with it: POST /api/auth {auth_token, username, remember: true}. */
export function exchange(env: TestEnv, target: { authToken: string; username: string }): Promise<TestResponse> {
  return api(env, 'POST', '/api/auth', { json: { auth_token: target.authToken, username: target.username, remember: true } });
}

/** A context linked to a unit, as an earlier Instructor launch would have left it. */
export async function linkContext(env: TestEnv, platformId: number, contextId: string, unitId: number): Promise<void> {
  const em = env.orm.em.fork();
  em.create(LtiContext, { platform: platformId, contextId, deploymentId: 'deployment-1', unit: unitId });
  await em.flush();
}

const COUNTED = [
  'users',
  'lti_identities',
  'lti_contexts',
  'lti_resource_links',
  'projects',
  'unit_roles',
  'units',
  'auth_tokens',
  'lti_sign_in_tokens',
  'lti_launch_tickets',
] as const;

/** How many rows each table a launch may write holds. */
export async function counts(env: TestEnv): Promise<Record<string, number>> {
  const rows = await env.orm.em
    .fork()
    .execute<{ t: string; n: string }[]>(COUNTED.map((t) => `select '${t}' as t, count(*)::text as n from ${t}`).join(' union all '));
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}
