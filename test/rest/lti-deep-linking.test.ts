import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LtiContext, LtiPlatform, TaskDefinition, User } from '../../schema/index.ts';
import { type DeepLinkingSettings, deepLinkingPage } from '../../src/operations/lti/deep-linking.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { chooseTasks, platformWorld, registerPlatform, ticketOf } from '../support/lti-launch.ts';
import { DL_CLAIM, LTI_CLAIM, type LoopbackPlatform, verifyToolJwt } from '../support/lti-platform.ts';
import { seedUnit } from '../support/seed.ts';

const test = suite('LTI deep linking: the choice page and POST /api/lti/deep_link');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;

platformWorld(test, (world) => {
  ({ env, people, platform } = world);
});

const LAUNCH = 'https://tool.example.edu/api/lti/launch';
const RETURN_URL = 'https://lms.example.edu/deep_links/return';

interface World {
  unitId: number;
  tasks: { id: number; name: string; abbreviation: string }[];
  otherUnitTask: number;
  contextId: number;
}

async function taskDefinition(unitId: number, abbreviation: string, name: string): Promise<number> {
  const em = env.orm.em.fork();
  const td = em.create(TaskDefinition, { unit: unitId, abbreviation, name, description: name, startDate: '2026-03-02', targetDate: '2026-03-16' });
  await em.flush();
  return td.id;
}

async function seedWorld(): Promise<World> {
  const platformId = await registerPlatform(env, people, platform);
  const unitId = await seedUnit(env, { code: 'COS10001' });
  const other = await seedUnit(env, { code: 'COS20007' });
  const tasks = [
    { id: await taskDefinition(unitId, '1.1P', 'Hello World'), name: 'Hello World', abbreviation: '1.1P' },
    { id: await taskDefinition(unitId, '2.1C', 'Counting <Words>'), name: 'Counting <Words>', abbreviation: '2.1C' },
  ];
  const otherUnitTask = await taskDefinition(other, '1.1P', 'Elsewhere');
  const em = env.orm.em.fork();
  const context = em.create(LtiContext, {
    platform: platformId,
    contextId: 'context-1',
    deploymentId: platform.deploymentId,
    title: 'Intro',
    unit: unitId,
  });
  await em.flush();
  return { unitId, tasks, otherUnitTask, contextId: context.id };
}

function settings(extra: Partial<DeepLinkingSettings> = {}): DeepLinkingSettings {
  return { deep_link_return_url: RETURN_URL, accept_types: ['link', 'ltiResourceLink'], accept_multiple: true, data: 'opaque-platform-data', ...extra };
}

/** What the launch hands over, built from the stored rows. */
async function page(world: World, s: DeepLinkingSettings = settings()): Promise<string> {
  const em = env.orm.em.fork();
  const request = {
    platform: await em.findOneOrFail(LtiPlatform, { issuer: platform.issuer }),
    deploymentId: platform.deploymentId,
    settings: s,
    context: await em.findOneOrFail(LtiContext, { id: world.contextId }),
    user: await em.findOneOrFail(User, { id: people.convenor.user.id }),
    targetLinkUri: LAUNCH,
  };
  return deepLinkingPage(em, env.config, env.clock, request);
}

const choose = (ticket: string, ids: number[]) => chooseTasks(env, ticket, ids);

async function tickets(): Promise<number> {
  const [row] = await env.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from lti_deep_linking_tickets');
  return row.n;
}

/** The JWT the page posts, verified as the platform would: signature by the tool's published key, iss, aud, freshness. */
async function verifiedResponse(html: string) {
  assert.ok(html.includes(`action="${RETURN_URL}"`), html);
  const jwt = /name="JWT" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(jwt, html);
  const jwks = await api(env, 'GET', '/api/lti/jwks');
  const { payload, protectedHeader } = await verifyToolJwt(jwt, jwks.body, { clientId: platform.clientId, issuer: platform.issuer, at: env.clock.now() });
  assert.is(protectedHeader.kid, jwks.body.keys[0].kid);
  return payload;
}

test('the page lists the linked unit’s tasks (checkboxes when several are accepted) and holds a single-use ticket', async () => {
  const world = await seedWorld();
  const html = await page(world);
  for (const t of world.tasks) assert.ok(html.includes(`type="checkbox" name="task_definition_ids[]" value="${t.id}"`), html);
  assert.ok(html.includes('Counting &lt;Words&gt;'), 'task names are escaped');
  assert.not.ok(html.includes(`value="${world.otherUnitTask}"`));
  assert.ok(html.includes('action="https://tool.example.edu/api/lti/deep_link"'), html);
  assert.ok(ticketOf(html).length >= 32);
  assert.is(await tickets(), 1);

  const single = await page(world, settings({ accept_multiple: false }));
  assert.ok(single.includes(`type="radio" name="task_definition_ids[]" value="${world.tasks[0].id}"`), single);
});

