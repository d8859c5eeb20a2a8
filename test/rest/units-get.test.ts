// GET /api/units/{id}: the full unit the web client maps, in a fixed number of statements.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ActivityType,
  Group,
  GroupMembership,
  GroupSet,
  LearningAlignment,
  LearningOutcome,
  Project,
  TaskDefinition,
  Tutorial,
  TutorialEnrolment,
  TutorialStream,
  User,
} from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('units: the full unit');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A unit with `students` enrolled students spread over `tutorials` tutorials, and one of each other collection. */
async function populatedUnit(students: number, tutorials: number, code = 'BIG') {
  const unit = await seedUnit(env, { code });
  const main = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const em = env.orm.em.fork();
  const type = em.create(ActivityType, { name: `Lab ${code}`, abbreviation: code === 'BIG' ? 'lab' : `lab${code}` });
  const stream = em.create(TutorialStream, { unit, activityType: type, name: 'Lab 1', abbreviation: 'lab 1' });
  const tuts = Array.from({ length: tutorials }, (_, i) =>
    em.create(Tutorial, {
      unit,
      tutorialStream: stream,
      tutor: tutorRole,
      abbreviation: `L${i}`,
      meetingDay: 'Tue',
      meetingTime: '10:00',
      meetingLocation: 'R1',
      capacity: 30,
    }),
  );
  const ilo = em.create(LearningOutcome, { unit, iloNumber: 1, abbreviation: 'ILO1', name: 'Think', description: 'Think well' });
  const td = em.create(TaskDefinition, {
    plagiarismChecks: [],
    unit,
    tutorialStream: stream,
    name: 'Task 1',
    abbreviation: '1.1P',
    description: 'First',
    weighting: 4,
    startDate: '2026-03-02',
    targetDate: '2026-03-13',
    uploadRequirements: [{ key: 'file0', name: 'Report', type: 'document', tii_check: true, tii_pct: 35 }],
  });
  const set = em.create(GroupSet, { unit, name: 'Teams' });
  await em.flush();
  const group = em.create(Group, { groupSet: set, tutorial: tuts[0], name: 'Team A' });
  const alignment = em.create(LearningAlignment, { taskDefinition: td, learningOutcome: ilo, rating: 3, description: 'Strong' });
  for (let i = 0; i < students; i++) {
    const user = em.create(User, {
      username: `${code}s${i}`,
      email: `${code}s${i}@example.edu`,
      firstName: 'S',
      lastName: `${i}`,
      nickname: null,
      systemRole: 'Student',
      passwordHash: 'x',
    } as never);
    const project = em.create(Project, { unit, user });
    em.create(TutorialEnrolment, { project, tutorial: tuts[i % tutorials] });
    if (i < 2) em.create(GroupMembership, { group, project });
  }
  await em.flush();
  return { unit, main, tutorRole, stream: stream.id, tutorial: tuts[0].id, ilo: ilo.id, td: td.id, set: set.id, group: group.id, alignment: alignment.id };
}

