import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ActivityType,
  GroupSet,
  Group,
  GroupSubmission,
  LearningAlignment,
  LearningOutcome,
  OverseerImage,
  Task,
  TaskComment,
  TaskDefinition,
  TaskSimilarity,
  Tutorial,
  TutorialEnrolment,
  TutorialStream,
  Unit,
} from '../../schema/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';
import {
  loadTaskDefinitions,
  loadTaskDefinitionsByUnit,
  toTaskDefinition,
  type TaskDefinitionRow,
} from '../../src/operations/units/task_definitions/load-task-definitions.ts';
import { copyTaskDefinition } from '../../src/operations/units/task_definitions/copy-task-definition.ts';

const test = suite('REST /api/units/{unit_id}/task_definitions');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A unit (2026-03-02 to 2026-12-01) convened by people.convenor, tutored by people.tutor, with people.student enrolled. */
async function staffedUnit(code = 'SIT101'): Promise<number> {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  return unit;
}

async function insert(entity: unknown, data: Record<string, unknown>): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(entity as never, data as never) as { id: number };
  await em.flush();
  return row.id;
}

async function seedStream(unit: number, abbreviation: string): Promise<number> {
  const em = env.orm.em.fork();
  const type = (await em.findOne(ActivityType, { abbreviation: 'prac' })) ?? em.create(ActivityType, { name: 'Practical', abbreviation: 'prac' });
  await em.flush();
  return insert(TutorialStream, { unit, activityType: type.id, name: `Stream ${abbreviation}`, abbreviation });
}

const definition = (overrides: Record<string, unknown> = {}) => ({
  name: 'Pass Task 1',
  abbreviation: 'P1',
  description: 'Write a program',
  weighting: 4,
  target_grade: 0,
  start_date: '2026-03-02',
  target_date: '2026-03-13',
  due_date: '2026-03-27',
  restrict_status_updates: false,
  upload_requirements: '[{"key":"file0","name":"Report","type":"document","tii_check":true,"tii_pct":20},{"key":"file1","name":"Code","type":"code"}]',
  plagiarism_checks: '[{"key":"file1","type":"moss python","pattern":"*.py"}]',
  plagiarism_warn_pct: 60,
  is_graded: false,
  max_quality_pts: 5,
  ...overrides,
});

async function create(unit: number, overrides: Record<string, unknown> = {}, as = people.convenor.creds) {
  return api(env, 'POST', `/api/units/${unit}/task_definitions/`, { as, json: { task_def: definition(overrides) } });
}

async function created(unit: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await create(unit, overrides);
  assert.is(res.status, 201, res.text);
  return res.body.id;
}

const stored = (id: number) => env.orm.em.fork().findOne(TaskDefinition, id, { populate: ['tutorialStream', 'groupSet'] });
const count = async (unit: number) => env.orm.em.fork().count(TaskDefinition, { unit });

test('create: 201 with every field of the entity, the JSON strings read as arrays', async () => {
  const unit = await staffedUnit();
  const res = await create(unit);
  assert.is(res.status, 201);
  assert.equal(res.body, {
    id: res.body.id,
    abbreviation: 'P1',
    name: 'Pass Task 1',
    description: 'Write a program',
    weighting: 4,
    target_grade: 0,
    target_date: '2026-03-13',
    due_date: '2026-03-27',
    start_date: '2026-03-02',
    upload_requirements: [
      { key: 'file0', name: 'Report', type: 'document', tii_check: true, tii_pct: 20 },
      { key: 'file1', name: 'Code', type: 'code' },
    ],
    tutorial_stream_abbr: null,
    group_set_id: null,
    has_task_sheet: false,
    has_task_resources: false,
    is_graded: false,
    max_quality_pts: 5,
    scorm_enabled: false,
    has_scorm_data: false,
    scorm_allow_review: false,
    scorm_bypass_test: false,
    scorm_time_delay_enabled: false,
    scorm_attempt_limit: 0,
    requires_discussion: false,
    plagiarism_checks: [{ key: 'file1', type: 'moss python', pattern: '*.py' }],
    plagiarism_warn_pct: 60,
    restrict_status_updates: false,
    has_task_assessment_resources: false,
    overseer_image_id: null,
    assessment_enabled: false,
    moss_language: null,
    scorm_trust: 'package',
    scorm_pass_status: null,
    scorm_version: null,
    scorm_launch_file: null,
  });
  const row = await stored(res.body.id);
  assert.equal([row!.weighting, row!.uploadRequirements.length, row!.dueDate], [4, 2, '2026-03-27']);
});

