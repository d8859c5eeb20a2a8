import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_OPTIONS, parseDemoArgs, UsageError, type DemoOptions } from '../../scripts/demo/options.ts';
import { seedDemo } from '../../scripts/demo/seed.ts';
import { db } from '../../src/db/kysely.ts';
import { testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api, type Credentials } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('npm run seed:demo: a demo unit built through the service operations');
let env: TestEnv;
let people: People;

test.before(async () => {
  env = await testEnv();
});
freshEachTest(test, (world) => ({ env, people } = world));

const PASSWORD = 'demo-password';
const SMALL: DemoOptions = {
  ...DEFAULT_OPTIONS,
  code: 'DEMO9',
  students: 20,
  tutors: 2,
  tutorials: 4,
  streams: 2,
  taskDefinitions: 3,
  signInStudents: 2,
  batch: 8,
};

const seed = (options = SMALL) => seedDemo(env.services, { options, adminUsername: people.admin.user.username, password: PASSWORD });

/** Signs in with the password the demo gave, through POST /api/auth. */
async function signIn(username: string): Promise<Credentials> {
  const res = await api(env, 'POST', '/api/auth', { json: { username, password: PASSWORD } });
  assert.is(res.status, 201, `${username} signs in: ${res.text}`);
  return { username, token: res.body.auth_token };
}

async function counts(): Promise<Record<string, number>> {
  const em = env.orm.em.fork();
  const tables = [
    'users',
    'units',
    'unit_roles',
    'projects',
    'tutorials',
    'tutorial_streams',
    'tutorial_enrolments',
    'task_definitions',
    'teaching_periods',
    'breaks',
  ];
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = Number(((await em.execute(`select count(*) as n from ${table}`)) as { n: string }[])[0]!.n);
  return out;
}

