// GET /api/units, POST /api/units and PUT /api/units/{id}.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Break, TaskDefinition, Unit, UnitRole } from '../../schema/index.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { createContext } from '../../src/trpc/context.ts';
import { appRouter } from '../../src/routers/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('units: list, create, update');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const unitRow = (id: number) => env.orm.em.fork().findOneOrFail(Unit, { id });

async function seedDefinition(
  unitId: number,
  abbreviation: string,
  extra: Partial<{ uploadRequirements: unknown[]; startDate: string; targetDate: string; dueDate: string | null }> = {},
) {
  const em = env.orm.em.fork();
  const td = em.create(TaskDefinition, {
    plagiarismChecks: [],
    unit: unitId,
    name: `Task ${abbreviation}`,
    abbreviation,
    description: 'Do it',
    startDate: extra.startDate ?? '2026-03-02',
    targetDate: extra.targetDate ?? '2026-03-13',
    dueDate: extra.dueDate === undefined ? '2026-03-20' : extra.dueDate,
    uploadRequirements: (extra.uploadRequirements ?? []) as never,
  });
  await em.flush();
  return td.id;
}

// ---- GET /api/units ----------------------------------------------------------------------------

test('GET /api/units: convenors see the units they convene, admins all; inactive ones only on request', async () => {
  const a = await seedUnit(env, { code: 'A101' });
  const b = await seedUnit(env, { code: 'B202' });
  const old = await seedUnit(env, { code: 'C303', active: false });
  const main = await employ(env, people.convenor.user, a, 'Convenor', { main: true });
  await employ(env, people.convenor.user, b, 'Tutor');
  await employ(env, people.convenor.user, old, 'Convenor');

  const mine = await api(env, 'GET', '/api/units', { as: people.convenor.creds });
  assert.is(mine.status, 200);
  assert.equal(mine.body, [
    {
      code: 'A101',
      id: a,
      name: 'Unit A101',
      my_role: 'Convenor',
      main_convenor_user_id: people.convenor.user.id,
      description: 'About A101',
      start_date: '2026-03-02',
      end_date: '2026-12-01',
      active: true,
    },
  ]);
  assert.ok(main > 0);
  const withInactive = await api(env, 'GET', '/api/units', { as: people.convenor.creds, query: { include_in_active: true } });
  assert.equal(withInactive.body.map((u: { code: string }) => u.code).sort(), ['A101', 'C303']);

  const all = await api(env, 'GET', '/api/units', { as: people.admin.creds, query: { include_in_active: 'true' } });
  assert.equal(all.body.map((u: { code: string; my_role: string }) => [u.code, u.my_role]).sort(), [
    ['A101', 'Admin'],
    ['B202', 'Admin'],
    ['C303', 'Admin'],
  ]);
});

test('GET /api/units: a unit in a teaching period carries its id; tutors and students are refused', async () => {
  const period = await seedPeriod(env);
  await seedUnit(env, { code: 'P1', teachingPeriod: period });
  const all = await api(env, 'GET', '/api/units', { as: people.admin.creds });
  assert.is(all.body[0].teaching_period_id, period);
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'GET', '/api/units', { as: who.creds });
    assert.equal([res.status, res.body], [403, { error: 'Unable to list units' }]);
  }
  assert.is((await api(env, 'GET', '/api/units')).status, 419);
  assert.is((await api(env, 'GET', '/api/units', { as: people.admin.creds, query: { include_in_active: 'maybe' } })).status, 400);
});

// ---- POST /api/units ---------------------------------------------------------------------------

test("POST /api/units with the web client's JSON: the period's dates, the creator as main convenor, the full unit back", async () => {
  const period = await seedPeriod(env);
  const res = await api(env, 'POST', '/api/units', {
    as: people.convenor.creds,
    json: { unit: { code: 'SIT101', name: 'Programming', teaching_period_id: period } },
  });
  assert.is(res.status, 201);
  const role = await env.orm.em.fork().findOneOrFail(UnitRole, { unit: res.body.id });
  assert.is(role.role, 'Convenor');
  assert.equal(
    { ...res.body, id: 0 },
    {
      code: 'SIT101',
      id: 0,
      name: 'Programming',
      my_role: 'Convenor',
      main_convenor_id: role.id,
      main_convenor_user_id: people.convenor.user.id,
      description: 'Programming',
      teaching_period_id: period,
      start_date: '2026-03-02',
      end_date: '2026-06-01',
      active: true,
      overseer_image_id: null,
      assessment_enabled: true,
      auto_apply_extension_before_deadline: true,
      send_notifications: true,
      enable_sync_enrolments: false,
      enable_sync_timetable: false,
      draft_task_definition_id: null,
      extension_weeks_on_resubmit_request: 0,
      allow_student_extension_requests: true,
      allow_student_change_tutorial: true,
      ilos: [],
      tutorial_streams: [],
      staff: [
        {
          id: role.id,
          role: 'Convenor',
          user: {
            id: people.convenor.user.id,
            email: 'aconvenor@example.edu',
            first_name: 'Aconvenor',
            last_name: 'Tester',
            username: 'aconvenor',
            nickname: 'aconvenor',
          },
        },
      ],
      tutorials: [],
      task_definitions: [],
      task_outcome_alignments: [],
      group_sets: [],
      groups: [],
      require_feedback_comment: false,
      discuss_timeout_enabled: false,
      discuss_timeout_warning_days: 7,
      discuss_timeout_expire_days: 14,
    },
  );
});

