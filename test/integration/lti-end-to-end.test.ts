// A whole term with an LMS, end to end: every step goes through the tool's real HTTP routes and the
// loopback platform's real endpoints (its OIDC authorisation, JWKS, token, registration, NRPS and
// AGS endpoints). The tests share one database and run in order, each step building on the last:
// 1. an Admin registers the LMS through LTI Dynamic Registration;
// 2. an Instructor's first launch, a deep linking request from an unlinked course, links the course
//    to their unit and places two tasks as links carrying line items;
// 3. the platform makes the gradebook columns those line items asked for;
// 4. a Learner opens one of the links and ends signed in, enrolled in the unit;
// 5. the convenor syncs the roster (paged NRPS) twice: people added, then one withdrawn;
// 6. a tutor marks the learner's task complete and the score reaches the platform's gradebook.
import type { JSONWebKeySet } from 'jose';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { LTI_SCOPES } from '../../src/operations/lti/service-token.ts';
import { resetDatabase, type TestEnv, testEnv } from '../support/env.ts';
import { everyone, PASSWORD, type People } from '../support/fixtures.ts';
import { api, type Credentials, type TestResponse } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { chooseTasks, chooseUnit, exchange, postLaunch, signInTarget, startLogin, ticketOf, unitChoices, WEB_CLIENT } from '../support/lti-launch.ts';
import { course, INSTRUCTOR, LEARNER, type Member, serveRoster, TA } from '../support/lti-nrps.ts';
import { DL_CLAIM, type LaunchOptions, LTI_CLAIM, type LoopbackPlatform, startLoopbackPlatform, verifyToolJwt } from '../support/lti-platform.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { employ, seedUnit } from '../support/seed.ts';

const test = suite('LTI end to end: a term with the LMS (registration, deep linking, launch, roster, grades)');

/** The tool's public URL (LTI_TOOL_URL) the LMS is given. */
const TOOL = 'https://courses.example.edu';
const HTML = { accept: 'text/html' };
const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const COURSE = { id: 'course-7', label: 'COS10001', title: 'Intro to Programming (S1)' };
const INSTRUCTOR_LAUNCH = { sub: 'teacher-1', roles: ['Instructor' as const], context: COURSE, person: { email: 'aconvenor@example.edu' } };
const ADA = { sub: 'learner-ada', person: { email: 'ada@uni.example', given_name: 'Ada', family_name: 'Lovelace' } };

let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;
const toolJwks = async (): Promise<JSONWebKeySet> => (await api(env, 'GET', '/api/lti/jwks')).body;

/** What the term built up, step by step. */
const term = {
  /** The tool's client_id and deployment at the LMS, as Dynamic Registration answered them. */
  clientId: '',
  deploymentId: '',
  unit: 0,
  tasks: [] as number[],
  /** The links the platform placed in the course from the deep-linking response. */
  links: [] as { resourceLinkId: string; title: string; custom: Record<string, string>; lineItem: string }[],
  adaProject: 0,
};

/** The platform's gradebook: its columns and the scores the tool posted to them. */
const lineItems: { id: string; label: string; scoreMaximum: number; resourceId: string; tag: string }[] = [];
const scores: { lineItem: string; body: Record<string, unknown>; contentType: string | undefined }[] = [];
const roster = course([], 2);

test.before(async () => {
  env = await testEnv();
  await resetDatabase(env);
  people = await everyone(env);
  env.config.lti = { ...env.config.lti, toolUrl: TOOL };
  env.config.mail.webUrl = WEB_CLIENT;
  platform = await startLoopbackPlatform({ toolJwks, now: () => env.clock.now() });
  term.unit = await seedUnit(env, { code: 'COS10001', name: 'Introduction to Programming' });
  await employ(env, people.convenor.user, term.unit, 'Convenor', { main: true });
  for (const abbreviation of ['1.1P', '1.2P', '2.1C']) term.tasks.push(await seedTaskDefinition(env, term.unit, abbreviation));
});
test.after(async () => {
  env.config.lti = { ...env.config.lti, toolUrl: undefined };
  env.config.mail.webUrl = undefined;
  await platform.close();
});

