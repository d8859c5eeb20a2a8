// POST /api/units/{id}/rollover and POST /api/teaching_periods/{id}/rollover.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ActivityType,
  Break,
  GroupSet,
  LearningAlignment,
  LearningOutcome,
  TaskDefinition,
  Tutorial,
  TutorialEnrolment,
  TutorialStream,
  Unit,
  UnitRole,
} from '../../schema/index.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { createContext } from '../../src/trpc/context.ts';
import { appRouter } from '../../src/routers/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('rollover: units and teaching periods');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const at = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** T1 2026 (Mon 2 March, break Mon 6 April x2) and T2 2026 (Mon 13 July, break Mon 24 Aug x1). */
async function periods() {
  const t1 = await seedPeriod(env, { period: 'T1', startDate: at('2026-03-02'), endDate: at('2026-06-12'), activeUntil: at('2026-07-01') });
  const t2 = await seedPeriod(env, { period: 'T2', startDate: at('2026-07-13'), endDate: at('2026-10-23'), activeUntil: at('2026-11-01') });
  const em = env.orm.em.fork();
  em.create(Break, { teachingPeriod: t1, startDate: '2026-04-06', numberOfWeeks: 2 });
  em.create(Break, { teachingPeriod: t2, startDate: '2026-08-24', numberOfWeeks: 1 });
  await em.flush();
  return { t1, t2 };
}

/** A unit in T1 with everything rollover copies and everything it leaves behind. */
async function fullUnit(period: number, code = 'SIT101') {
  const unit = await seedUnit(env, { code, teachingPeriod: period, startDate: '2026-03-02', endDate: '2026-06-12' });
  const main = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const em = env.orm.em.fork();
  const type = em.create(ActivityType, { name: `Lab ${code}`, abbreviation: `lab${code}` });
  const stream = em.create(TutorialStream, { unit, activityType: type, name: 'Lab 1', abbreviation: 'lab 1' });
  const tutorial = em.create(Tutorial, {
    unit,
    tutorialStream: stream,
    tutor: tutorRole,
    abbreviation: 'L01',
    meetingDay: 'Mon',
    meetingTime: '9:00',
    meetingLocation: 'R',
    capacity: 20,
  });
  const set = em.create(GroupSet, { unit, name: 'Teams', capacity: 4 });
  const ilo1 = em.create(LearningOutcome, { unit, iloNumber: 1, abbreviation: 'ILO1', name: 'One', description: 'First' });
  const ilo2 = em.create(LearningOutcome, { unit, iloNumber: 2, abbreviation: 'ILO2', name: 'Two', description: 'Second' });
  await em.flush();
  // Week 2 Friday start; target week 6 Wednesday (after the break); due week 8 Sunday.
  const week2 = em.create(TaskDefinition, {
    plagiarismChecks: [],
    unit,
    tutorialStream: stream,
    groupSet: set,
    name: 'Hello',
    abbreviation: '1.1P',
    description: 'Say hello',
    weighting: 2,
    targetGrade: 1,
    startDate: '2026-03-13',
    targetDate: '2026-04-22',
    dueDate: '2026-05-10',
    uploadRequirements: [{ key: 'file0', name: 'Summary', type: 'document' }],
  });
  const noDue = em.create(TaskDefinition, {
    plagiarismChecks: [],
    uploadRequirements: [],
    unit,
    tutorialStream: stream,
    name: 'Later',
    abbreviation: '2.1C',
    description: '',
    startDate: '2026-03-02',
    targetDate: '2026-03-06',
  });
  await em.flush();
  em.create(TutorialEnrolment, { project, tutorial });
  em.create(LearningAlignment, { taskDefinition: week2, learningOutcome: ilo2, rating: 4, description: 'Strong' });
  em.create(LearningAlignment, { taskDefinition: noDue, learningOutcome: ilo1, rating: 1 });
  await em.nativeUpdate(Unit, { id: unit }, { draftTaskDefinition: week2.id, portfolioAutoGenerationDate: '2026-06-05', sendNotifications: false });
  await em.flush();
  return { unit, main };
}