test('create: form fields with bracketed keys; no due date shows the unit end; group set, stream and image are linked', async () => {
  const unit = await staffedUnit();
  const other = await staffedUnit('SIT102');
  const stream = await seedStream(unit, 'prac');
  const groupSet = await insert(GroupSet, { unit, name: 'Teams' });
  const foreignSet = await insert(GroupSet, { unit: other, name: 'Theirs' });
  const image = await insert(OverseerImage, { name: 'Python', tag: 'python:3' });
  const res = await api(env, 'POST', `/api/units/${unit}/task_definitions`, {
    as: people.admin.creds,
    form: {
      task_def: {
        ...definition({ due_date: '', upload_requirements: '', plagiarism_checks: '' }),
        weighting: '4.0',
        restrict_status_updates: 'true',
        is_graded: 'true',
        group_set_id: String(groupSet),
        tutorial_stream_abbr: 'prac',
        overseer_image_id: String(image),
        assessment_enabled: 'true',
      },
    },
  });
  assert.is(res.status, 201, res.text);
  assert.equal(
    [res.body.due_date, res.body.group_set_id, res.body.tutorial_stream_abbr, res.body.overseer_image_id, res.body.upload_requirements, res.body.is_graded],
    ['2026-12-01', groupSet, 'prac', image, [], true],
  );
  const row = await stored(res.body.id);
  assert.equal([row!.tutorialStream?.id, row!.dueDate, row!.restrictStatusUpdates, row!.assessmentEnabled], [stream, null, true, true]);
  // A group set of another unit is ignored, as the original does.
  const second = await create(unit, { name: 'Two', abbreviation: 'P2', group_set_id: foreignSet, tutorial_stream_abbr: 'prac' });
  assert.is(second.status, 201);
  assert.is(second.body.group_set_id, null);
});