/**
 * A launch from this LMS as the tool's dynamically registered client, the browser's way: the OIDC
 * login redirects to the platform's /auth, which signs an id_token with the nonce it received there
 * and has it posted back to the tool with the state.
 */
async function launch(options: Omit<LaunchOptions, 'nonce'>): Promise<TestResponse> {
  const { location } = await startLogin(env, platform, term.clientId);
  assert.ok(location.startsWith(`${platform.authLoginUrl}?`), location);
  assert.is((await fetch(location)).status, 200);
  const login = platform.authRequests.at(-1)!.query;
  assert.is(login.get('client_id'), term.clientId);
  assert.is(login.get('redirect_uri'), `${TOOL}/api/lti/launch`);
  const idToken = await platform.idToken({
    clientId: term.clientId,
    deploymentId: term.deploymentId,
    targetLinkUri: `${TOOL}/api/lti/launch`,
    ...options,
    nonce: String(login.get('nonce')),
  });
  return postLaunch(env, idToken, String(login.get('state')));
}

/** The claims a launch of one of the course's placed links carries: its custom parameter and the AGS and NRPS services. */
function linkLaunch(link: (typeof term.links)[number]): Omit<LaunchOptions, 'nonce'> {
  return {
    context: COURSE,
    resourceLink: { id: link.resourceLinkId, title: link.title },
    custom: link.custom,
    claims: {
      [AGS_CLAIM]: {
        scope: [LTI_SCOPES.lineItem, LTI_SCOPES.resultReadOnly, LTI_SCOPES.score],
        lineitems: platform.url('/lineitems'),
        lineitem: link.lineItem,
      },
      [NRPS_CLAIM]: { context_memberships_url: platform.url('/nrps/course-7'), service_versions: ['2.0'] },
    },
  };
}

const rows = <T>(sql: string, params: unknown[] = []) => env.orm.em.fork().execute<T[]>(sql, params);

test('1. an Admin registers the LMS through Dynamic Registration: the confirmation page, then the registration the LMS answers is stored', async () => {
  const start = { openid_configuration: platform.openidConfigurationUrl, registration_token: platform.registrationToken };
  const page = await api(env, 'GET', '/api/lti/register', { headers: HTML, query: start });
  assert.is(page.status, 200, page.text);
  assert.ok(page.text.includes(`action="${TOOL}/api/lti/register"`), page.text);

  const confirmed = await api(env, 'POST', '/api/lti/register', { headers: HTML, form: { ...start, username: 'aadmin', password: PASSWORD } });
  assert.is(confirmed.status, 200, confirmed.text);
  assert.ok(confirmed.text.includes('org.imsglobal.lti.close'), confirmed.text);

  assert.is(platform.registrations.length, 1);
  const [registration] = platform.registrations;
  assert.is(registration.body.initiate_login_uri, `${TOOL}/api/lti/login`);
  assert.equal(registration.body.redirect_uris, [`${TOOL}/api/lti/launch`]);
  term.clientId = registration.clientId;
  term.deploymentId = registration.deploymentId;
  assert.equal(await rows('select issuer, client_id, deployment_ids, jwks_url, auth_token_url from lti_platforms'), [
    {
      issuer: platform.issuer,
      client_id: term.clientId,
      deployment_ids: [term.deploymentId],
      jwks_url: platform.jwksUrl,
      auth_token_url: platform.authTokenUrl,
    },
  ]);
});