test('POST /api/units/{id}/rollover to a period: settings, main convenor, streams, group sets, outcomes, definitions at the same week, weekday', async () => {
  const { t1, t2 } = await periods();
  const { unit } = await fullUnit(t1);
  const res = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.convenor.creds, json: { teaching_period_id: t2 } });
  assert.is(res.status, 201, res.text);
  const copy = res.body;
  assert.ok(copy.id !== unit);
  assert.equal(
    [copy.code, copy.name, copy.teaching_period_id, copy.start_date, copy.end_date, copy.my_role, copy.send_notifications],
    ['SIT101', 'Unit SIT101', t2, '2026-07-13', '2026-10-23', 'Convenor', false],
  );
  // Week 12 Friday of T1 (after two weeks of break) is week 12 Friday of T2 (after one).
  assert.is(copy.portfolio_auto_generation_date, '2026-10-09');
  assert.equal(
    copy.staff.map((s: { role: string; user: { username: string } }) => [s.role, s.user.username]),
    [['Convenor', 'aconvenor']],
  );
  assert.is(copy.main_convenor_id, copy.staff[0].id);
  assert.equal(
    copy.tutorial_streams.map((s: { name: string; abbreviation: string }) => [s.name, s.abbreviation]),
    [['Lab 1', 'lab 1']],
  );
  assert.equal(
    copy.group_sets.map((g: { name: string; capacity: number }) => [g.name, g.capacity]),
    [['Teams', 4]],
  );
  assert.equal(copy.groups, []);
  assert.equal(copy.tutorials, [], 'no tutorials');
  assert.equal(
    copy.ilos.map((o: { ilo_number: number; abbreviation: string }) => [o.ilo_number, o.abbreviation]),
    [
      [1, 'ILO1'],
      [2, 'ILO2'],
    ],
  );

  const byAbbr = Object.fromEntries(copy.task_definitions.map((d: { abbreviation: string }) => [d.abbreviation, d]));
  const hello = byAbbr['1.1P'];
  // Week 2 Friday; week 6 Wednesday (T1 after its break, T2 before its break); week 8 Sunday (after both).
  assert.equal([hello.start_date, hello.target_date, hello.due_date], ['2026-07-24', '2026-08-19', '2026-09-13']);
  assert.equal([hello.tutorial_stream_abbr, hello.group_set_id, hello.target_grade, hello.weighting], ['lab 1', copy.group_sets[0].id, 1, 2]);
  assert.equal(hello.upload_requirements, [{ key: 'file0', name: 'Summary', type: 'document' }]);
  const later = byAbbr['2.1C'];
  assert.equal([later.start_date, later.target_date, later.due_date], ['2026-07-13', '2026-07-17', '2026-10-23'], 'no due date: the unit end');
  assert.is(copy.draft_task_definition_id, hello.id);

  const ilo = Object.fromEntries(copy.ilos.map((o: { abbreviation: string; id: number }) => [o.abbreviation, o.id]));
  assert.equal(
    copy.task_outcome_alignments.map((a: object) => ({ ...a, id: 0 })),
    [
      { id: 0, description: 'Strong', rating: 4, learning_outcome_id: ilo.ILO2, task_definition_id: hello.id },
      { id: 0, description: null, rating: 1, learning_outcome_id: ilo.ILO1, task_definition_id: later.id },
    ],
  );
  const em = env.orm.em.fork();
  assert.is(await em.count(UnitRole, { unit: copy.id }), 1);
  assert.is(await env.orm.em.fork().count(Unit, {}), 2);
});

test('rollover to dates of its own: no period, no breaks, weeks counted from the new start', async () => {
  const { t1 } = await periods();
  const { unit } = await fullUnit(t1);
  const res = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, form: { start_date: '2027-03-01', end_date: '2027-06-11' } });
  assert.is(res.status, 201, res.text);
  assert.not.ok('teaching_period_id' in res.body);
  assert.equal([res.body.start_date, res.body.end_date, res.body.my_role], ['2027-03-01', '2027-06-11', 'Admin']);
  const hello = res.body.task_definitions.find((d: { abbreviation: string }) => d.abbreviation === '1.1P');
  // Week 6 Wednesday with no break: 2027-03-01 + 5 weeks + 2 days.
  assert.equal([hello.start_date, hello.target_date, hello.due_date], ['2027-03-12', '2027-04-07', '2027-04-25']);
});

test('rollover refusals: tutors and students 403; the same code in the period 400; bad or missing targets 400; unknown 404', async () => {
  const { t1, t2 } = await periods();
  const { unit } = await fullUnit(t1);
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: who.creds, json: { teaching_period_id: t2 } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to rollover this unit' }]);
  }
  const same = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { teaching_period_id: t1 } });
  assert.equal([same.status, same.body], [400, { error: 'Code SIT101 already exists in this teaching period' }]);
  const both = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { teaching_period_id: t2, start_date: '2027-01-01' } });
  assert.equal([both.status, both.body], [400, { error: 'teaching_period_id, start_date are mutually exclusive' }]);
  const none = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { start_date: '2027-01-01' } });
  assert.equal([none.status, none.body], [400, { error: 'teaching_period_id, or start_date and end_date, are missing' }]);
  assert.is((await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { teaching_period_id: 'next' } })).status, 400);
  assert.is((await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { teaching_period_id: 999 } })).status, 404);
  assert.is((await api(env, 'POST', '/api/units/999/rollover', { as: people.admin.creds, json: { teaching_period_id: t2 } })).status, 404);
  assert.is(await env.orm.em.fork().count(Unit, {}), 1, 'nothing was made');
});