test('an Admin names the main convenor with unit[main_convenor_user_id]: that convenor is main convenor everywhere, with every convenor right', async () => {
  const created = await api(env, 'POST', '/api/units', {
    as: people.admin.creds,
    form: { unit: { code: 'SIT101', name: 'Programming', main_convenor_user_id: people.convenor.user.id } },
  });
  assert.is(created.status, 201, created.text);
  const unit = created.body.id as number;
  const role = await env.orm.em.fork().findOneOrFail(UnitRole, { unit, user: people.convenor.user.id });
  assert.equal([created.body.main_convenor_id, created.body.main_convenor_user_id, role.role], [role.id, people.convenor.user.id, 'Convenor']);
  assert.equal(await env.orm.em.fork().count(UnitRole, { unit }), 1, 'the Admin is not put on the staff: Admins manage every unit anyway');
  for (const who of [people.admin, people.convenor]) {
    const listed = (await api(env, 'GET', '/api/units', { as: who.creds })).body.find((u: { id: number }) => u.id === unit);
    assert.is(listed?.main_convenor_user_id, people.convenor.user.id, who.creds.username);
  }
  const full = await api(env, 'GET', `/api/units/${unit}`, { as: people.convenor.creds });
  assert.equal([full.status, full.body.main_convenor_id, full.body.my_role], [200, role.id, 'Convenor']);
  // The convenor's rights: the student list, and withdrawing a student (PUT /api/projects/{id}).
  const project = await enrol(env, people.student.user, unit);
  const students = await api(env, 'GET', '/api/students', { as: people.convenor.creds, query: { unit_id: unit } });
  assert.equal([students.status, students.body.map((p: { id: number }) => p.id)], [200, [project]]);
  const withdrawn = await api(env, 'PUT', `/api/projects/${project}`, { as: people.convenor.creds, json: { enrolled: false } });
  assert.equal([withdrawn.status, withdrawn.body.enrolled], [200, false], withdrawn.text);
});

test('unit[main_convenor_user_id] must name someone who may convene: a student 400, an unknown user 404; no unit is made', async () => {
  const student = await api(env, 'POST', '/api/units', {
    as: people.admin.creds,
    json: { unit: { code: 'S', name: 'S', main_convenor_user_id: people.student.user.id } },
  });
  assert.equal(
    [student.status, student.body],
    [400, { error: 'Validation failed: User must have a role that is able to administer units (request admin to adjust user role)' }],
  );
  const unknown = await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'U', name: 'U', main_convenor_user_id: 99999 } } });
  assert.equal([unknown.status, unknown.body], [404, { error: 'Unable to find requested User' }]);
  assert.is(await env.orm.em.fork().count(Unit, {}), 0);
  // A convenor who names a colleague keeps a Convenor role in the unit they made.
  const colleague = await api(env, 'POST', '/api/units', {
    as: people.convenor.creds,
    json: { unit: { code: 'C', name: 'C', main_convenor_user_id: people.admin.user.id } },
  });
  assert.is(colleague.status, 201, colleague.text);
  assert.is(colleague.body.main_convenor_user_id, people.admin.user.id);
  const roles = await env.orm.em.fork().find(UnitRole, { unit: colleague.body.id }, { orderBy: { id: 'asc' } });
  assert.equal(
    roles.map((r) => [(r.user as unknown as { id: number }).id, r.role]),
    [
      [people.admin.user.id, 'Convenor'],
      [people.convenor.user.id, 'Convenor'],
    ],
  );
});