test('staff get every collection the web client maps, with counts', async () => {
  const u = await populatedUnit(5, 2);
  const res = await api(env, 'GET', `/api/units/${u.unit}`, { as: people.tutor.creds });
  assert.is(res.status, 200, res.text);
  const body = res.body;
  assert.equal([body.code, body.my_role, body.main_convenor_id, body.main_convenor_user_id], ['BIG', 'Tutor', u.main, people.convenor.user.id]);
  assert.equal(body.ilos, [{ id: u.ilo, ilo_number: 1, abbreviation: 'ILO1', name: 'Think', description: 'Think well' }]);
  assert.equal(body.tutorial_streams, [{ id: u.stream, name: 'Lab 1', abbreviation: 'lab 1', activity_type: 'lab' }]);
  assert.equal(
    body.staff.map((s: { id: number; role: string; user: { username: string } }) => [s.id, s.role, s.user.username]),
    [
      [u.main, 'Convenor', 'aconvenor'],
      [u.tutorRole, 'Tutor', 'atutor'],
    ],
  );
  assert.equal(body.tutorials[0], {
    id: u.tutorial,
    meeting_day: 'Tue',
    meeting_time: '10:00',
    meeting_location: 'R1',
    abbreviation: 'L0',
    capacity: 30,
    tutorial_stream_abbr: 'lab 1',
    num_students: 3,
    tutor_id: people.tutor.user.id,
  });
  assert.equal(body.task_definitions, [
    {
      id: u.td,
      abbreviation: '1.1P',
      name: 'Task 1',
      description: 'First',
      weighting: 4,
      target_grade: 0,
      target_date: '2026-03-13',
      due_date: '2026-12-01',
      start_date: '2026-03-02',
      upload_requirements: [{ key: 'file0', name: 'Report', type: 'document', tii_check: true, tii_pct: 35 }],
      tutorial_stream_abbr: 'lab 1',
      group_set_id: null,
      has_task_sheet: false,
      has_task_resources: false,
      is_graded: false,
      max_quality_pts: 0,
      scorm_enabled: false,
      has_scorm_data: false,
      scorm_allow_review: false,
      scorm_bypass_test: false,
      scorm_time_delay_enabled: false,
      scorm_attempt_limit: 0,
      requires_discussion: false,
      plagiarism_checks: [],
      plagiarism_warn_pct: 50,
      restrict_status_updates: false,
      has_task_assessment_resources: false,
      overseer_image_id: null,
      assessment_enabled: false,
      moss_language: null,
      scorm_trust: 'package',
      scorm_pass_status: null,
      scorm_version: null,
      scorm_launch_file: null,
    },
  ]);
  assert.equal(body.task_outcome_alignments, [{ id: u.alignment, description: 'Strong', rating: 3, learning_outcome_id: u.ilo, task_definition_id: u.td }]);
  assert.equal(body.group_sets, [
    {
      id: u.set,
      name: 'Teams',
      allow_students_to_create_groups: true,
      allow_students_to_manage_groups: true,
      keep_groups_in_same_class: false,
      capacity: null,
      locked: false,
    },
  ]);
  assert.equal(body.groups, [
    { id: u.group, name: 'Team A', tutorial_id: u.tutorial, group_set_id: u.set, student_count: 2, capacity_adjustment: 0, locked: false },
  ]);
  assert.is(body.send_notifications, true, 'staff see the settings');
  assert.not.ok('overseer_image_id' in body, 'tutors do not see the overseer image');
});

test('students see the collections without the staff-only fields; outsiders are refused; admins see any unit', async () => {
  const u = await populatedUnit(1, 1);
  await enrol(env, people.student.user, u.unit);
  const res = await api(env, 'GET', `/api/units/${u.unit}`, { as: people.student.creds });
  assert.equal([res.status, res.body.my_role], [200, 'Student']);
  for (const key of ['send_notifications', 'draft_task_definition_id', 'extension_weeks_on_resubmit_request', 'overseer_image_id'])
    assert.not.ok(key in res.body, key);
  assert.equal(res.body.task_definitions[0].upload_requirements, [{ key: 'file0', name: 'Report', type: 'document' }]);
  assert.not.ok('plagiarism_checks' in res.body.task_definitions[0]);
  assert.is(res.body.tutorials.length, 1);

  const outsider = await api(env, 'GET', `/api/units/${u.unit}`, { as: (await otherConvenor()).creds });
  assert.equal([outsider.status, outsider.body], [403, { error: `Couldn't find Unit with id=${u.unit}` }]);
  const admin = await api(env, 'GET', `/api/units/${u.unit}`, { as: people.admin.creds });
  assert.equal([admin.status, admin.body.my_role, admin.body.overseer_image_id], [200, 'Admin', null]);
  assert.is((await api(env, 'GET', '/api/units/999', { as: people.admin.creds })).status, 404);
  assert.is((await api(env, 'GET', '/api/units/abc', { as: people.admin.creds })).status, 400);
});

async function otherConvenor() {
  const { signedIn } = await import('../support/fixtures.ts');
  return signedIn(env, 'otherconvenor', 'Convenor');
}

test('the same number of statements at 10 and at 200 students', async () => {
  const small = await populatedUnit(10, 2);
  const read = (unit: number) =>
    countStatements(async () => assert.is((await api(env, 'GET', `/api/units/${unit}`, { as: people.convenor.creds })).status, 200));
  await read(small.unit); // the first request also verifies the token, which is then cached
  const atTen = await read(small.unit);
  const big = await populatedUnit(200, 8, 'HUGE');
  const atTwoHundred = await read(big.unit);
  assert.is(atTwoHundred, atTen);
  if (process.env.SHOW_COUNTS) console.log(`GET /api/units/{id}: ${atTen} statements at 10 students, ${atTwoHundred} at 200`);
  assert.ok(atTen <= 12, `${atTen} statements`);
});

test.run();