test('POST /api/teaching_periods/{id}/rollover copies each active unit once, skipping codes already there; answers null', async () => {
  const { t1, t2 } = await periods();
  await fullUnit(t1, 'AAA');
  await fullUnit(t1, 'BBB');
  await seedUnit(env, { code: 'OLD', teachingPeriod: t1, active: false });
  await seedUnit(env, { code: 'BBB', teachingPeriod: t2 });
  const res = await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, {
    as: people.admin.creds,
    json: { id: t1, new_teaching_period_id: t2, rollover_inactive: false, search_forward: true },
  });
  assert.equal([res.status, res.text], [200, 'null']);
  const inT2 = await env.orm.em.fork().find(Unit, { teachingPeriod: t2 }, { orderBy: { code: 'asc' } });
  assert.equal(
    inT2.map((u) => u.code),
    ['AAA', 'BBB'],
  );
  assert.is(await env.orm.em.fork().count(TaskDefinition, { unit: inT2[0].id }), 2);
  assert.is(await env.orm.em.fork().count(TaskDefinition, { unit: inT2[1].id }), 0, 'the BBB already there is left alone');

  // With rollover_inactive the inactive unit goes too (through the tRPC caller).
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.admin.creds));
  assert.is(
    await caller.teachingPeriods.rollover({ existing_teaching_period_id: t1, new_teaching_period_id: t2, rollover_inactive: true, search_forward: true }),
    null,
  );
  assert.equal(
    (await env.orm.em.fork().find(Unit, { teachingPeriod: t2 }, { orderBy: { code: 'asc' } })).map((u) => u.code),
    ['AAA', 'BBB', 'OLD'],
  );
});

test('teaching period rollover: search_forward copies the newest same-code unit from the periods between', async () => {
  const { t1, t2 } = await periods();
  const t3 = await seedPeriod(env, { period: 'T3', startDate: at('2026-11-02'), endDate: at('2027-02-05'), activeUntil: at('2027-03-01') });
  await seedUnit(env, { code: 'FWD', teachingPeriod: t1, name: 'First run' });
  await seedUnit(env, { code: 'FWD', teachingPeriod: t2, name: 'Second run' });
  const res = await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.admin.creds, form: { new_teaching_period_id: t3 } });
  assert.is(res.status, 200, res.text);
  const copied = await env.orm.em.fork().findOneOrFail(Unit, { teachingPeriod: t3 });
  assert.is(copied.name, 'Second run');
  const noSearch = await seedPeriod(env, { period: 'T4', year: 2027, startDate: at('2027-03-01'), endDate: at('2027-06-01'), activeUntil: at('2027-07-01') });
  await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: noSearch, search_forward: false } });
  assert.is((await env.orm.em.fork().findOneOrFail(Unit, { teachingPeriod: noSearch })).name, 'First run');
});

test('teaching period rollover refusals: not Admin 403, a past or earlier target 403, unknown periods 404, missing target 400', async () => {
  const { t1, t2 } = await periods();
  await seedUnit(env, { code: 'X', teachingPeriod: t2 });
  const refused = await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.convenor.creds, json: { new_teaching_period_id: t2 } });
  assert.equal([refused.status, refused.body], [403, { error: 'Not authorised to rollover a teaching period' }]);
  const backwards = await api(env, 'POST', `/api/teaching_periods/${t2}/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: t1 } });
  assert.equal([backwards.status, backwards.body], [403, { error: 'Units can only be rolled over to future teaching periods' }]);
  const earlier = await seedPeriod(env, { period: 'T3', year: 2025, startDate: at('2025-11-03'), endDate: at('2026-02-06'), activeUntil: at('2026-03-01') });
  const started = await api(env, 'POST', `/api/teaching_periods/${earlier}/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: t1 } });
  assert.equal(
    [started.status, started.body],
    [403, { error: 'Units can only be rolled over to future teaching periods' }],
    'T1 starts today: not in the future',
  );
  assert.is((await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: 999 } })).status, 404);
  assert.is((await api(env, 'POST', `/api/teaching_periods/999/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: t2 } })).status, 404);
  assert.is((await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.admin.creds, json: {} })).status, 400);
  assert.is(await env.orm.em.fork().count(Unit, {}), 1);
});

test.run();
