// Roster sync (LTI NRPS) against the loopback platform: its memberships endpoint checks the bearer
// token's scope and pages the roster with `Link: <…>; rel="next"`, the tool's real HTTP code reads
// it, and the unit's projects and staff are asserted in the database.
import type { JobHelpers } from 'graphile-worker';
import { parseCrontab } from 'graphile-worker';
import { performance } from 'node:perf_hooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LtiContext, LtiPlatform } from '../../schema/index.ts';
import { dockerEngine } from '../../src/adapters/docker.ts';
import { db } from '../../src/db/kysely.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { courseRole } from '../../src/domain/lti-roles.ts';
import { syncUnitRoster } from '../../src/operations/lti/roster-sync.ts';
import { LTI_SCOPES, serviceToken } from '../../src/operations/lti/service-token.ts';
import { CRONTAB, taskList } from '../../workers/index.ts';
import { TEST_LTI_KEY_SECRET, type TestEnv } from '../support/env.ts';
import { createUser, type People, signedIn } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { runJobs } from '../support/jobs.ts';
import { type Course, course, INSTRUCTOR, LEARNER, type Member, NRPS_TYPE, serveRoster, TA } from '../support/lti-nrps.ts';
import { platformWorld, registerPlatform } from '../support/lti-launch.ts';
import type { LoopbackPlatform } from '../support/lti-platform.ts';
import { employ, enrol, seedCampus, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('LTI roster sync (NRPS) against the loopback platform');
let env: TestEnv;
let people: People;
let platform: LoopbackPlatform;

const courses = new Map<string, Course>();

function serve(path: string, c: Course): void {
  courses.set(path, c);
  serveRoster(platform, path, c);
}

platformWorld(
  test,
  (world) => {
    ({ env, people, platform } = world);
    env.config.lti = { keySecret: TEST_LTI_KEY_SECRET };
    courses.clear();
    platform.tokenRequests.length = 0;
  },
  { toolJwks: async () => (await api(env, 'GET', '/api/lti/jwks')).body, now: () => env.clock.now() },
);

let platformId: number;

/** A unit convened by people.convenor (its main convenor) and tutored by people.tutor, linked to course `context-1`. */
async function linkedUnit(code = 'COS10001', options: { register?: boolean } = {}): Promise<number> {
  if (options.register !== false) {
    platformId = await registerPlatform(env, people, platform);
  }
  const unitId = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unitId, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unitId, 'Tutor');
  return unitId;
}

async function linkCourse(unitId: number, contextId: string, path: string | null): Promise<number> {
  const em = env.orm.em.fork();
  const context = em.create(LtiContext, {
    platform: platformId,
    contextId,
    deploymentId: platform.deploymentId,
    title: `Course ${contextId}`,
    unit: unitId,
    membershipsUrl: path === null ? null : platform.url(path),
  });
  await em.flush();
  return context.id;
}

const learner = (n: number, extra: Member = {}): Member => ({
  user_id: `sub-s${n}`,
  roles: [LEARNER],
  status: 'Active',
  email: `s${n}@uni.example`,
  given_name: `Stu${n}`,
  family_name: 'Dent',
  ...extra,
});

const sync = (unitId: number, as = people.convenor.creds) => api(env, 'POST', `/api/lti/units/${unitId}/sync_roster`, { as });

async function projects(unitId: number) {
  return db(env.orm.em.fork())
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['u.email', 'p.enrolled', 'p.campus_id'])
    .where('p.unit_id', '=', unitId)
    .orderBy('u.email')
    .execute();
}

async function staff(unitId: number) {
  return db(env.orm.em.fork())
    .selectFrom('unit_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.email', 'r.role', 'u.system_role'])
    .where('r.unit_id', '=', unitId)
    .orderBy('u.email')
    .execute();
}

async function lastSync(contextId: number): Promise<Date | null> {
  return (await env.orm.em.fork().findOneOrFail(LtiContext, { id: contextId })).lastRosterSyncAt ?? null;
}