test('create: the rules of the original answer 400 (or 404 for an unknown stream or image), and nothing is stored', async () => {
  const unit = await staffedUnit();
  await created(unit);
  const cases: [Record<string, unknown>, number, string][] = [
    [{ abbreviation: 'P9' }, 400, 'Validation failed: Name has already been taken'],
    [{ name: 'Other' }, 400, 'Validation failed: Abbreviation has already been taken'],
    [{ name: 'X', abbreviation: 'X', target_grade: 4 }, 400, 'Validation failed: Target grade 4 is not a valid target grade'],
    [{ name: 'X', abbreviation: 'X', max_quality_pts: 101 }, 400, 'Validation failed: Max quality pts must be between 0 and 100'],
    [{ name: 'X', abbreviation: 'X', target_date: '2026-03-01' }, 400, 'Validation failed: Target date must not be before the start date'],
    [{ name: 'X', abbreviation: 'X', due_date: '2026-03-12' }, 400, 'Validation failed: Due date must not be before the target date'],
    [
      { name: 'X', abbreviation: 'X', upload_requirements: '{"key":"file0"}' },
      400,
      'Validation failed: Upload requirements is not in a valid format! Should be [ { "key": "...", "name": "...", "type": "...", "tii_check": "...", ' +
        '"tii_pct": "..."}, { ... } ]. Did not contain array.',
    ],
    [
      { name: 'X', abbreviation: 'X', upload_requirements: '[{"key":"file0","name":"R"}]' },
      400,
      'Validation failed: Upload requirements is not in a valid format! Must contain [ { "key": "...", "name": "...", "type": "..."}, { ... } ]. ' +
        'Missing a key for item 1.',
    ],
    [
      { name: 'X', abbreviation: 'X', upload_requirements: '[{"key":"file0","name":"R","type":"document","colour":"red"}]' },
      400,
      'Validation failed: Upload requirements has additional values for item 1 --> key name type colour.',
    ],
    [
      { name: 'X', abbreviation: 'X', upload_requirements: '[{"key":"file0","name":"R","type":"video"}]' },
      400,
      'Validation failed: Upload requirements item 1 has type "video"; expected one of document, code, image',
    ],
    [{ name: 'X', abbreviation: 'X', upload_requirements: 'not json' }, 400, 'Validation failed: Upload requirements is not valid JSON'],
    [
      { name: 'X', abbreviation: 'X', plagiarism_checks: '[{"key":"f","type":"python","pattern":"*.py"}]' },
      400,
      'Validation failed: Plagiarism checks item 1 has type "python"; it must start with "moss "',
    ],
    [
      { name: 'X', abbreviation: 'X', plagiarism_checks: '[{"key":"f","type":"moss c","pattern":"../*.c"}]' },
      400,
      'Validation failed: Plagiarism checks item 1 has a pattern with "/" or ".."',
    ],
    [{ name: 'X', abbreviation: 'X', tutorial_stream_abbr: 'nope' }, 404, 'Unable to find requested Tutorial Stream'],
    [{ name: 'X', abbreviation: 'X', overseer_image_id: 999 }, 404, 'Unable to find requested Overseer Image'],
    [{ name: 'X', abbreviation: 'X', description: 'x'.repeat(4096) }, 400, 'task_def[description] is too long (maximum is 4095 characters)'],
    [{ name: 'X', abbreviation: 'X', start_date: '2026-02-30' }, 400, 'task_def[start_date] is invalid'],
    [{ name: 'X', abbreviation: 'X', weighting: 'heavy' }, 400, 'task_def[weighting] is invalid'],
    [{ name: 'X', abbreviation: 'X', is_graded: 'maybe' }, 400, 'task_def[is_graded] is invalid'],
    [{ name: 'X', abbreviation: 'X', target_date: undefined }, 400, 'task_def[target_date] is missing'],
    [{ name: '', abbreviation: 'X' }, 400, 'task_def[name] is empty'],
  ];
  for (const [overrides, status, error] of cases) {
    const res = await create(unit, overrides);
    assert.equal([res.status, res.body], [status, { error }], JSON.stringify(overrides).slice(0, 80));
  }
  const missing = await api(env, 'POST', `/api/units/${unit}/task_definitions`, { as: people.convenor.creds, json: {} });
  assert.equal([missing.status, missing.body], [400, { error: 'task_def is missing' }]);
  assert.is(await count(unit), 1);
});

test('create: a unit with tutorial streams needs one on every definition', async () => {
  const unit = await staffedUnit();
  await seedStream(unit, 'prac');
  const res = await create(unit, { tutorial_stream_abbr: null });
  assert.equal([res.status, res.body], [400, { error: 'Validation failed: Tutorial stream must be one of the tutorial streams in the unit' }]);
  assert.is(await count(unit), 0);
});

test("create, update, delete: tutors, students and other units' convenors get 403 with the message; unknown ids 404; nothing changes", async () => {
  const unit = await staffedUnit();
  const id = await created(unit);
  const elsewhere = await signedIn(env, 'otherconvenor', 'Convenor');
  await employ(env, elsewhere.user, await seedUnit(env, { code: 'OTHER1' }), 'Convenor');
  const refused = [
    ['POST', `/api/units/${unit}/task_definitions`, 'Not authorised to create a task definition of this unit'],
    ['PUT', `/api/units/${unit}/task_definitions/${id}`, 'Not authorised to create a task definition of this unit'],
    ['DELETE', `/api/units/${unit}/task_definitions/${id}`, 'Not authorised to delete a task definition of this unit'],
  ] as const;
  for (const [method, url, error] of refused) {
    for (const who of [people.tutor, people.student, elsewhere]) {
      const res = await api(env, method, url, { as: who.creds, json: { task_def: definition({ name: 'Changed', abbreviation: 'C1' }) } });
      assert.equal([res.status, res.body], [403, { error }], `${method} as ${who.creds.username}`);
    }
  }
  assert.is((await stored(id))!.name, 'Pass Task 1');
  assert.is(await count(unit), 1);

  for (const [method, url, error] of [
    ['POST', '/api/units/9999/task_definitions', 'Unable to find requested Unit'],
    ['PUT', `/api/units/9999/task_definitions/${id}`, 'Unable to find requested Unit'],
    ['DELETE', `/api/units/9999/task_definitions/${id}`, 'Unable to find requested Unit'],
    ['PUT', `/api/units/${unit}/task_definitions/9999`, 'Unable to find requested Task Definition'],
    ['DELETE', `/api/units/${unit}/task_definitions/9999`, 'Unable to find requested Task Definition'],
    ['GET', `/api/units/${unit}/task_definitions/9999/tasks`, 'Unable to find requested Task Definition'],
  ] as const) {
    const res = await api(env, method, url, { as: people.convenor.creds, json: method === 'GET' ? undefined : { task_def: definition() } });
    assert.equal([res.status, res.body], [404, { error }], `${method} ${url}`);
  }
  const badId = await api(env, 'PUT', `/api/units/${unit}/task_definitions/abc`, { as: people.convenor.creds, json: { task_def: {} } });
  assert.is(badId.status, 400);
});