test("2. the Instructor's first launch, a deep linking request from the unlinked course: link the unit, pick two tasks, the LMS verifies the signed response", async () => {
  // The platform's deep-link return endpoint verifies the response as an LMS does and places its links.
  platform.handle('/deep_links/return', async ({ body }, res) => {
    const jwt = new URLSearchParams(body).get('JWT') ?? '';
    const { payload } = await verifyToolJwt(jwt, await toolJwks(), { clientId: term.clientId, issuer: platform.issuer, at: env.clock.now() });
    assert.is(payload[`${LTI_CLAIM}message_type`], 'LtiDeepLinkingResponse');
    assert.is(payload[`${LTI_CLAIM}deployment_id`], term.deploymentId);
    assert.is(payload[`${DL_CLAIM}data`], 'platform-state-42');
    const items = payload[`${DL_CLAIM}content_items`] as { title: string; custom: Record<string, string>; lineItem: (typeof lineItems)[number] }[];
    for (const item of items) {
      // 3. (below) serves the columns made here.
      lineItems.push({ ...item.lineItem, id: platform.url(`/lineitems/${lineItems.length + 1}`) });
      term.links.push({ resourceLinkId: `link-${term.links.length + 1}`, title: item.title, custom: item.custom, lineItem: lineItems.at(-1)!.id });
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ placed: items.length }));
  });

  // The launch: OIDC login (the platform's /auth receives the state and nonce), then the signed id_token.
  const asked = await launch({
    ...INSTRUCTOR_LAUNCH,
    messageType: 'LtiDeepLinkingRequest',
    claims: {
      [`${DL_CLAIM}deep_linking_settings`]: {
        deep_link_return_url: platform.url('/deep_links/return'),
        accept_types: ['ltiResourceLink'],
        accept_multiple: true,
        data: 'platform-state-42',
      },
    },
  });

  // The course is unlinked: the Instructor is asked which unit; they convene COS10001.
  const choice = unitChoices(asked);
  assert.ok(choice.options.includes(`${term.unit} COS10001 Introduction to Programming`), String(choice.options));
  assert.equal(await rows('select count(*)::int as n from lti_contexts'), [{ n: 0 }], 'nothing linked before the choice');
  const dlPage = await chooseUnit(env, choice.ticket, String(term.unit));
  assert.is(dlPage.status, 200, dlPage.text);
  assert.equal(await rows('select context_id, unit_id, title from lti_contexts'), [{ context_id: COURSE.id, unit_id: term.unit, title: COURSE.title }]);
  assert.equal(await rows('select sub from lti_identities i join users u on u.id = i.user_id where u.username = ?', ['aconvenor']), [
    { sub: INSTRUCTOR_LAUNCH.sub },
  ]);

  // The launch continued to the deep-linking page: the unit's three tasks; the Instructor ticks two.
  for (const td of term.tasks) assert.ok(dlPage.text.includes(`name="task_definition_ids[]" value="${td}"`), dlPage.text);
  const picked = [term.tasks[0], term.tasks[2]];
  const response = await chooseTasks(env, ticketOf(dlPage.text), picked);
  assert.is(response.statusCode, 200, response.body);
  const returnUrl = /<form[^>]* action="([^"]+)"/.exec(response.body)?.[1];
  assert.is(returnUrl, platform.url('/deep_links/return'));
  const jwt = /name="JWT" value="([^"]+)"/.exec(response.body)?.[1] ?? '';

  // The page auto-posts the JWT to the platform, which verifies it and places a link per item.
  const posted = await fetch(String(returnUrl), { method: 'POST', body: new URLSearchParams({ JWT: jwt }) });
  assert.is(posted.status, 200, await posted.clone().text());
  assert.equal(await posted.json(), { placed: 2 });
  assert.equal(
    term.links.map((l) => l.custom),
    picked.map((td) => ({ task_definition_id: String(td) })),
  );
  assert.equal(
    lineItems.map(({ scoreMaximum, resourceId, tag }) => ({ scoreMaximum, resourceId, tag })),
    [
      { scoreMaximum: 100, resourceId: `task-definition-${picked[0]}`, tag: '1.1P' },
      { scoreMaximum: 100, resourceId: `task-definition-${picked[1]}`, tag: '2.1C' },
    ],
  );
  assert.equal(await rows('select count(*)::int as n from lti_deep_linking_tickets'), [{ n: 0 }], 'the ticket is used up');
});