async function userCount(): Promise<number> {
  const [row] = await env.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from users');
  return row.n;
}

test('a sync enrols the active learners and employs instructors and TAs, matching people by email; the report counts them', async () => {
  const unitId = await linkedUnit();
  const contextId = await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course([
    learner(1),
    learner(2),
    // people.student, matched by email in any case and linked.
    { user_id: 'sub-astudent', roles: [LEARNER], email: 'AStudent@Example.EDU', name: 'A Student' },
    {
      user_id: 'sub-lecturer',
      roles: [INSTRUCTOR, 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Faculty'],
      email: 'lecturer@uni.example',
      name: 'Lee Turer',
    },
    { user_id: 'sub-ta', roles: [INSTRUCTOR, TA], email: 'ta@uni.example', given_name: 'Tee', family_name: 'Ay' },
    // The unit's convenor, already staff: nothing changes.
    { user_id: 'sub-aconvenor', roles: [INSTRUCTOR], email: 'aconvenor@example.edu' },
  ]);
  serve('/nrps/context-1', c);

  const res = await sync(unitId);
  assert.is(res.status, 201, res.text);
  assert.equal(res.body, { added: 5, withdrawn: 0, unchanged: 1, errors: [] });

  assert.equal(await projects(unitId), [
    { email: 'astudent@example.edu', enrolled: true, campus_id: null },
    { email: 's1@uni.example', enrolled: true, campus_id: null },
    { email: 's2@uni.example', enrolled: true, campus_id: null },
  ]);
  // The unit has a main convenor, so the lecturer tutors; new accounts get the system role their course role needs.
  assert.equal(await staff(unitId), [
    { email: 'aconvenor@example.edu', role: 'Convenor', system_role: 'Convenor' },
    { email: 'atutor@example.edu', role: 'Tutor', system_role: 'Tutor' },
    { email: 'lecturer@uni.example', role: 'Tutor', system_role: 'Tutor' },
    { email: 'ta@uni.example', role: 'Tutor', system_role: 'Tutor' },
  ]);
  const users = await db(env.orm.em.fork())
    .selectFrom('users')
    .select(['username', 'email', 'first_name', 'last_name', 'system_role', 'password_hash', 'has_run_first_time_setup'])
    .where('email', 'in', ['s1@uni.example', 'lecturer@uni.example', 'ta@uni.example'])
    .orderBy('email')
    .execute();
  assert.equal(users, [
    {
      username: 'lecturer',
      email: 'lecturer@uni.example',
      first_name: 'Lee',
      last_name: 'Turer',
      system_role: 'Tutor',
      password_hash: null,
      has_run_first_time_setup: true,
    },
    {
      username: 's1',
      email: 's1@uni.example',
      first_name: 'Stu1',
      last_name: 'Dent',
      system_role: 'Student',
      password_hash: null,
      has_run_first_time_setup: true,
    },
    { username: 'ta', email: 'ta@uni.example', first_name: 'Tee', last_name: 'Ay', system_role: 'Tutor', password_hash: null, has_run_first_time_setup: true },
  ]);
  const identities = await db(env.orm.em.fork()).selectFrom('lti_identities').select(['issuer', 'sub']).orderBy('sub').execute();
  assert.equal(
    identities.map((i) => i.sub),
    ['sub-aconvenor', 'sub-astudent', 'sub-lecturer', 'sub-s1', 'sub-s2', 'sub-ta'],
  );
  assert.ok(identities.every((i) => i.issuer === platform.issuer));
  // Found accounts are not changed: people.student keeps their name.
  const student = await db(env.orm.em.fork()).selectFrom('users').select(['first_name']).where('id', '=', people.student.user.id).executeTakeFirstOrThrow();
  assert.is(student.first_name, 'Astudent');

  // The platform was asked with the NRPS media type and a token of the NRPS scope, fetched once.
  assert.equal(c.requests, [{ accept: NRPS_TYPE, page: 1, scopes: [LTI_SCOPES.memberships] }]);
  assert.is(platform.tokenRequests.length, 1);
  assert.equal(await lastSync(contextId), env.clock.now());
});

test('the next sync withdraws a learner who left and Inactive or Deleted ones, adds none of those, and keeps the rest', async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course([learner(1), learner(2), learner(3), { user_id: 'sub-ta', roles: [TA], email: 'ta@uni.example' }]);
  serve('/nrps/context-1', c);
  assert.equal((await sync(unitId)).body, { added: 4, withdrawn: 0, unchanged: 0, errors: [] });
  // A student enrolled by hand (no LMS link) is not the sync's to withdraw.
  const manual = await createUser(env, 'manual', 'Student');
  await enrol(env, manual, unitId);

  // s2 left the course, s3 is Inactive, s4 is Deleted and was never here; the TA left too.
  c.members = [learner(1), learner(3, { status: 'Inactive' }), learner(4, { status: 'Deleted' })];
  const res = await sync(unitId);
  assert.is(res.status, 201, res.text);
  assert.equal(res.body, { added: 0, withdrawn: 2, unchanged: 2, errors: [] });
  assert.equal(await projects(unitId), [
    { email: 'manual@example.edu', enrolled: true, campus_id: null },
    { email: 's1@uni.example', enrolled: true, campus_id: null },
    { email: 's2@uni.example', enrolled: false, campus_id: null },
    { email: 's3@uni.example', enrolled: false, campus_id: null },
  ]);
  assert.is((await db(env.orm.em.fork()).selectFrom('users').select('id').where('email', '=', 's4@uni.example').execute()).length, 0);
  // Staff are never removed.
  assert.ok((await staff(unitId)).some((s) => s.email === 'ta@uni.example'));

  // A third sync with nothing new changes nothing.
  assert.equal((await sync(unitId)).body, { added: 0, withdrawn: 0, unchanged: 3, errors: [] });

  // s2 comes back: enrolled again, at the campus they had.
  const campus = await seedCampus(env);
  await db(env.orm.em.fork())
    .updateTable('projects')
    .set({ campus_id: campus })
    .where('user_id', '=', (await db(env.orm.em.fork()).selectFrom('users').select('id').where('email', '=', 's2@uni.example').executeTakeFirstOrThrow()).id)
    .execute();
  c.members.push(learner(2));
  assert.equal((await sync(unitId)).body, { added: 1, withdrawn: 0, unchanged: 3, errors: [] });
  assert.ok((await projects(unitId)).some((p) => p.email === 's2@uni.example' && p.enrolled && p.campus_id === campus));
});