test("update: only the fields sent change; the web client's whole object with nulls and read-only keys is accepted", async () => {
  const unit = await staffedUnit();
  const id = await created(unit);
  const res = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, {
    as: people.convenor.creds,
    json: { task_def: { name: 'Renamed', target_grade: 2, due_date: null } },
  });
  assert.is(res.status, 200, res.text);
  assert.equal(
    [res.body.name, res.body.target_grade, res.body.due_date, res.body.abbreviation, res.body.max_quality_pts],
    ['Renamed', 2, '2026-12-01', 'P1', 5],
  );
  // The web client sends back what it read, plus ids and file flags, as JSON strings where needed.
  const whole = {
    ...res.body,
    upload_requirements: JSON.stringify([{ key: 'file0', name: 'Essay', type: 'document' }]),
    plagiarism_checks: '[]',
    weighting: '6.0',
  };
  const again = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, { as: people.convenor.creds, json: { task_def: whole } });
  assert.is(again.status, 200, again.text);
  assert.equal(
    [again.body.weighting, again.body.upload_requirements, again.body.plagiarism_checks],
    [6, [{ key: 'file0', name: 'Essay', type: 'document' }], []],
  );
  const empty = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, { as: people.convenor.creds, json: {} });
  assert.equal([empty.status, empty.body.name], [200, 'Renamed']);
  const bad = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, {
    as: people.convenor.creds,
    json: { task_def: { start_date: '2026-04-01' } },
  });
  assert.equal([bad.status, bad.body], [400, { error: 'Validation failed: Target date must not be before the start date' }]);
  assert.is((await stored(id))!.startDate, '2026-03-02');
});

test('update: group sets change until a student submits; removing one drops its group submissions', async () => {
  const unit = await staffedUnit();
  const project = await enrol(env, (await signedIn(env, 'bstudent', 'Student')).user, unit);
  const teams = await insert(GroupSet, { unit, name: 'Teams' });
  const pairs = await insert(GroupSet, { unit, name: 'Pairs' });
  const tutorial = await insert(Tutorial, { unit, abbreviation: 'T1', meetingDay: 'Mon', meetingTime: '10:00', meetingLocation: 'A1' });
  const group = await insert(Group, { groupSet: teams, tutorial, name: 'G1' });
  const id = await created(unit, { group_set_id: teams });
  await insert(GroupSubmission, { group, taskDefinition: id });
  const put = (group_set_id: unknown) =>
    api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, { as: people.convenor.creds, json: { task_def: { group_set_id } } });

  assert.is((await put(pairs)).body.group_set_id, pairs);
  assert.is((await put(teams)).body.group_set_id, teams);
  const removed = await put(-1);
  assert.equal([removed.status, removed.body.group_set_id], [200, null]);
  assert.is(await env.orm.em.fork().count(GroupSubmission, { taskDefinition: id }), 0);
  assert.is((await put(teams)).body.group_set_id, teams);

  await insert(Task, { project, taskDefinition: id, status: 'ready_for_feedback', submissionDate: new Date('2026-03-10T01:00:00Z') });
  const refused = await put(null);
  assert.equal([refused.status, refused.body], [400, { error: 'Validation failed: Group set Unable to change group status of task as submissions exist' }]);
  assert.is((await stored(id))!.groupSet?.id, teams);
});