test('POST /api/units as a form with every field; without a period or dates it starts the coming Monday for 16 weeks', async () => {
  const res = await api(env, 'POST', '/api/units', {
    as: people.admin.creds,
    form: {
      unit: {
        code: 'X1',
        name: 'Full',
        description: 'All of it',
        active: 'false',
        start_date: '2026-04-06',
        end_date: '2026-07-03',
        main_convenor_user_id: people.convenor.user.id,
        send_notifications: 'false',
        enable_sync_timetable: 'true',
        enable_sync_enrolments: 'true',
        allow_student_extension_requests: 'false',
        auto_apply_extension_before_deadline: 'false',
        extension_weeks_on_resubmit_request: '2',
        portfolio_auto_generation_date: '2026-06-30',
        allow_student_change_tutorial: 'false',
      },
    },
  });
  assert.is(res.status, 201);
  assert.is(res.body.main_convenor_user_id, people.convenor.user.id, 'the convenor named, not the Admin who created it');
  const u = await unitRow(res.body.id);
  assert.equal(
    [u.description, u.active, u.startDate, u.endDate, u.sendNotifications, u.enableSyncTimetable, u.enableSyncEnrolments, u.allowStudentExtensionRequests],
    ['All of it', false, '2026-04-06', '2026-07-03', false, true, true, false],
  );
  assert.equal(
    [u.autoApplyExtensionBeforeDeadline, u.extensionWeeksOnResubmitRequest, u.portfolioAutoGenerationDate, u.allowStudentChangeTutorial],
    [false, 2, '2026-06-30', false],
  );
  assert.not.ok('teaching_period_id' in res.body);

  // The test clock stands on Monday 2026-03-02: the coming Monday is a week later.
  const bare = await api(env, 'POST', '/api/units', { as: people.convenor.creds, json: { unit: { code: 'X2', name: 'Bare' } } });
  assert.equal([bare.status, bare.body.start_date, bare.body.end_date], [201, '2026-03-09', '2026-06-29']);
});

test('POST /api/units refusals: tutors and students 403, dates with a period 403, duplicate code 400, bad dates 400, unknown period 404', async () => {
  const period = await seedPeriod(env);
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'POST', '/api/units', { as: who.creds, json: { unit: { code: 'N', name: 'No' } } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to create a unit' }]);
  }
  const both = await api(env, 'POST', '/api/units', {
    as: people.admin.creds,
    json: { unit: { code: 'N', name: 'No', teaching_period_id: period, start_date: '2026-03-02' } },
  });
  assert.equal([both.status, both.body], [403, { error: 'Cannot specify dates as teaching period is selected' }]);
  assert.is(
    (await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'D', name: 'One', teaching_period_id: period } } })).status,
    201,
  );
  const dup = await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'D', name: 'Two', teaching_period_id: period } } });
  assert.equal([dup.status, dup.body], [400, { error: 'Code D already exists in this teaching period' }]);
  const backwards = await api(env, 'POST', '/api/units', {
    as: people.admin.creds,
    json: { unit: { code: 'E', name: 'E', start_date: '2026-05-01', end_date: '2026-04-01' } },
  });
  assert.equal([backwards.status, backwards.body], [400, { error: 'End date should be after the start date' }]);
  const missing = await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'F' } } });
  assert.equal([missing.status, missing.body], [400, { error: 'unit[name] is missing' }]);
  assert.is((await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'G', name: 'G', teaching_period_id: 'x' } } })).status, 400);
  assert.is((await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'G', name: 'G', teaching_period_id: 999 } } })).status, 404);
  assert.is(await env.orm.em.fork().count(Unit, {}), 1, 'only the one good unit was made');
});

// ---- PUT /api/units/{id} -----------------------------------------------------------------------

test('PUT /api/units/{id}: answers with the fields sent, stores them; a new start date moves the task definitions', async () => {
  const unit = await seedUnit(env, { code: 'U1' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const td = await seedDefinition(unit, 'T1');
  const res = await api(env, 'PUT', `/api/units/${unit}`, {
    as: people.convenor.creds,
    json: { unit: { name: 'Renamed', start_date: '2026-03-09', send_notifications: false, extension_weeks_on_resubmit_request: 1 } },
  });
  assert.equal([res.status, res.body], [200, { name: 'Renamed', start_date: '2026-03-09', send_notifications: false, extension_weeks_on_resubmit_request: 1 }]);
  const u = await unitRow(unit);
  assert.equal([u.name, u.startDate, u.sendNotifications, u.extensionWeeksOnResubmitRequest], ['Renamed', '2026-03-09', false, 1]);
  const moved = await env.orm.em.fork().findOneOrFail(TaskDefinition, { id: td });
  assert.equal([moved.startDate, moved.targetDate, moved.dueDate], ['2026-03-09', '2026-03-20', '2026-03-27']);
});

test('PUT /api/units/{id}: a teaching period sets its dates, -1 leaves it, and dates with a period are refused', async () => {
  const period = await seedPeriod(env, {
    startDate: new Date('2026-07-06T00:00:00Z'),
    endDate: new Date('2026-10-02T00:00:00Z'),
    activeUntil: new Date('2026-11-01T00:00:00Z'),
  });
  const unit = await seedUnit(env, { code: 'U2' });
  const into = await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, form: { unit: { teaching_period_id: String(period) } } });
  assert.is(into.status, 200);
  let u = await unitRow(unit);
  assert.equal([(u.teachingPeriod as unknown as { id: number }).id, u.startDate, u.endDate], [period, '2026-07-06', '2026-10-02']);
  const both = await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { teaching_period_id: period, end_date: '2026-12-01' } } });
  assert.equal([both.status, both.body], [400, { error: 'teaching_period_id, end_date are mutually exclusive' }]);
  assert.is((await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { teaching_period_id: -1 } } })).status, 200);
  u = await unitRow(unit);
  assert.equal([u.teachingPeriod, u.startDate], [null, '2026-07-06']);
});