test('pages are followed through Link rel="next" (relative links too), with one token', async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course(
    [1, 2, 3, 4, 5].map((n) => learner(n)),
    2,
  );
  serve('/nrps/context-1', c);
  const res = await sync(unitId);
  assert.equal(res.body, { added: 5, withdrawn: 0, unchanged: 0, errors: [] });
  assert.equal(
    c.requests.map((r) => r.page),
    [1, 2, 3],
  );
  assert.is(platform.tokenRequests.length, 1);
  assert.is((await projects(unitId)).length, 5);
});

test('a next link back to a page already read is an error: 502, nothing changed', async () => {
  const unitId = await linkedUnit();
  const contextId = await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course([learner(1)]);
  c.loop = true;
  serve('/nrps/context-1', c);
  const res = await sync(unitId);
  assert.is(res.status, 502, res.text);
  assert.match(res.body.error, /could not be read, so nothing was changed/);
  assert.match(res.body.error, /already read/);
  assert.is(c.requests.length, 1);
  assert.equal(await projects(unitId), []);
  assert.is(await lastSync(contextId), null);
});

test('the platform refusing the token (scope) is a clear 502 naming its answer, and nothing changes', async () => {
  const unitId = await linkedUnit();
  const contextId = await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course([learner(1), learner(2)], 1);
  c.requiredScope = 'https://purl.imsglobal.org/spec/lti-nrps/scope/something-else';
  serve('/nrps/context-1', c);
  const before = await userCount();
  const res = await sync(unitId);
  assert.is(res.status, 502, res.text);
  assert.match(
    res.body.error,
    /^The roster of the LMS course "Course context-1" could not be read, so nothing was changed: GET http:\/\/127\.0\.0\.1:\d+\/nrps\/context-1: answered 403: .*insufficient_scope/,
  );
  assert.is(await userCount(), before);
  assert.equal(await projects(unitId), []);
  assert.is(await lastSync(contextId), null);
});