test("update: the unit's draft learning summary keeps a single document upload (403 otherwise)", async () => {
  const unit = await staffedUnit();
  const id = await created(unit, { upload_requirements: '[{"key":"file0","name":"Summary","type":"document"}]' });
  await env.orm.em.fork().nativeUpdate(Unit, { id: unit }, { draftTaskDefinition: id });
  const res = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, {
    as: people.convenor.creds,
    json: { task_def: { upload_requirements: '[{"key":"file0","name":"Summary","type":"document"},{"key":"file1","name":"Code","type":"code"}]' } },
  });
  assert.equal(
    [res.status, res.body],
    [403, { error: 'Task is marked as the draft learning summary task definition. A draft learning summary task can only contain a single document upload.' }],
  );
  assert.is((await stored(id))!.uploadRequirements.length, 1);
  const same = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${id}`, {
    as: people.convenor.creds,
    json: { task_def: { upload_requirements: '[{"key":"file0","name":"Learning summary","type":"document"}]' } },
  });
  assert.is(same.status, 200);
});

test('delete: 200 true; tasks, alignments and the draft mark go with it', async () => {
  const unit = await staffedUnit();
  await created(unit, { abbreviation: 'KEEP', name: 'Keep' });
  const project = await enrol(env, (await signedIn(env, 'cstudent', 'Student')).user, unit);
  const id = await created(unit);
  const outcome = await insert(LearningOutcome, { unit, iloNumber: 1, abbreviation: 'ILO1', name: 'n', description: 'd' });
  await insert(LearningAlignment, { taskDefinition: id, learningOutcome: outcome, rating: 3 });
  await insert(Task, { project, taskDefinition: id });
  await env.orm.em.fork().nativeUpdate(Unit, { id: unit }, { draftTaskDefinition: id });
  const res = await api(env, 'DELETE', `/api/units/${unit}/task_definitions/${id}`, { as: people.convenor.creds });
  assert.equal([res.status, res.body], [200, true]);
  const em = env.orm.em.fork();
  assert.equal([await em.count(TaskDefinition, { unit }), await em.count(Task, { taskDefinition: id }), await em.count(LearningAlignment, {})], [1, 0, 0]);
  assert.is((await em.findOneOrFail(Unit, unit)).draftTaskDefinition, null);
  assert.is(await em.count(LearningOutcome, { unit }), 1);
});

test("tasks: enrolled students' tasks with their tutorial in the stream, similarity and pending extensions; tutors yes, students no", async () => {
  const unit = await staffedUnit();
  const prac = await seedStream(unit, 'prac');
  const lab = await seedStream(unit, 'lab');
  const id = await created(unit, { tutorial_stream_abbr: 'prac' });
  const other = await created(unit, { name: 'Other', abbreviation: 'P2', tutorial_stream_abbr: 'lab' });
  const alice = await signedIn(env, 'alice', 'Student');
  const bob = await signedIn(env, 'bob', 'Student');
  const gone = await signedIn(env, 'gone', 'Student');
  const aliceProject = await enrol(env, alice.user, unit);
  const bobProject = await enrol(env, bob.user, unit);
  const goneProject = await enrol(env, gone.user, unit, { enrolled: false });
  const pracTutorial = await insert(Tutorial, {
    unit,
    tutorialStream: prac,
    abbreviation: 'P01',
    meetingDay: 'Mon',
    meetingTime: '10:00',
    meetingLocation: 'A1',
  });
  const labTutorial = await insert(Tutorial, {
    unit,
    tutorialStream: lab,
    abbreviation: 'L01',
    meetingDay: 'Tue',
    meetingTime: '10:00',
    meetingLocation: 'A2',
  });
  await insert(TutorialEnrolment, { project: aliceProject, tutorial: labTutorial });
  await insert(TutorialEnrolment, { project: aliceProject, tutorial: pracTutorial });
  const aliceTask = await insert(Task, {
    project: aliceProject,
    taskDefinition: id,
    status: 'discuss',
    submissionDate: new Date('2026-03-10T01:02:03.456Z'),
    completionDate: '2026-03-12',
    timesAssessed: 2,
    grade: 1,
    qualityPts: 3,
  });
  const bobTask = await insert(Task, { project: bobProject, taskDefinition: id });
  await insert(Task, { project: goneProject, taskDefinition: id });
  await insert(Task, { project: aliceProject, taskDefinition: other });
  await insert(TaskSimilarity, { task: aliceTask, kind: 'moss', pct: 40, flagged: true });
  await insert(TaskSimilarity, { task: bobTask, kind: 'moss', pct: 10 }); // not flagged: no flag
  await insert(TaskComment, { task: bobTask, author: bob.user.id, kind: 'extension', extensionWeeksRequested: 1 });
  await insert(TaskComment, {
    task: bobTask,
    author: bob.user.id,
    kind: 'extension',
    extensionWeeksRequested: 1,
    extensionAssessedAt: new Date(),
    extensionGranted: true,
  });

  const res = await api(env, 'GET', `//api//units/${unit}/task_definitions/${id}/tasks`, { as: people.tutor.creds });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, [
    {
      project_id: aliceProject,
      id: aliceTask,
      task_definition_id: id,
      tutorial_id: pracTutorial,
      tutorial_stream_id: prac,
      status: 'discuss',
      completion_date: '2026-03-12',
      submission_date: '2026-03-10T01:02:03.456Z',
      times_assessed: 2,
      similarity_flag: true,
      grade: 1,
      quality_pts: 3,
      has_extensions: 0,
      due_date: '2026-03-13',
      extensions: 0,
      include_in_portfolio: true,
    },
    {
      project_id: bobProject,
      id: bobTask,
      task_definition_id: id,
      tutorial_id: null,
      tutorial_stream_id: null,
      status: 'not_started',
      completion_date: null,
      submission_date: null,
      times_assessed: 0,
      similarity_flag: false,
      grade: null,
      quality_pts: -1,
      has_extensions: 1,
      due_date: '2026-03-13',
      extensions: 0,
      include_in_portfolio: true,
    },
  ]);
  const convenor = await api(env, 'GET', `/api/units/${unit}/task_definitions/${id}/tasks`, { as: people.convenor.creds });
  assert.is(convenor.body.length, 2);
  for (const who of [people.student, people.admin]) {
    const refused = await api(env, 'GET', `/api/units/${unit}/task_definitions/${id}/tasks`, { as: who.creds });
    assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to access tasks for this unit' }], who.creds.username);
  }
  const otherUnit = await staffedUnit('SIT102');
  const foreign = await api(env, 'GET', `/api/units/${otherUnit}/task_definitions/${id}/tasks`, { as: people.convenor.creds });
  assert.is(foreign.status, 404);
});