test('3. the platform makes the gradebook columns: each line item and its scores endpoint, which demands the score scope', async () => {
  platform.handle('/lineitems', (_request, res) => {
    res.writeHead(200, { 'content-type': 'application/vnd.ims.lis.v2.lineitemcontainer+json' }).end(JSON.stringify(lineItems));
  });
  for (const item of lineItems) {
    const path = new URL(item.id).pathname;
    platform.handle(path, (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.ims.lis.v2.lineitem+json' }).end(JSON.stringify(item));
    });
    platform.handle(`${path}/scores`, ({ req, body, scopes }, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (!scopes.includes(LTI_SCOPES.score)) return void res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"no score scope"}');
      scores.push({ lineItem: item.id, body: JSON.parse(body), contentType: req.headers['content-type'] });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  }
  // Without a token carrying the score scope, the platform refuses a score.
  const anonymous = await fetch(`${lineItems[0].id}/scores`, { method: 'POST', body: '{}' });
  assert.is(anonymous.status, 403);
  const column = await fetch(lineItems[1].id);
  assert.equal(await column.json(), lineItems[1]);
  assert.is(scores.length, 0);
});

test('4. a Learner opens the first link: signed in to the web client through a single-use token, enrolled in the unit, the link opening its task', async () => {
  const [first] = term.links;
  const target = signInTarget(await launch({ ...ADA, ...linkLaunch(first) }));
  assert.is(target.username, 'ada');

  const signedIn = await exchange(env, target);
  assert.is(signedIn.status, 201, signedIn.text);
  assert.is(signedIn.body.user.username, 'ada');
  assert.is(signedIn.body.user.first_name, 'Ada');
  assert.is(signedIn.body.user.system_role, 'Student');
  const again = await exchange(env, target);
  assert.is(again.status, 401);
  assert.equal(again.body, { error: 'Invalid token.' });

  // The session opens the unit the launch enrolled Ada in.
  const ada: Credentials = { username: 'ada', token: signedIn.body.auth_token };
  const projects = await api(env, 'GET', '/api/projects', { as: ada });
  assert.is(projects.status, 200, projects.text);
  assert.equal(
    projects.body.map((p: { unit: { id: number } }) => p.unit.id),
    [term.unit],
  );
  term.adaProject = projects.body[0].id;
  assert.equal(await rows('select enrolled from projects where id = ?', [term.adaProject]), [{ enrolled: true }]);
  // The link opens the task deep linking placed, and carries its column; the course its services.
  assert.equal(await rows('select resource_link_id, task_definition_id, lineitem_url from lti_resource_links'), [
    { resource_link_id: first.resourceLinkId, task_definition_id: term.tasks[0], lineitem_url: lineItems[0].id },
  ]);
  assert.equal(await rows('select memberships_url, lineitems_url, ags_scopes from lti_contexts'), [
    {
      memberships_url: platform.url('/nrps/course-7'),
      lineitems_url: platform.url('/lineitems'),
      ags_scopes: [LTI_SCOPES.lineItem, LTI_SCOPES.resultReadOnly, LTI_SCOPES.score],
    },
  ]);
});

/** The unit's students and staff as the database holds them. */
async function unitPeople() {
  const k = db(env.orm.em.fork());
  const students = await k
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['u.username', 'p.enrolled'])
    .where('p.unit_id', '=', term.unit)
    .orderBy('u.username')
    .execute();
  const staff = await k
    .selectFrom('unit_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.username', 'r.role'])
    .where('r.unit_id', '=', term.unit)
    .orderBy('u.username')
    .execute();
  return { students, staff };
}

const member = (user_id: string, roles: string[], email: string, name: string): Member => ({ user_id, roles, status: 'Active', email, name });