test('a 401 from the memberships endpoint gets one new token; a second 401 is an error', async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course([learner(1)]);
  c.unauthorisedFirst = 1;
  serve('/nrps/context-1', c);
  assert.equal((await sync(unitId)).body, { added: 1, withdrawn: 0, unchanged: 0, errors: [] });
  assert.is(platform.tokenRequests.length, 2);

  c.unauthorisedFirst = 2;
  const res = await sync(unitId);
  assert.is(res.status, 502, res.text);
  assert.match(res.body.error, /401/);
});

test('one member failing does not stop the others: each is reported with its user_id', async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  serve(
    '/nrps/context-1',
    course([
      learner(1),
      { user_id: 'sub-noemail', roles: [LEARNER], name: 'No Email' },
      { user_id: 'sub-bademail', roles: [LEARNER], email: 'not an address' },
      // An administrator's account is never claimed by email.
      { user_id: 'sub-admin', roles: [LEARNER], email: 'AAdmin@example.edu' },
      { roles: [LEARNER], email: 'nouserid@uni.example' },
      // No name: the address's local part, and the first-time setup will ask.
      { user_id: 'sub-noname', roles: [LEARNER], email: 'NoName@Uni.example' },
      learner(5, { status: 'Suspended' }),
      // people.student's account cannot teach: not raised on the LMS's word.
      { user_id: 'sub-astudent', roles: [TA], email: 'astudent@example.edu' },
      learner(2),
      // Roles with nothing here (a mentor) change nothing.
      { user_id: 'sub-mentor', roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor'], email: 'mentor@uni.example' },
    ]),
  );
  const res = await sync(unitId);
  assert.is(res.status, 201, res.text);
  assert.equal(res.body, {
    added: 3,
    withdrawn: 0,
    unchanged: 1,
    errors: [
      { user_id: '', error: 'user_id is invalid' },
      { user_id: 'sub-s5', error: 'status is invalid' },
      { user_id: 'sub-noemail', error: 'No email address to match or create an account with' },
      { user_id: 'sub-bademail', error: 'Invalid email address (not an address)' },
      { user_id: 'sub-admin', error: "The email address belongs to an administrator's account, which is never linked from an LMS" },
      {
        user_id: 'sub-astudent',
        error: "The account's system role (Student) cannot teach: an Admin must change it before the account can be employed",
      },
    ],
  });
  assert.equal(
    (await projects(unitId)).map((p) => p.email),
    ['NoName@Uni.example', 's1@uni.example', 's2@uni.example'],
  );
  assert.is((await staff(unitId)).length, 2);
  const noName = await db(env.orm.em.fork())
    .selectFrom('users')
    .select(['username', 'first_name', 'last_name', 'has_run_first_time_setup'])
    .where('email', '=', 'NoName@Uni.example')
    .executeTakeFirstOrThrow();
  assert.equal(noName, { username: 'noname', first_name: 'NoName', last_name: '', has_run_first_time_setup: false });
  const admins = await db(env.orm.em.fork()).selectFrom('lti_identities').select('sub').where('user_id', '=', people.admin.user.id).execute();
  assert.equal(admins, []);
});

