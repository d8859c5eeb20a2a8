// Required discussion (docs/discussion-prompts.md): on a definition with requires_discussion, a
// staff change to complete is refused (400, nothing written) unless the task has been in discuss
// or demonstrate since its last submission, on every staff path that can complete a task: the
// REST trigger, batch marking, applied feedback templates, a test-attempt override and the week
// end; an automatic result is left alone instead. Entering discuss is what counts, and a
// resubmission after it makes complete refused again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import { changeTask } from '../../src/operations/tasks/change-task.ts';
import { ROLE } from '../../src/policy/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { Actor, People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { attemptsUrl, setScorm } from '../support/scorm-world.ts';
import { freshEachTest } from '../support/suite.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { seedGroupIn } from '../support/seed-tutorials.ts';
import { anotherStudent, taskWorld, type TaskWorld } from '../support/task-world.ts';

const test = suite('REST required discussion');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const REFUSED = /must be discussed with the student before it is complete/;
const k = () => db(env.orm.em.fork());

async function world(): Promise<TaskWorld> {
  const w = await taskWorld(env, people);
  const res = await api(env, 'PUT', `/api/units/${w.unit}/task_definitions/${w.td}`, {
    as: people.convenor.creds,
    form: { 'task_def[requires_discussion]': 'true' },
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.requires_discussion, true);
  return w;
}

/** A minute later: each step of a test happens at its own time (the test clock stands still otherwise). */
const later = () => env.clock.advance(60_000);

async function trigger(as: Actor, w: TaskWorld, word: string, extra: Record<string, unknown> = {}) {
  later();
  return api(env, 'PUT', `/api/projects/${w.project}/task_def_id/${w.td}`, { as: as.creds, json: { trigger: word, ...extra } });
}

async function task(w: TaskWorld) {
  return k()
    .selectFrom('tasks')
    .select(['id', 'status', 'moved_to_discuss_at', 'submission_date', 'times_assessed'])
    .where('project_id', '=', w.project)
    .where('task_definition_id', '=', w.td)
    .executeTakeFirstOrThrow();
}

const comments = async () =>
  Number(
    (
      await k()
        .selectFrom('task_comments')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The student hands the work in: ready for feedback. */
async function handIn(w: TaskWorld) {
  const res = await trigger(people.student, w, 'ready_for_feedback');
  assert.is(res.status, 200, res.text);
}

test('the definition JSON: requires_discussion defaults to false, set by form or JSON, shown to students too', async () => {
  const w = await taskWorld(env, people);
  const created = await api(env, 'POST', `/api/units/${w.unit}/task_definitions`, {
    as: people.convenor.creds,
    json: {
      task_def: {
        name: 'Talked over',
        abbreviation: 'T2',
        description: 'x',
        weighting: 1,
        target_grade: 0,
        start_date: '2026-03-02',
        target_date: '2026-03-20',
        restrict_status_updates: false,
        plagiarism_warn_pct: 50,
        is_graded: false,
        max_quality_pts: 0,
        requires_discussion: true,
      },
    },
  });
  assert.is(created.status, 201, created.text);
  assert.is(created.body.requires_discussion, true);
  const off = await api(env, 'PUT', `/api/units/${w.unit}/task_definitions/${created.body.id}`, {
    as: people.convenor.creds,
    json: { task_def: { requires_discussion: false } },
  });
  assert.is(off.body.requires_discussion, false);
  const bad = await api(env, 'PUT', `/api/units/${w.unit}/task_definitions/${w.td}`, {
    as: people.convenor.creds,
    form: { 'task_def[requires_discussion]': 'maybe' },
  });
  assert.is(bad.status, 400, bad.text);
  assert.match(bad.body.error, /requires_discussion/);
  const unit = await api(env, 'GET', `/api/units/${w.unit}`, { as: people.student.creds });
  assert.is(unit.status, 200, unit.text);
  const p1 = unit.body.task_definitions.find((d: { id: number }) => d.id === w.td);
  assert.is(p1.requires_discussion, false);
});

test('REST trigger: complete refused (400, nothing written) until the task was in discuss; entering discuss is recorded; a resubmission needs another', async () => {
  const w = await world();
  await handIn(w);
  const before = await task(w);
  const commentsBefore = await comments();
  const refused = await trigger(people.tutor, w, 'complete', { comment: 'Looks good' });
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.body.error, REFUSED);
  assert.equal(await task(w), before, 'the task is as it was');
  assert.is(await comments(), commentsBefore, 'no comment written, not even the feedback sent with it');

  assert.is((await trigger(people.tutor, w, 'discuss')).status, 200);
  const discussing = await task(w);
  assert.is(discussing.status, 'discuss');
  assert.ok(discussing.moved_to_discuss_at !== null, 'entering discuss records when');
  const done = await trigger(people.tutor, w, 'complete');
  assert.is(done.status, 200, done.text);
  assert.is((await task(w)).status, 'complete');

  // Back for more work: a resubmission after the discussion needs a new one.
  assert.is((await trigger(people.tutor, w, 'fix_and_resubmit')).status, 200);
  await handIn(w);
  const resubmitted = await task(w);
  assert.ok(new Date(resubmitted.submission_date!) > new Date(resubmitted.moved_to_discuss_at!));
  const again = await trigger(people.convenor, w, 'complete');
  assert.is(again.status, 400, again.text);
  assert.match(again.body.error, REFUSED);
  assert.is((await trigger(people.tutor, w, 'demonstrate')).status, 200);
  assert.is((await trigger(people.convenor, w, 'complete')).status, 200);
  assert.is((await task(w)).status, 'complete');
});

test('REST trigger: a definition without requires_discussion completes at once; other statuses are never refused', async () => {
  const w = await taskWorld(env, people);
  await handIn(w);
  assert.is((await trigger(people.tutor, w, 'complete')).status, 200);
  const r = await world();
  await handIn(r);
  for (const word of ['fix_and_resubmit', 'redo', 'feedback_exceeded']) assert.is((await trigger(people.tutor, r, word)).status, 200, word);
});

test('batch marking: a complete row without discussion is that row’s error and writes nothing; after discuss it applies', async () => {
  const w = await world();
  await handIn(w);
  const header = "Username,Name,Tutorial,Task,Student's Last Comment,Your Last Comment,Status,New Grade,New Quality,Max Quality,New Comment";
  const upload = (status: string) => {
    later();
    const csv = `${header}\r\nastudent,Astudent Tester,T1,P1,,,${status},,,,Nice work\r\n`;
    return api(env, 'POST', '/api/submission/assess', {
      as: people.tutor.creds,
      multipart: { unit_id: String(w.unit), file: { filename: 'marks.csv', contentType: 'text/csv', data: Buffer.from(csv) } },
    });
  };
  const before = await task(w);
  const commentsBefore = await comments();
  const res = await upload('complete');
  assert.is(res.status, 201, res.text);
  assert.equal(res.body.success, []);
  assert.is(res.body.errors.length, 1, res.text);
  assert.match(res.body.errors[0].message, REFUSED);
  assert.equal(await task(w), before);
  assert.is(await comments(), commentsBefore);

  const discussed = await upload('discuss');
  assert.is(discussed.body.success.length, 1, discussed.text);
  const done = await upload('complete');
  assert.equal(done.body.errors, [], done.text);
  assert.is((await task(w)).status, 'complete');
});

test('feedback templates applied with their complete status: 400 and nothing written; after discuss they apply', async () => {
  const w = await world();
  await handIn(w);
  const group = await api(env, 'POST', `/api/units/${w.unit}/feedback_template_groups`, { as: people.convenor.creds, json: { name: 'General' } });
  const template = await api(env, 'POST', `/api/units/${w.unit}/feedback_templates`, {
    as: people.convenor.creds,
    json: { group_id: group.body.id, title: 'Done', text: 'Well done {student_first_name}', suggested_status: 'complete' },
  });
  assert.is(template.status, 201, template.text);
  const apply = () => {
    later();
    return api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/feedback_templates`, {
      as: people.tutor.creds,
      json: { template_ids: [template.body.id], apply_status: true },
    });
  };
  const before = await task(w);
  const commentsBefore = await comments();
  const refused = await apply();
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.body.error, REFUSED);
  assert.equal(await task(w), before);
  assert.is(await comments(), commentsBefore);
  assert.equal(await k().selectFrom('feedback_template_uses').select('id').execute(), [], 'no use recorded');

  assert.is((await trigger(people.tutor, w, 'discuss')).status, 200);
  const applied = await apply();
  assert.is(applied.status, 201, applied.text);
  assert.is(applied.body.status, 'complete');
});

test('a test-attempt override whose pass status is complete: 400 and the attempt unchanged; after discuss it applies', async () => {
  const w = await world();
  await setScorm(env, w.td, { scorm_enabled: true, scorm_bypass_test: true, scorm_pass_status: 'complete', scorm_trust: 'staff' });
  const started = await api(env, 'POST', attemptsUrl(w), { as: people.student.creds });
  assert.is(started.status, 201, started.text);
  const ended = await api(env, 'PATCH', `/api/test_attempts/${started.body.id}`, {
    as: people.student.creds,
    json: {
      cmi_datamodel: JSON.stringify({ 'cmi.completion_status': 'completed', 'cmi.success_status': 'passed', 'cmi.score.scaled': '1' }),
      terminated: true,
    },
  });
  assert.is(ended.status, 200, ended.text);
  const attempt = () => k().selectFrom('test_attempts').select('success_status').where('id', '=', started.body.id).executeTakeFirstOrThrow();
  const before = await attempt();
  const override = () => {
    later();
    return api(env, 'PATCH', `/api/test_attempts/${started.body.id}?success_status=true`, { as: people.tutor.creds, json: {} });
  };
  const refused = await override();
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.body.error, REFUSED);
  assert.equal(await attempt(), before, 'the override is not recorded either');

  assert.is((await trigger(people.tutor, w, 'discuss')).status, 200);
  const res = await override();
  assert.is(res.status, 200, res.text);
  assert.is((await task(w)).status, 'complete');
});

test('the week end completes the tasks in discuss: they are being discussed, so it is allowed', async () => {
  const w = await world();
  await handIn(w);
  assert.is((await trigger(people.tutor, w, 'discuss')).status, 200);
  later();
  const res = await api(env, 'PUT', `/api/projects/${w.project}`, { as: people.tutor.creds, json: { trigger: 'trigger_week_end' } });
  assert.is(res.status, 200, res.text);
  assert.is((await task(w)).status, 'complete');
});

test('an automatic result to complete (an assessment passing) leaves an undiscussed task as it is, without an error', async () => {
  const w = await world();
  await handIn(w);
  const { id } = await task(w);
  const before = await task(w);
  const result = await env.orm.em
    .fork()
    .transactional((em) =>
      changeTask(
        em,
        id,
        { actor: { userId: people.tutor.user.id, role: ROLE.tutor }, change: { kind: 'automated', target: 'complete', onlyFrom: 'ready_for_feedback' } },
        env.clock.now(),
      ),
    );
  assert.is(result.applied, false);
  assert.equal(await task(w), before);
  // An automatic fix and resubmit is not held back.
  const fix = await env.orm.em
    .fork()
    .transactional((em) =>
      changeTask(
        em,
        id,
        { actor: { userId: people.tutor.user.id, role: ROLE.tutor }, change: { kind: 'automated', target: 'fix_and_resubmit' } },
        env.clock.now(),
      ),
    );
  assert.is(fix.applied, true);
  assert.is((await task(w)).status, 'fix_and_resubmit');
});

test('group work: the task acted on is checked; the members follow its discuss and its complete together', async () => {
  const w = await taskWorld(env, people);
  const bob = await anotherStudent(env, w, 'bstudent');
  const { groupSet } = await seedGroupIn(env, w.unit, w.tutorial, { members: [w.project, bob.project] });
  const g1 = await seedTaskDefinition(env, w.unit, 'G1', { groupSet });
  await k().updateTable('task_definitions').set({ requires_discussion: true }).where('id', '=', g1).execute();
  const g = { ...w, td: g1 };
  await handIn(g);
  const members = () =>
    k().selectFrom('tasks').select(['project_id', 'status', 'moved_to_discuss_at']).where('task_definition_id', '=', g1).orderBy('project_id').execute();
  assert.equal(
    (await members()).map((t) => t.status),
    ['ready_for_feedback', 'ready_for_feedback'],
  );
  const refused = await trigger(people.tutor, g, 'complete');
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.body.error, REFUSED);
  assert.equal(
    (await members()).map((t) => t.status),
    ['ready_for_feedback', 'ready_for_feedback'],
    'no member moved',
  );
  assert.is((await trigger(people.tutor, g, 'discuss')).status, 200);
  assert.ok(
    (await members()).every((t) => t.status === 'discuss' && t.moved_to_discuss_at !== null),
    'each member entered discuss',
  );
  assert.is((await trigger(people.tutor, g, 'complete')).status, 200);
  assert.equal(
    (await members()).map((t) => t.status),
    ['complete', 'complete'],
  );
});

test.run();