test('tRPC: create, list tasks and delete through the typed caller', async () => {
  const unit = await staffedUnit();
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const td = await caller.units.taskDefinitions.create({
    unit_id: unit,
    task_def: { ...definition(), upload_requirements: [{ key: 'file0', name: 'R', type: 'document' }] },
  });
  assert.equal(td.upload_requirements, [{ key: 'file0', name: 'R', type: 'document' }]);
  assert.equal(await caller.units.taskDefinitions.tasks({ unit_id: unit, task_def_id: td.id }), []);
  assert.is(await caller.units.taskDefinitions.delete({ unit_id: unit, id: td.id }), true);
});

test('tasks: the same number of statements for 1 and for 8 students (no query per task)', async () => {
  const unit = await staffedUnit();
  const id = await created(unit);
  const tutorial = await insert(Tutorial, { unit, abbreviation: 'T1', meetingDay: 'Mon', meetingTime: '10:00', meetingLocation: 'A1' });
  const addStudents = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const project = await enrol(env, (await signedIn(env, `s${i}`, 'Student')).user, unit);
      await insert(TutorialEnrolment, { project, tutorial });
      const task = await insert(Task, { project, taskDefinition: id, submissionDate: new Date() });
      await insert(TaskComment, { task, author: people.student.user.id, kind: 'extension', extensionWeeksRequested: 1 });
      await insert(TaskSimilarity, { task, kind: 'moss', pct: 10 });
    }
  };
  const read = async () => {
    let body: unknown[] = [];
    const statements = await countStatements(async () => {
      body = (await api(env, 'GET', `/api/units/${unit}/task_definitions/${id}/tasks`, { as: people.tutor.creds })).body;
    });
    return { statements, rows: body.length };
  };
  await addStudents(0, 1);
  await read(); // the first request of a session also looks the session up
  const one = await read();
  await addStudents(1, 8);
  const eight = await read();
  assert.equal([one.rows, eight.rows], [1, 8]);
  assert.is(eight.statements, one.statements);
});