test('an Instructor whose account may convene convenes a unit without a main convenor; new accounts and later instructors tutor', async () => {
  platformId = await registerPlatform(env, people, platform);
  const unitId = await seedUnit(env, { code: 'NEW101' });
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  serve(
    '/nrps/context-1',
    course([
      // A new account (Tutor) cannot convene, so the convenor below does.
      { user_id: 'sub-new', roles: [INSTRUCTOR], email: 'new@uni.example' },
      { user_id: 'sub-aconvenor', roles: [INSTRUCTOR], email: 'aconvenor@example.edu' },
      { user_id: 'sub-other', roles: [INSTRUCTOR], email: 'otherconvenor@example.edu' },
    ]),
  );
  await createUser(env, 'otherconvenor', 'Convenor');
  const report = await syncUnitRoster(env.orm.em.fork(), env.config, env.clock, unitId);
  assert.equal(report, { added: 3, withdrawn: 0, unchanged: 0, errors: [] });
  assert.equal(await staff(unitId), [
    { email: 'aconvenor@example.edu', role: 'Convenor', system_role: 'Convenor' },
    { email: 'new@uni.example', role: 'Tutor', system_role: 'Tutor' },
    { email: 'otherconvenor@example.edu', role: 'Tutor', system_role: 'Convenor' },
  ]);
  const unit = await db(env.orm.em.fork()).selectFrom('units').select('main_convenor_id').where('id', '=', unitId).executeTakeFirstOrThrow();
  assert.not.equal(unit.main_convenor_id, null);
});

test("two courses linked to one unit (two sections) are synced together: a student of one is not withdrawn by the other's roster", async () => {
  const unitId = await linkedUnit();
  const a = await linkCourse(unitId, 'section-a', '/nrps/section-a');
  const b = await linkCourse(unitId, 'section-b', '/nrps/section-b');
  serve('/nrps/section-a', course([learner(1), learner(2)]));
  const sectionB = course([learner(3), learner(2, { roles: [LEARNER, 'http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor'] })]);
  serve('/nrps/section-b', sectionB);
  assert.equal((await sync(unitId)).body, { added: 3, withdrawn: 0, unchanged: 0, errors: [] });
  assert.equal((await sync(unitId)).body, { added: 0, withdrawn: 0, unchanged: 3, errors: [] });
  // s3 leaves section B; s2 stays in section A.
  sectionB.members = [];
  assert.equal((await sync(unitId)).body, { added: 0, withdrawn: 1, unchanged: 2, errors: [] });
  assert.equal(
    (await projects(unitId)).map((p) => [p.email, p.enrolled]),
    [
      ['s1@uni.example', true],
      ['s2@uni.example', true],
      ['s3@uni.example', false],
    ],
  );
  assert.equal(await lastSync(a), env.clock.now());
  assert.equal(await lastSync(b), env.clock.now());
});

test('a course without a roster service: its students are added from the others but nobody is withdrawn', async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'section-a', '/nrps/section-a');
  const c = course([learner(1), learner(2)]);
  serve('/nrps/section-a', c);
  assert.equal((await sync(unitId)).body, { added: 2, withdrawn: 0, unchanged: 0, errors: [] });
  await linkCourse(unitId, 'section-b', null);
  c.members = [learner(1)];
  assert.equal((await sync(unitId)).body, { added: 0, withdrawn: 0, unchanged: 1, errors: [] });
  assert.is((await projects(unitId)).filter((p) => p.enrolled).length, 2);
});