test('the demo unit is what its convenor sees by REST: staff, streams, tutorials, task definitions and every student in one tutorial per stream', async () => {
  let total = 0;
  const steps: [string, number][] = [];
  const result = await seedDemo(env.services, {
    options: SMALL,
    adminUsername: people.admin.user.username,
    password: PASSWORD,
    progress: { start: (n) => (total = n), step: (stage, done) => steps.push([stage, done]) },
  });
  assert.is(result.existed, false);
  // Progress reaches its total, stage by stage; the CSV counts one step per student.
  assert.is(steps.at(-1)![1], total);
  assert.equal([...new Set(steps.map(([stage]) => stage))], ['accounts', 'unit', 'staff', 'streams', 'tutorials', 'task definitions', 'enrolment', 'work']);
  // After the CSV batches come 20 work steps, one per student.
  assert.equal(
    steps.filter(([stage]) => stage === 'enrolment').map(([, done]) => total - done),
    [32, 24, 20],
  );
  assert.equal(result.work, { tasks: 60, comments: 180 });
  assert.is(result.convenor, 'demo9.convenor');
  assert.equal(result.tutors, ['demo9.tutor01', 'demo9.tutor02']);
  assert.equal(result.signInStudents, ['demo9.s0001', 'demo9.s0002']);

  const convenor = await signIn('demo9.convenor');
  const unit = await api(env, 'GET', `/api/units/${result.unit.id}`, { as: convenor });
  assert.is(unit.status, 200);
  assert.is(unit.body.code, 'DEMO9');
  assert.is(unit.body.my_role, 'Convenor');
  assert.is(unit.body.teaching_period_id, result.period.id);
  const staff = unit.body.staff.map((s: { role: string; user: { username: string } }) => `${s.role} ${s.user.username}`).sort();
  assert.equal(staff, ['Convenor demo9.convenor', 'Tutor demo9.tutor01', 'Tutor demo9.tutor02']);
  assert.is(unit.body.main_convenor_user_id, unit.body.staff.find((s: { role: string }) => s.role === 'Convenor').user.id);
  assert.equal(
    unit.body.tutorial_streams.map((s: { abbreviation: string }) => s.abbreviation),
    ['wrkshop 1', 'lab 1'],
  );
  assert.is(unit.body.tutorials.length, 4);
  const tutorIds = new Set(unit.body.staff.filter((s: { role: string }) => s.role === 'Tutor').map((s: { user: { id: number } }) => s.user.id));
  for (const t of unit.body.tutorials) {
    assert.ok(tutorIds.has(t.tutor_id), `${t.abbreviation} is taught by a tutor of the unit`);
    assert.is(t.num_students, 10, `${t.abbreviation} has half of its stream's students`);
  }
  assert.equal(unit.body.tutorials.map((t: { tutorial_stream_abbr: string }) => t.tutorial_stream_abbr).sort(), ['lab 1', 'lab 1', 'wrkshop 1', 'wrkshop 1']);
  assert.is(unit.body.task_definitions.length, 3);
  for (const td of unit.body.task_definitions) assert.ok(td.start_date <= td.target_date, `${td.abbreviation} starts before its target date`);
  // The last one is an online test with its package (the quiz of scripts/lib/scorm-package.ts).
  const tests = unit.body.task_definitions.filter((td: { scorm_enabled: boolean }) => td.scorm_enabled);
  assert.equal(
    tests.map((td: { has_scorm_data: boolean; scorm_attempt_limit: number; scorm_version: string }) => [
      td.has_scorm_data,
      td.scorm_attempt_limit,
      td.scorm_version,
    ]),
    [[true, 2, '2004']],
  );

  const students = await api(env, 'GET', '/api/students', { as: convenor, query: { unit_id: result.unit.id } });
  assert.is(students.status, 200);
  assert.is(students.body.length, 20);
  for (const s of students.body) {
    assert.ok(s.enrolled);
    assert.equal(s.tutorial_enrolments.map((e: { stream_abbr: string }) => e.stream_abbr).sort(), ['lab 1', 'wrkshop 1']);
  }
  assert.ok(
    students.body.some(
      (s: { student: { username: string; student_id: string } }) => s.student.username === 'demo9.s0020' && s.student.student_id === 'DEMO9-0020',
    ),
  );

  // The marking tools are there at once: feedback templates to apply.
  const templates = await api(env, 'GET', `/api/units/${result.unit.id}/feedback_template_groups`, { as: convenor });
  assert.is(templates.status, 200, templates.text);
  assert.ok(
    templates.body.some((g: { name: string }) => g.name === 'General feedback'),
    templates.text,
  );
  // …a rubric with marks, staff notes, a moderation sample and an open escalation.
  const k = db(env.orm.em.fork());
  const count = async (table: 'rubric_marks' | 'staff_notes' | 'moderation_samples' | 'task_escalations' | 'overseer_steps' | 'discussion_prompts') =>
    Number(
      (
        await k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  assert.ok((await count('rubric_marks')) > 0, 'rubric marks');
  assert.ok((await count('staff_notes')) > 0, 'staff notes');
  assert.ok((await count('moderation_samples')) > 0, 'a moderation sample');
  assert.ok((await count('task_escalations')) > 0, 'an escalation');
  // …and a task definition assessed in steps (docs/assessment-steps.md).
  assert.is(await count('overseer_steps'), 3, 'assessment steps');
  // …and discuss timeouts on, with a task in discuss that the next daily run warns (docs/discuss-timeouts.md).
  const unitJson = await api(env, 'GET', `/api/units/${result.unit.id}`, { as: convenor });
  assert.equal([unitJson.body.discuss_timeout_enabled, unitJson.body.discuss_timeout_warning_days], [true, 7]);
  const waiting = await k
    .selectFrom('tasks')
    .select('moved_to_discuss_at')
    .where('status', '=', 'discuss')
    .where('moved_to_discuss_at', '<', env.clock.now().toISOString())
    .orderBy('moved_to_discuss_at')
    .executeTakeFirst();
  assert.ok(waiting, 'a task waiting in discuss since before the warning days');
  // …and check-ins, with some students gone quiet in the report (docs/check-ins.md).
  const report = await api(env, 'GET', `/api/units/${result.unit.id}/engagements/report`, { as: convenor });
  assert.is(report.status, 200, report.text);
  const reported = report.body.tutorials.flatMap((t: { students: { total: number; weeks_quiet: number }[] }) => t.students);
  assert.ok(reported.filter((s: { total: number }) => s.total > 0).length >= 10, 'check-ins recorded');
  assert.ok(
    reported.some((s: { total: number; weeks_quiet: number }) => s.total > 0 && s.weeks_quiet >= report.body.quiet_after_weeks),
    'a student gone quiet',
  );
  // …and a definition with discussion prompts that requires a discussion (docs/discussion-prompts.md).
  assert.is(await count('discussion_prompts'), 3, 'discussion prompts');
  const discussed = await k.selectFrom('task_definitions').select('id').where('requires_discussion', '=', true).execute();
  assert.is(discussed.length, 1, 'one definition requires discussion');

  const period = await api(env, 'GET', `/api/teaching_periods/${result.period.id}`);
  assert.is(period.body.period, 'Demo');
  assert.is(period.body.breaks.length, 1);
  assert.is(period.body.breaks[0].number_of_weeks, 1);

  // A tutor and a student with the demo password sign in and open the unit in their role.
  const tutorView = await api(env, 'GET', `/api/units/${result.unit.id}`, { as: await signIn('demo9.tutor02') });
  assert.is(tutorView.body.my_role, 'Tutor');
  const studentView = await api(env, 'GET', `/api/units/${result.unit.id}`, { as: await signIn('demo9.s0001') });
  assert.is(studentView.body.my_role, 'Student');
  // The students enrolled by CSV only have no password, as single sign-on users.
  const csvOnly = await api(env, 'POST', '/api/auth', { json: { username: 'demo9.s0003', password: PASSWORD } });
  assert.is(csvOnly.status, 401);
});

test("the class's work goes through the task workflow: every task handed in, most assessed, stats stored, comments unread by their recipients", async () => {
  const result = await seed();
  const k = db(env.orm.em.fork());
  const tasks = await k.selectFrom('tasks').select(['status', 'submission_date', 'times_assessed']).execute();
  assert.is(tasks.length, 60);
  assert.ok(
    tasks.every((t) => t.submission_date !== null),
    'every task has a submission date',
  );
  const assessed = tasks.filter((t) => t.times_assessed > 0).length;
  assert.ok(assessed > 20 && assessed < 60, `some but not all assessed (${assessed})`);
  const statusComments = await k
    .selectFrom('task_comments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('kind', '=', 'status')
    .executeTakeFirstOrThrow();
  assert.ok(Number(statusComments.n) >= 60, 'each hand-in and assessment left a status comment');
  const unread = await k
    .selectFrom('task_comments as c')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('c.kind', '=', 'text')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('comment_read_receipts as r').select('r.id').whereRef('r.comment_id', '=', 'c.id').whereRef('r.user_id', '=', 'c.recipient_id'),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  assert.is(Number(unread.n), result.work.comments);
  const projects = await k.selectFrom('projects').select('task_stats').execute();
  assert.ok(
    projects.every((p) => (p.task_stats as unknown as { grey_pct: number }).grey_pct < 1),
    "every project's stored stats moved off all-grey",
  );
});

test('a second run with the same code changes nothing and reports the unit already there', async () => {
  const first = await seed();
  const before = await counts();
  const second = await seed({ ...SMALL, students: 50 });
  assert.is(second.existed, true);
  assert.equal(second.unit, first.unit);
  assert.is(second.studentCount, 20);
  assert.is(second.tutorialCount, 4);
  assert.is(second.taskDefinitionCount, 3);
  assert.equal(await counts(), before);

  // Another code builds a second unit in the same demo period, sharing its activity types.
  const other = await seed({ ...SMALL, code: 'DEMO8', students: 3, tutorials: 2, taskDefinitions: 1 });
  assert.is(other.existed, false);
  assert.equal(other.period, first.period);
  const after = await counts();
  assert.is(after.teaching_periods, before.teaching_periods);
  assert.is(after.breaks, before.breaks);
  assert.is(after.projects, before.projects + 3);
});

test("the sizes on the command line: the issue's unit by default, bad values refused with the usage", () => {
  assert.equal(parseDemoArgs([]), DEFAULT_OPTIONS);
  assert.equal({ ...DEFAULT_OPTIONS, students: 1000, tutors: 10, tutorials: 40, streams: 2, taskDefinitions: 30 }, DEFAULT_OPTIONS);
  const parsed = parseDemoArgs(['--students', '20', '--tutors=2', '--tutorials', '4', '--task-definitions', '3', '--code', 'sit101']);
  assert.equal({ ...parsed }, { ...DEFAULT_OPTIONS, students: 20, tutors: 2, tutorials: 4, taskDefinitions: 3, code: 'SIT101' });
  assert.is(parseDemoArgs(['--students', '2']).signInStudents, 2);
  for (const bad of [
    ['--students', '-1'],
    ['--students', 'many'],
    ['--tutors', '0'],
    ['--tutorials', '1'],
    ['--code', 'a b'],
    ['--colour', 'red'],
    ['--students'],
  ]) {
    assert.throws(
      () => parseDemoArgs(bad),
      (e: Error) => e instanceof UsageError,
      bad.join(' '),
    );
  }
});

/** Runs `npm run seed:demo` as a user would, against the test database. */
function runScript(args: string[]): Promise<{ code: number; output: string }> {
  const root = resolve(import.meta.dirname, '../..');
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed-demo.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: env.databaseUrl, DEMO_PASSWORD: PASSWORD, ADMIN_USERNAME: people.admin.user.username },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, output });
    });
  });
}

test('the script prints the sign-in names and password, and on a second run says the unit is there', async () => {
  const args = ['--code', 'DEMO7', '--students', '4', '--tutors', '1', '--tutorials', '2', '--task-definitions', '1', '--sign-in-students', '1'];
  const first = await runScript(args);
  assert.is(first.code, 0, first.output);
  assert.match(first.output, /Built DEMO7 .* 1 tutors, 2 tutorials, 1 task definitions, 4 students/);
  assert.match(first.output, /convenor\s+demo7\.convenor/);
  assert.match(first.output, /tutors\s+demo7\.tutor01/);
  assert.match(first.output, /students\s+demo7\.s0001/);
  assert.match(first.output, /password\s+demo-password \(DEMO_PASSWORD\)/);
  await signIn('demo7.convenor');

  const second = await runScript(args);
  assert.is(second.code, 0, second.output);
  assert.match(second.output, /DEMO7 .* is already there, with 4 students, 2 tutorials and 1 task definitions: nothing was changed/);
  const bad = await runScript(['--students', 'lots']);
  assert.is(bad.code, 2);
  assert.match(bad.output, /--students must be a whole number/);
});

test.run();