test('5. the convenor syncs the roster from the paged NRPS endpoint: two learners and a TA added; after one learner leaves, the next sync withdraws them', async () => {
  roster.members = [
    member(ADA.sub, [LEARNER], ADA.person.email, 'Ada Lovelace'),
    member(INSTRUCTOR_LAUNCH.sub, [INSTRUCTOR], INSTRUCTOR_LAUNCH.person.email, 'A Convenor'),
    member('learner-bo', [LEARNER], 'bo@uni.example', 'Bo Peep'),
    member('learner-cy', [LEARNER], 'cy@uni.example', 'Cy Young'),
    member('ta-tam', [INSTRUCTOR, TA], 'tam@uni.example', 'Tam Lin'),
  ];
  serveRoster(platform, '/nrps/course-7', roster);

  const first = await api(env, 'POST', `/api/lti/units/${term.unit}/sync_roster`, { as: people.convenor.creds });
  assert.is(first.status, 201, first.text);
  assert.equal(first.body, { added: 3, withdrawn: 0, unchanged: 2, errors: [] });
  // Five members two to a page: three pages, each with a token of the NRPS scope.
  assert.equal(
    roster.requests.map((r) => [r.page, r.scopes]),
    [1, 2, 3].map((page) => [page, [LTI_SCOPES.memberships]]),
  );
  assert.equal(await unitPeople(), {
    students: [
      { username: 'ada', enrolled: true },
      { username: 'bo', enrolled: true },
      { username: 'cy', enrolled: true },
    ],
    staff: [
      { username: 'aconvenor', role: 'Convenor' },
      { username: 'tam', role: 'Tutor' },
    ],
  });

  // Cy leaves the course in the LMS.
  roster.members = roster.members.filter((m) => m.user_id !== 'learner-cy');
  const second = await api(env, 'POST', `/api/lti/units/${term.unit}/sync_roster`, { as: people.convenor.creds });
  assert.is(second.status, 201, second.text);
  assert.equal(second.body, { added: 0, withdrawn: 1, unchanged: 4, errors: [] });
  const after = await unitPeople();
  assert.equal(after.students, [
    { username: 'ada', enrolled: true },
    { username: 'bo', enrolled: true },
    { username: 'cy', enrolled: false },
  ]);
  assert.is(after.staff.length, 2, 'staff are never removed');
  assert.equal(await rows('select count(*)::int as n from users where username = ?', ['cy']), [{ n: 1 }], 'nothing is deleted');
});

test("6. the TA signs in from the LMS and marks Ada's task complete: the passback job posts the score to the column, and the convenor sees it sent", async () => {
  // Tam, added by the roster sync, opens the same link as a TA and signs in.
  const target = signInTarget(
    await launch({ sub: 'ta-tam', roles: ['TeachingAssistant'], person: { email: 'tam@uni.example' }, ...linkLaunch(term.links[0]) }),
  );
  const signedIn = await exchange(env, target);
  assert.is(signedIn.status, 201, signedIn.text);
  const tam: Credentials = { username: target.username, token: signedIn.body.auth_token };

  // The web client's marking route.
  const [td] = term.tasks;
  const marked = await api(env, 'PUT', `/api/projects/${term.adaProject}/task_def_id/${td}`, {
    as: tam,
    json: { trigger: 'complete', grade: null, quality_pts: -1 },
  });
  assert.is(marked.status, 200, marked.text);
  assert.equal(await rows('select state, lineitem_url from lti_score_passbacks'), [{ state: 'pending', lineitem_url: lineItems[0].id }]);

  await runJobs(env);
  assert.equal(scores, [
    {
      lineItem: lineItems[0].id,
      contentType: 'application/vnd.ims.lis.v1.score+json',
      body: {
        userId: ADA.sub,
        scoreGiven: 100,
        scoreMaximum: 100,
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
        timestamp: env.clock.now().toISOString(),
      },
    },
  ]);

  const seen = await api(env, 'GET', `/api/lti/units/${term.unit}/passbacks`, { as: people.convenor.creds });
  assert.is(seen.status, 200, seen.text);
  assert.equal(
    seen.body.map((p: Record<string, unknown>) => ({
      username: p.username,
      task_definition_id: p.task_definition_id,
      state: p.state,
      error: p.error,
      score: p.score,
    })),
    [{ username: 'ada', task_definition_id: td, state: 'sent', error: null, score: scores[0].body }],
  );
  assert.equal(await rows('select state, attempts from lti_score_passbacks'), [{ state: 'sent', attempts: 1 }]);
});

test.run();
