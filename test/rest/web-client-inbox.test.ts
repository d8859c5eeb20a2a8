import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { freshEachTest } from '../support/suite.ts';
import { taskWorld } from '../support/task-world.ts';

// Requests 9 to 15 of the web client's recorded session (shared/reference/web-client.md §1.6), in
// its own forms: a tutor opens the unit's inbox, selects a task, comments, and marks it complete.
// The client cross-references the answers (§3.3b, §6), so the test checks those links too.
const test = suite('the web client: a tutor works through the task inbox');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

test('inbox, submission details, comments, a comment and "Mark as Complete" answer what the client reads', async () => {
  const w = await taskWorld(env, people);
  const student = { 'Auth-Token': people.student.creds.token, Username: people.student.creds.username };
  const headers = { 'Auth-Token': people.tutor.creds.token, Username: people.tutor.creds.username };
  // The student hands the work in and asks something first.
  assert.is(
    (await api(env, 'PUT', `/api//projects/${w.project}/task_def_id/${w.td}`, { headers: student, json: { trigger: 'ready_for_feedback' } })).status,
    200,
  );
  assert.is(
    (await api(env, 'POST', `/api/projects/${w.project}/task_def_id/${w.td}/comments/`, { headers: student, multipart: { comment: 'Done, I think!' } })).status,
    201,
  );

  const unit = await api(env, 'GET', `/api/units/${w.unit}`, { headers });
  assert.is(unit.status, 200);
  const students = await api(env, 'GET', `/api/students?withdrawn=false&unit_id=${w.unit}`, { headers });
  assert.is(students.status, 200);
  const [inbox, again] = await Promise.all([
    api(env, 'GET', `/api//units/${w.unit}/tasks/inbox`, { headers }),
    api(env, 'GET', `/api//units/${w.unit}/tasks/inbox`, { headers }),
  ]);
  assert.is(inbox.status, 200);
  assert.equal(again.body, inbox.body);
  assert.is(inbox.body.length, 1);
  const task = inbox.body[0];
  // Without these links the client hides the task or throws while mapping it.
  assert.ok(
    students.body.some((s: { id: number }) => s.id === task.project_id),
    "the task's project is in /api/students",
  );
  assert.ok(
    unit.body.task_definitions.some((d: { id: number }) => d.id === task.task_definition_id),
    'its definition is in the unit',
  );
  assert.ok(
    unit.body.tutorials.some((t: { tutor_id: number }) => t.tutor_id === people.tutor.user.id),
    'the tutor teaches a tutorial',
  );
  for (const key of [
    'status',
    'due_date',
    'extensions',
    'submission_date',
    'times_assessed',
    'include_in_portfolio',
    'similarity_flag',
    'num_new_comments',
    'has_extensions',
    'pinned',
  ]) {
    assert.ok(key in task, key);
  }
  assert.is(task.num_new_comments, 1);

  const details = await api(env, 'GET', `/api/projects/${task.project_id}/task_def_id/${task.task_definition_id}/submission_details`, { headers });
  assert.equal(Object.keys(details.body).sort(), ['has_pdf', 'processing_pdf']);
  const comments = await api(env, 'GET', `/api/projects/${task.project_id}/task_def_id/${task.task_definition_id}/comments/`, { headers });
  assert.is(comments.status, 200);
  const text = comments.body.find((c: { type: string }) => c.type === 'text');
  assert.is(text.is_new, true);
  assert.ok(text.author.first_name && text.author.last_name, 'the client computes initials from the names');

  const reply = await api(env, 'POST', `/api/projects/${task.project_id}/task_def_id/${task.task_definition_id}/comments/`, {
    headers,
    multipart: { comment: 'Looks good.' },
  });
  assert.is(reply.status, 201);
  assert.equal([reply.body.type, reply.body.is_new, reply.body.recipient.id], ['text', false, people.student.user.id]);

  const complete = await api(env, 'PUT', `/api//projects/${task.project_id}/task_def_id/${task.task_definition_id}`, {
    headers,
    json: { trigger: 'complete', grade: null, quality_pts: -1 },
  });
  assert.is(complete.status, 200);
  for (const key of [
    'id',
    'status',
    'due_date',
    'extensions',
    'completion_date',
    'times_assessed',
    'include_in_portfolio',
    'similarity_flag',
    'num_new_comments',
  ]) {
    assert.ok(key in complete.body, key);
  }
  assert.is(complete.body.status, 'complete');
  // Read and assessed: nothing is left in the tutor's inbox.
  assert.equal((await api(env, 'GET', `/api//units/${w.unit}/tasks/inbox`, { headers })).body, []);
});

test.run();