test('loaders and serializer (for the unit page): one query for many units, unit page order, students see no staff fields', async () => {
  const unit = await staffedUnit();
  const other = await staffedUnit('SIT102');
  await created(unit, { name: 'Later', abbreviation: 'B', start_date: '2026-03-09', target_date: '2026-03-20' });
  await created(unit, { name: 'Second', abbreviation: 'Z' });
  await created(unit, { name: 'First', abbreviation: 'A' });
  await created(other, { due_date: null });
  let byUnit = new Map<number, TaskDefinitionRow[]>();
  const statements = await countStatements(async () => {
    byUnit = await loadTaskDefinitionsByUnit(env.orm.em.fork(), [unit, other, 9999]);
  });
  assert.is(statements, 1);
  assert.equal(
    byUnit.get(unit)!.map((d) => d.abbreviation),
    ['A', 'Z', 'B'],
  );
  assert.equal(byUnit.get(9999), []);
  const forStudent = toTaskDefinition(byUnit.get(other)![0]!, { staff: false, unitEndDate: '2026-12-01' });
  assert.equal(Object.keys(forStudent).sort(), [
    'abbreviation',
    'description',
    'due_date',
    'group_set_id',
    'has_scorm_data',
    'has_task_resources',
    'has_task_sheet',
    'id',
    'is_graded',
    'max_quality_pts',
    'name',
    'requires_discussion',
    'scorm_allow_review',
    'scorm_attempt_limit',
    'scorm_bypass_test',
    'scorm_enabled',
    'scorm_time_delay_enabled',
    'start_date',
    'target_date',
    'target_grade',
    'tutorial_stream_abbr',
    'upload_requirements',
    'weighting',
  ]);
  assert.equal(forStudent.upload_requirements, [
    { key: 'file0', name: 'Report', type: 'document' },
    { key: 'file1', name: 'Code', type: 'code' },
  ]);
  assert.is(forStudent.due_date, '2026-12-01');
  assert.equal(
    (await loadTaskDefinitions(env.orm.em.fork(), unit)).map((d) => d.abbreviation),
    ['A', 'Z', 'B'],
  );
});

test('copyTaskDefinition (for rollover): every field, the dates given, and the group set and stream of the same name in the target', async () => {
  const unit = await staffedUnit();
  const target = await staffedUnit('SIT101-2');
  await seedStream(unit, 'prac');
  const targetStream = await seedStream(target, 'prac');
  const teams = await insert(GroupSet, { unit, name: 'Teams' });
  const targetTeams = await insert(GroupSet, { unit: target, name: 'Teams' });
  const id = await created(unit, { group_set_id: teams, tutorial_stream_abbr: 'prac', is_graded: true, target_grade: 3 });
  const em = env.orm.em.fork();
  const copy = await copyTaskDefinition(
    em,
    await em.findOneOrFail(TaskDefinition, id),
    { id: target },
    {
      startDate: '2026-07-13',
      targetDate: '2026-07-24',
      dueDate: null,
    },
  );
  const row = (await stored(copy.id))!;
  assert.equal(
    [
      row.name,
      row.abbreviation,
      row.targetGrade,
      row.isGraded,
      row.maxQualityPts,
      row.plagiarismWarnPct,
      row.uploadRequirements.length,
      row.plagiarismChecks.length,
    ],
    ['Pass Task 1', 'P1', 3, true, 5, 60, 2, 1],
  );
  assert.equal(
    [row.startDate, row.targetDate, row.dueDate, row.groupSet?.id, row.tutorialStream?.id],
    ['2026-07-13', '2026-07-24', null, targetTeams, targetStream],
  );
});

test.run();