test('the choice returns a signed LtiDeepLinkingResponse the platform verifies: a resource link per task with its custom parameter and line item', async () => {
  const world = await seedWorld();
  const ticket = ticketOf(await page(world));
  const res = await choose(ticket, [world.tasks[1].id, world.tasks[0].id]);
  assert.is(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /text\/html/);
  const payload = await verifiedResponse(res.body);
  assert.is(payload[`${LTI_CLAIM}message_type`], 'LtiDeepLinkingResponse');
  assert.is(payload[`${LTI_CLAIM}version`], '1.3.0');
  assert.is(payload[`${LTI_CLAIM}deployment_id`], platform.deploymentId);
  assert.is(payload[`${DL_CLAIM}data`], 'opaque-platform-data');
  assert.type(payload.nonce, 'string');
  const item = (t: World['tasks'][number]) => ({
    type: 'ltiResourceLink',
    title: t.name,
    url: LAUNCH,
    custom: { task_definition_id: String(t.id) },
    lineItem: { scoreMaximum: 100, label: t.name, resourceId: `task-definition-${t.id}`, tag: t.abbreviation },
  });
  assert.equal(payload[`${DL_CLAIM}content_items`], [item(world.tasks[1]), item(world.tasks[0])]);
  assert.is(await tickets(), 0, 'the ticket is used up');
});

test('a task with an online test is offered as one, and its resource link opens the SCORM player (custom scorm_player)', async () => {
  const world = await seedWorld();
  const test1 = world.tasks[0];
  await env.orm.em.fork().nativeUpdate(TaskDefinition, { id: test1.id }, { scormEnabled: true });
  const html = await page(world);
  assert.ok(html.includes(`value="${test1.id}"> 1.1P Hello World (online test: opens the test player)`), html);
  const res = await choose(ticketOf(html), [test1.id, world.tasks[1].id]);
  const items = (await verifiedResponse(res.body))[`${DL_CLAIM}content_items`] as { title: string; custom: Record<string, string> }[];
  assert.equal(
    items.map((i) => [i.title, i.custom]),
    [
      ['Hello World (online test)', { task_definition_id: String(test1.id), scorm_player: 'true' }],
      ['Counting <Words>', { task_definition_id: String(world.tasks[1].id) }],
    ],
  );
});

test('a ticket is accepted once: sending the choice again is 400', async () => {
  const world = await seedWorld();
  const ticket = ticketOf(await page(world));
  assert.is((await choose(ticket, [world.tasks[0].id])).statusCode, 200);
  const again = await choose(ticket, [world.tasks[0].id]);
  assert.is(again.statusCode, 400, again.body);
  assert.ok(again.body.includes('already sent'), again.body);
  assert.not.ok(again.body.includes('name="JWT"'));
});

test('a task of another unit, or several where one is accepted, is 400 and signs nothing; the ticket stays for a right choice', async () => {
  const world = await seedWorld();
  const ticket = ticketOf(await page(world));
  const foreign = await choose(ticket, [world.tasks[0].id, world.otherUnitTask]);
  assert.is(foreign.statusCode, 400, foreign.body);
  assert.ok(foreign.body.includes(`Not tasks of this unit: ${world.otherUnitTask}`), foreign.body);
  assert.not.ok(foreign.body.includes('name="JWT"'));
  assert.is((await choose(ticket, [world.tasks[0].id])).statusCode, 200);

  const single = ticketOf(await page(world, settings({ accept_multiple: false })));
  const two = await choose(single, [world.tasks[0].id, world.tasks[1].id]);
  assert.is(two.statusCode, 400, two.body);
  assert.ok(two.body.includes('one task at a time'));
});

test('no choice (Cancel) returns a response with no content items', async () => {
  const world = await seedWorld();
  const res = await choose(ticketOf(await page(world, settings({ data: undefined }))), []);
  assert.is(res.statusCode, 200, res.body);
  const payload = await verifiedResponse(res.body);
  assert.equal(payload[`${DL_CLAIM}content_items`], []);
  assert.is(payload[`${DL_CLAIM}data`], undefined);
});

test('an expired ticket is 400; a request that does not accept ltiResourceLink, or returns to a non-https URL, is 400 and stores nothing', async () => {
  const world = await seedWorld();
  const ticket = ticketOf(await page(world));
  env.clock.set(new Date(env.clock.now().getTime() + 16 * 60 * 1000));
  const late = await choose(ticket, [world.tasks[0].id]);
  assert.is(late.statusCode, 400, late.body);
  assert.ok(late.body.includes('expired'));

  await env.orm.em.fork().execute('delete from lti_deep_linking_tickets');
  for (const [bad, message] of [
    [settings({ accept_types: ['link', 'file'] }), /only ltiResourceLink/],
    [settings({ deep_link_return_url: 'javascript:alert(1)' }), /deep_link_return_url/],
  ] as const) {
    try {
      await page(world, bad);
      assert.unreachable('refused');
    } catch (error) {
      assert.match((error as Error).message, message);
    }
  }
  assert.is(await tickets(), 0);
});

test.run();