test("only the unit's convenors and Admins may sync: students and tutors 403", async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  serve('/nrps/context-1', course([learner(1)]));
  await enrol(env, people.student.user, unitId);
  for (const who of [people.student, people.tutor]) {
    const res = await sync(unitId, who.creds);
    assert.is(res.status, 403, res.text);
    assert.equal(res.body, { error: 'Not authorised to sync the roster of this unit' });
  }
  assert.is(courses.get('/nrps/context-1')!.requests.length, 0);
  // A convenor of another unit is nobody here.
  const other = await signedIn(env, 'otherconvenor', 'Convenor');
  await employ(env, other.user, await seedUnit(env, { code: 'OTHER' }), 'Convenor', { main: true });
  assert.is((await sync(unitId, other.creds)).status, 403);
  assert.is((await sync(unitId)).status, 201);
  assert.is((await sync(unitId, people.admin.creds)).status, 201);
  assert.is((await sync(999_999, people.admin.creds)).status, 404);
});

test('a unit linked to no course is 400; linked only to courses without a roster, 400; without LTI_KEY_SECRET 503', async () => {
  const unitId = await linkedUnit();
  let res = await sync(unitId);
  assert.is(res.status, 400, res.text);
  assert.equal(res.body, { error: `Unit ${unitId} is not linked to an LMS course: an Instructor links it by launching the tool from the course` });
  await linkCourse(unitId, 'context-1', null);
  res = await sync(unitId);
  assert.is(res.status, 400, res.text);
  assert.match(res.body.error, /offer no roster \(Names and Role Provisioning Services\)/);
  env.config.lti = { keySecret: undefined };
  res = await sync(unitId);
  assert.is(res.status, 503, res.text);
  assert.equal(res.body, { error: 'LTI is not configured' });
});

test('the daily cron item queues one sync per linked unit (job key per unit) and the job syncs it', async () => {
  const item = parseCrontab(CRONTAB).find((i) => i.task === 'lti_roster_sync_due');
  assert.ok(item, 'lti_roster_sync_due is in the crontab');
  assert.ok(item.match({ min: 0, hour: 4, date: 2, month: 3, dow: 1 }));
  assert.not.ok(item.match({ min: 0, hour: 5, date: 2, month: 3, dow: 1 }));

  const unitId = await linkedUnit();
  const contextId = await linkCourse(unitId, 'context-1', '/nrps/context-1');
  serve('/nrps/context-1', course([learner(1), learner(2)]));
  // A unit linked to a course without a roster, and an unlinked one, are not queued.
  const noRoster = await linkedUnit('NOROSTER', { register: false });
  await linkCourse(noRoster, 'context-2', null);
  await linkedUnit('UNLINKED', { register: false });

  // Two workers' cron runs before either job starts: one job for the unit.
  const helpers = { logger: { info() {}, warn() {}, error() {}, debug() {} } } as unknown as JobHelpers;
  const tasks = taskList({ ...env.services, docker: dockerEngine('tcp://127.0.0.1:9') } as never);
  await tasks.lti_roster_sync_due({}, helpers);
  await tasks.lti_roster_sync_due({}, helpers);
  const queued = await env.orm.em
    .fork()
    .execute<{ key: string; task: string }[]>(
      'select key, t.identifier as task from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id',
    );
  assert.equal(queued, [{ key: `lti_roster_sync:${unitId}`, task: 'lti_roster_sync' }]);

  await runJobs(env);
  assert.equal(
    (await projects(unitId)).map((p) => [p.email, p.enrolled]),
    [
      ['s1@uni.example', true],
      ['s2@uni.example', true],
    ],
  );
  assert.equal(await lastSync(contextId), env.clock.now());
  const [left] = await env.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from graphile_worker._private_jobs');
  assert.is(left.n, 0, 'the job completed');

  // Queued through the job runner (the cron's path) the due item queues and the sync runs again: idempotent.
  await jobQueue(env.orm.em.fork()).add('lti_roster_sync_due', {});
  await runJobs(env);
  assert.is((await projects(unitId)).length, 2);
});