test('PUT /api/units/{id}: draft_task_definition_id must be a single-document task definition of this unit', async () => {
  const unit = await seedUnit(env, { code: 'U3' });
  const other = await seedUnit(env, { code: 'U4' });
  const good = await seedDefinition(unit, 'D1', { uploadRequirements: [{ key: 'file0', name: 'Summary', type: 'document' }] });
  const code = await seedDefinition(unit, 'D2', { uploadRequirements: [{ key: 'file0', name: 'Code', type: 'code' }] });
  const elsewhere = await seedDefinition(other, 'D3', { uploadRequirements: [{ key: 'file0', name: 'Summary', type: 'document' }] });
  const put = (draft: unknown) => api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { draft_task_definition_id: draft } } });
  assert.equal((await put(elsewhere)).body, { error: 'Draft task definition ID does not belong to unit' });
  assert.equal((await put(999)).body, { error: 'Draft task definition ID does not belong to unit' });
  const wrong = await put(code);
  assert.equal([wrong.status, wrong.body], [403, { error: 'Task definition should contain only a single document upload' }]);
  assert.equal((await unitRow(unit)).draftTaskDefinition, null);
  assert.equal((await put(good)).body, { draft_task_definition_id: good });
  assert.is((await unitRow(unit)).draftTaskDefinition!.id, good);
  assert.equal((await put(null)).body, { draft_task_definition_id: null });
  assert.is((await unitRow(unit)).draftTaskDefinition, null);
});

test('PUT /api/units/{id}: main convenor must be a Convenor role of the unit; tutors, students, other convenors refused; unknown 404', async () => {
  const unit = await seedUnit(env, { code: 'U5' });
  const convenorRole = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const bad = await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { main_convenor_id: tutorRole } } });
  assert.equal([bad.status, bad.body], [400, { error: 'Main convenor must be a convenor of this unit' }]);
  assert.is((await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { main_convenor_id: convenorRole } } })).status, 200);
  const otherConvenor = await api(env, 'POST', '/api/units', { as: people.admin.creds, json: { unit: { code: 'Z', name: 'Z' } } });
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'PUT', `/api/units/${unit}`, { as: who.creds, json: { unit: { name: 'Hacked' } } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to update this unit' }]);
  }
  assert.ok(otherConvenor.status === 201);
  assert.is((await unitRow(unit)).name, 'Unit U5');
  assert.is((await api(env, 'PUT', '/api/units/999', { as: people.admin.creds, json: { unit: { name: 'X' } } })).status, 404);
  assert.is((await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { active: 'perhaps' } } })).status, 400);
  assert.is((await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { name: '' } } })).status, 400);
  const portfolio = await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, json: { unit: { portfolio_auto_generation_date: '2026-03-02' } } });
  assert.equal(
    [portfolio.status, portfolio.body],
    [400, { error: 'Portfolio auto generation date should be after the start date and not after the end date' }],
  );
});

test('my_role has one resolution: someone enrolled in a unit they also teach is Tutor there in every list', async () => {
  const unit = await seedUnit(env, { code: 'ROLE' });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.tutor.user, unit);
  const projects = await api(env, 'GET', '/api/projects', { as: people.tutor.creds });
  assert.equal(
    projects.body.map((p: { unit: { my_role: string } }) => p.unit.my_role),
    ['Tutor'],
  );
  const roles = await api(env, 'GET', '/api/unit_roles', { as: people.tutor.creds });
  assert.equal(
    roles.body.map((r: { unit: { my_role: string } }) => r.unit.my_role),
    ['Tutor'],
  );
  assert.is((await api(env, 'GET', `/api/units/${unit}`, { as: people.tutor.creds })).body.my_role, 'Tutor');
});

test('tRPC: units.list and units.update through the caller', async () => {
  const unit = await seedUnit(env, { code: 'T9' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const listed = await caller.units.list({});
  assert.equal(
    listed.map((u) => [u.code, u.my_role]),
    [['T9', 'Convenor']],
  );
  assert.equal(await caller.units.update({ id: unit, unit: { description: 'Now described' } }), { description: 'Now described' });
  // Breaks play no part in a unit's own dates.
  assert.is(await env.orm.em.fork().count(Break, {}), 0);
});

test.run();