test('a failing roster read fails the job (graphile-worker retries it); a unit no longer linked is not retried', async () => {
  const unitId = await linkedUnit();
  await linkCourse(unitId, 'context-1', '/nrps/context-1');
  const c = course([learner(1)]);
  c.requiredScope = 'refused';
  serve('/nrps/context-1', c);
  await jobQueue(env.orm.em.fork()).add('lti_roster_sync', { unitId });
  await runJobs(env);
  const [failed] = await env.orm.em
    .fork()
    .execute<{ attempts: number; last_error: string }[]>('select attempts, last_error from graphile_worker._private_jobs');
  assert.is(failed.attempts, 1);
  assert.match(failed.last_error, /could not be read/);

  const unlinked = await linkedUnit('GONE', { register: false });
  await env.orm.em.fork().execute('delete from graphile_worker._private_jobs');
  await jobQueue(env.orm.em.fork()).add('lti_roster_sync', { unitId: unlinked });
  await runJobs(env);
  const [left] = await env.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from graphile_worker._private_jobs');
  assert.is(left.n, 0);
});

test('course roles: full URIs, short forms and LTI 1.1 URNs; a TA sub-role wins over Instructor; institution roles mean nothing here', () => {
  assert.is(courseRole([LEARNER]), 'learner');
  assert.is(courseRole(['Learner']), 'learner');
  assert.is(courseRole(['urn:lti:role:ims/lis/Instructor']), 'instructor');
  assert.is(courseRole([INSTRUCTOR, TA]), 'teaching_assistant');
  assert.is(courseRole(['Instructor', LEARNER]), 'instructor');
  assert.is(courseRole(['http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor']), null);
  assert.is(courseRole(['http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator', 'Mentor']), null);
  assert.is(courseRole([]), null);
});

test('statements per sync do not grow with the roster: 50 and 500 members cost the same, but for the batched insert', async () => {
  const counts: Record<number, { first: number; again: number; withdraw: number }> = {};
  /** Milliseconds of each sync, for the log only (the machine may be busy). */
  const times: number[] = [];
  await linkedUnit('SIZE0');
  // The tool's key and the NRPS token exist before counting, as they do after the first sync of a day.
  const row = await env.orm.em.fork().findOneOrFail(LtiPlatform, { id: platformId });
  await serviceToken(env.orm.em.fork(), env.config, env.clock, row, [LTI_SCOPES.memberships]);
  for (const size of [50, 500]) {
    const unitId = await linkedUnit(`SIZE${size}`, { register: false });
    await linkCourse(unitId, `course-${size}`, `/nrps/course-${size}`);
    const members = Array.from({ length: size }, (_, i) => learner(size * 1000 + i));
    const c = course(members, 1000);
    serve(`/nrps/course-${size}`, c);
    const run = async (expect: Record<string, unknown>) => {
      let report: unknown;
      const started = performance.now();
      const n = await countStatements(async () => {
        report = await syncUnitRoster(env.orm.em.fork(), env.config, env.clock, unitId);
      });
      times.push(Math.round(performance.now() - started));
      assert.equal(report, expect);
      return n;
    };
    const first = await run({ added: size, withdrawn: 0, unchanged: 0, errors: [] });
    const again = await run({ added: 0, withdrawn: 0, unchanged: size, errors: [] });
    c.members = members.slice(0, size / 2);
    const withdraw = await run({ added: 0, withdrawn: size / 2, unchanged: size / 2, errors: [] });
    counts[size] = { first, again, withdraw };
  }
  console.log(
    `roster sync statements (first sync, again, half withdrawn): 50 members ${JSON.stringify(counts[50])}, 500 members ${JSON.stringify(counts[500])}; ms: ${times.join(', ')}`,
  );
  // Only the ORM's batched INSERT of new projects grows, by one statement per batchSize rows.
  const batch = env.orm.config.get('batchSize');
  assert.is(counts[500].first - counts[50].first, Math.ceil(500 / batch) - Math.ceil(50 / batch));
  assert.is(counts[500].again, counts[50].again);
  assert.is(counts[500].withdraw, counts[50].withdraw);
});

test.run();
