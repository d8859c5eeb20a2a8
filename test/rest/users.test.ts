import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SystemRole } from '../../schema/enums.ts';
import { AuthToken, User, type IUser } from '../../schema/index.ts';
import { verifyPassword } from '../../src/lib/passwords.ts';
import type { TestEnv } from '../support/env.ts';
import { PASSWORD, type People, createUser, signedIn } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, seedUnit } from '../support/seed.ts';

const test = suite('REST /api/users');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

const USER_KEYS = [
  'accepted_tii_eula',
  'email',
  'first_name',
  'has_run_first_time_setup',
  'id',
  'last_name',
  'nickname',
  'opt_in_to_research',
  'pronouns',
  'receive_feedback_notifications',
  'receive_portfolio_notifications',
  'receive_task_notifications',
  'student_id',
  'system_role',
  'username',
];

const newUser = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'Ada.Lovelace@Example.EDU',
  username: 'ALovelace',
  nickname: 'Ada',
  system_role: 'Student',
  student_id: '1234567',
  password: 'correct horse',
};

/** Every user row, including the password hash, to show that a refused call wrote nothing. */
async function snapshot() {
  const users = await env.orm.em.fork().find(User, {}, { orderBy: { id: 'asc' } });
  return users.map((u) => ({ ...u, updatedAt: undefined }));
}

async function reload(id: number): Promise<IUser> {
  return env.orm.em.fork().findOneOrFail(User, { id });
}

const signIn = (username: string, password: string) => api(env, 'POST', '/api/auth', { json: { username, password } });

// ---- GET /api/users ------------------------------------------------------------------------

test('admins and convenors list every user ordered by id with the User keys', async () => {
  for (const who of [people.admin, people.convenor]) {
    const res = await api(env, 'GET', '/api/users/', { as: who.creds, hyphenHeader: true });
    assert.is(res.status, 200);
    assert.equal(
      res.body.map((u: { username: string }) => u.username),
      ['aadmin', 'aconvenor', 'atutor', 'astudent'],
    );
    assert.equal(Object.keys(res.body[0]).sort(), USER_KEYS);
    assert.equal(res.body[3], {
      id: people.student.user.id,
      student_id: null,
      email: 'astudent@example.edu',
      first_name: 'Astudent',
      last_name: 'Tester',
      username: 'astudent',
      nickname: 'astudent',
      pronouns: null,
      receive_task_notifications: true,
      receive_portfolio_notifications: true,
      receive_feedback_notifications: true,
      opt_in_to_research: null,
      has_run_first_time_setup: true,
      accepted_tii_eula: false,
      system_role: 'Student',
    });
  }
});

test('tutors and students may not list users; no credentials gets 419', async () => {
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'GET', '/api/users', { as: who.creds });
    assert.is(res.status, 403);
    assert.is(res.body.error, 'Cannot list users - not authorised');
  }
  assert.is((await api(env, 'GET', '/api/users')).status, 419);
  assert.is((await api(env, 'GET', '/api/users', { as: { ...people.admin.creds, token: 'nope' } })).status, 419);
});

// ---- GET /api/users/tutors and /api/users/convenors ----------------------------------------

test('tutors are Tutor, Convenor and Admin users; convenors are Convenor and Admin users', async () => {
  await createUser(env, 'btutor', 'Tutor');
  await createUser(env, 'bstudent', 'Student');
  for (const who of [people.admin, people.convenor]) {
    // The web client calls this with a doubled slash.
    const tutors = await api(env, 'GET', '/api//users/tutors', { as: who.creds });
    assert.is(tutors.status, 200);
    assert.equal(
      tutors.body.map((u: { username: string }) => u.username),
      ['aadmin', 'aconvenor', 'atutor', 'btutor'],
    );
    assert.equal(Object.keys(tutors.body[0]).sort(), USER_KEYS);
    const convenors = await api(env, 'GET', '/api/users/convenors', { as: who.creds });
    assert.is(convenors.status, 200);
    assert.equal(
      convenors.body.map((u: { system_role: string }) => u.system_role),
      ['Admin', 'Convenor'],
    );
  }
});

test('tutors and students may not list tutors or convenors; no credentials gets 419', async () => {
  for (const who of [people.tutor, people.student]) {
    const tutors = await api(env, 'GET', '/api/users/tutors', { as: who.creds });
    assert.is(tutors.status, 403);
    assert.is(tutors.body.error, 'Cannot list tutors - not authorised');
    const convenors = await api(env, 'GET', '/api/users/convenors', { as: who.creds });
    assert.is(convenors.status, 403);
    assert.is(convenors.body.error, 'Cannot list convenors - not authorised');
  }
  assert.is((await api(env, 'GET', '/api/users/tutors')).status, 419);
  assert.is((await api(env, 'GET', '/api/users/convenors')).status, 419);
});

// ---- GET /api/users/{id} -------------------------------------------------------------------

test('a user reads themself; an admin reads anyone', async () => {
  const own = await api(env, 'GET', `/api/users/${people.student.user.id}`, { as: people.student.creds });
  assert.is(own.status, 200);
  assert.equal(Object.keys(own.body).sort(), USER_KEYS);
  assert.is(own.body.username, 'astudent');
  const byAdmin = await api(env, 'GET', `/api/users/${people.tutor.user.id}`, { as: people.admin.creds });
  assert.is(byAdmin.status, 200);
  assert.equal([byAdmin.body.id, byAdmin.body.system_role], [people.tutor.user.id, 'Tutor']);
});

test('convenors, tutors and students may not read other users', async () => {
  for (const who of [people.convenor, people.tutor, people.student]) {
    const res = await api(env, 'GET', `/api/users/${people.admin.user.id}`, { as: who.creds });
    assert.is(res.status, 403);
    assert.is(res.body.error, `Cannot find User with id ${people.admin.user.id}`);
  }
});

test('reading a user: unknown id 404 for an admin, 403 for others; bad id 400; no credentials 419', async () => {
  const unknown = await api(env, 'GET', '/api/users/9999', { as: people.admin.creds });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error, 'Unable to find requested User');
  assert.is((await api(env, 'GET', '/api/users/9999', { as: people.student.creds })).status, 403);
  const bad = await api(env, 'GET', '/api/users/abc', { as: people.admin.creds });
  assert.is(bad.status, 400);
  assert.match(bad.body.error, 'id is invalid');
  assert.is((await api(env, 'GET', `/api/users/${people.student.user.id}`)).status, 419);
});

// ---- POST /api/users -----------------------------------------------------------------------

test('an admin creates a user from a form body; username and email are lower-cased; the password works', async () => {
  const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, form: { user: newUser } });
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), USER_KEYS);
  assert.equal(res.body, {
    id: res.body.id,
    student_id: '1234567',
    email: 'ada.lovelace@example.edu',
    first_name: 'Ada',
    last_name: 'Lovelace',
    username: 'alovelace',
    nickname: 'Ada',
    pronouns: null,
    receive_task_notifications: true,
    receive_portfolio_notifications: true,
    receive_feedback_notifications: true,
    opt_in_to_research: null,
    has_run_first_time_setup: false,
    accepted_tii_eula: false,
    system_role: 'Student',
  });
  const stored = await reload(res.body.id);
  assert.is.not(stored.passwordHash, newUser.password);
  assert.ok(await verifyPassword(newUser.password, stored.passwordHash));
  const login = await signIn('ALovelace', newUser.password);
  assert.is(login.status, 201);
  assert.is(login.body.user.id, res.body.id);
  assert.is((await signIn('alovelace', 'wrong password')).status, 401);
});

test('a user created without a password cannot sign in with one', async () => {
  const { password: _password, ...noPassword } = newUser;
  const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, json: { user: noPassword } });
  assert.is(res.status, 201);
  assert.is((await reload(res.body.id)).passwordHash, null);
  assert.is((await signIn('alovelace', '')).status, 400);
  assert.is((await signIn('alovelace', 'password')).status, 401);
  assert.is((await signIn('alovelace', 'correct horse')).status, 401);
});

test('an admin may create users of every role; role names are case-insensitive', async () => {
  const roles: [string, SystemRole][] = [
    ['admin', 'Admin'],
    ['CONVENOR', 'Convenor'],
    ['Tutor', 'Tutor'],
    ['student', 'Student'],
  ];
  for (const [i, [name, role]] of roles.entries()) {
    const user = { ...newUser, username: `user${i}`, email: `user${i}@example.edu`, student_id: undefined, system_role: name };
    const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, json: { user } });
    assert.is(res.status, 201, name);
    assert.is(res.body.system_role, role);
    assert.is(res.body.student_id, null);
  }
});

test('a convenor creates tutors and students but not convenors or admins', async () => {
  for (const [i, role] of ['Tutor', 'Student'].entries()) {
    const user = { ...newUser, username: `c${i}`, email: `c${i}@example.edu`, student_id: `s${i}`, system_role: role };
    const res = await api(env, 'POST', '/api/users', { as: people.convenor.creds, hyphenHeader: true, json: { user } });
    assert.is(res.status, 201);
    assert.is(res.body.system_role, role);
  }
  const before = await snapshot();
  for (const role of ['Convenor', 'admin']) {
    const res = await api(env, 'POST', '/api/users', { as: people.convenor.creds, json: { user: { ...newUser, system_role: role } } });
    assert.is(res.status, 403);
    assert.is(res.body.error, `Not authorised to create new users with role ${role === 'admin' ? 'Admin' : role}`);
  }
  assert.equal(await snapshot(), before);
});

test('tutors and students may not create users; no credentials gets 419', async () => {
  const before = await snapshot();
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'POST', '/api/users', { as: who.creds, form: { user: newUser } });
    assert.is(res.status, 403);
    assert.is(res.body.error, 'Not authorised to create new users');
  }
  assert.is((await api(env, 'POST', '/api/users', { form: { user: newUser } })).status, 419);
  assert.equal(await snapshot(), before);
});

test('an unknown or empty role name gets 403 "No such role name"', async () => {
  const before = await snapshot();
  for (const role of ['root', 'asdasd', 'sysadmin', '']) {
    const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, form: { user: { ...newUser, system_role: role } } });
    assert.is(res.status, 403);
    assert.is(res.body.error, `No such role name ${role}`);
  }
  assert.equal(await snapshot(), before);
});

test('missing, empty and ill-formed fields get 400 naming the field, and nothing is written', async () => {
  const before = await snapshot();
  const cases: [Record<string, unknown>, string][] = [
    [{ ...newUser, first_name: undefined }, 'user[first_name] is missing'],
    [{ ...newUser, last_name: '   ' }, 'user[last_name] is empty'],
    [{ ...newUser, email: undefined }, 'user[email] is missing'],
    [{ ...newUser, username: '' }, 'user[username] is empty'],
    [{ ...newUser, username: undefined }, 'user[username] is missing'],
    [{ ...newUser, nickname: undefined }, 'user[nickname] is missing'],
    [{ ...newUser, system_role: undefined }, 'user[system_role] is missing'],
    [{ ...newUser, email: 'not-an-email' }, 'user[email] is invalid'],
    [{ ...newUser, email: 'a b@example.edu' }, 'user[email] is invalid'],
    [{ ...newUser, password: 'short' }, 'user[password] is too short'],
    [{ ...newUser, first_name: 'x'.repeat(256) }, 'user[first_name] is too long'],
  ];
  for (const [user, message] of cases) {
    const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, form: { user } });
    assert.is(res.status, 400, message);
    assert.match(res.body.error, message);
  }
  const notAnObject = await api(env, 'POST', '/api/users', { as: people.admin.creds, json: { user: { ...newUser, first_name: { a: 1 } } } });
  assert.is(notAnObject.status, 400);
  assert.match(notAnObject.body.error, 'user[first_name] is invalid');
  const noWrapper = await api(env, 'POST', '/api/users', { as: people.admin.creds, json: {} });
  assert.is(noWrapper.status, 400);
  assert.match(noWrapper.body.error, 'user is missing');
  assert.equal(await snapshot(), before);
});

test('usernames, emails and student ids are unique (case-insensitively), as 400 validation errors', async () => {
  await api(env, 'POST', '/api/users', { as: people.admin.creds, form: { user: newUser } });
  const before = await snapshot();
  const cases: [Record<string, unknown>, string][] = [
    [{ ...newUser, username: 'ALOVELACE', email: 'other@example.edu', student_id: '1' }, 'Validation failed: Username has already been taken'],
    [{ ...newUser, username: 'other', email: 'ADA.lovelace@example.edu', student_id: '1' }, 'Validation failed: Email has already been taken'],
    [{ ...newUser, username: 'other', email: 'other@example.edu' }, 'Validation failed: Student ID has already been taken'],
    [
      { ...newUser, username: 'AStudent', email: 'astudent@EXAMPLE.edu', student_id: '1' },
      'Validation failed: Username has already been taken, Email has already been taken',
    ],
  ];
  for (const [user, message] of cases) {
    const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, form: { user } });
    assert.is(res.status, 400, message);
    assert.is(res.body.error, message);
  }
  assert.equal(await snapshot(), before);
  // A blank student id means none, so several users may leave it blank.
  for (const i of [1, 2]) {
    const user = { ...newUser, username: `blank${i}`, email: `blank${i}@example.edu`, student_id: '' };
    const res = await api(env, 'POST', '/api/users', { as: people.admin.creds, form: { user } });
    assert.is(res.status, 201);
    assert.is(res.body.student_id, null);
  }
});

// ---- PUT /api/users/{id} -------------------------------------------------------------------

test('a user edits their own names with the web client partial JSON body; other fields stay', async () => {
  const id = people.student.user.id;
  const before = await api(env, 'GET', `/api/users/${id}`, { as: people.student.creds });
  const res = await api(env, 'PUT', `/api/users/${id}`, {
    as: people.student.creds,
    hyphenHeader: true,
    // The client also sends keys that are not editable here; they are ignored.
    json: { user: { first_name: 'Grace', last_name: 'Hopper', pronouns: 'she/her', username: 'renamed', accepted_tii_eula: true } },
  });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), USER_KEYS);
  assert.equal(res.body, { ...before.body, first_name: 'Grace', last_name: 'Hopper', pronouns: 'she/her' });
  const stored = await reload(id);
  assert.equal([stored.firstName, stored.lastName, stored.username], ['Grace', 'Hopper', 'astudent']);
});

test('preferences arrive as form strings; null resets a notification flag to on', async () => {
  const id = people.tutor.user.id;
  const res = await api(env, 'PUT', `/api/users/${id}`, {
    as: people.tutor.creds,
    form: {
      user: {
        receive_task_notifications: 'false',
        receive_portfolio_notifications: '0',
        receive_feedback_notifications: 'false',
        opt_in_to_research: 'true',
        has_run_first_time_setup: 'false',
        nickname: 'Tut',
        student_id: 'T1',
      },
    },
  });
  assert.is(res.status, 200);
  assert.equal(
    [
      res.body.receive_task_notifications,
      res.body.receive_portfolio_notifications,
      res.body.receive_feedback_notifications,
      res.body.opt_in_to_research,
      res.body.has_run_first_time_setup,
      res.body.nickname,
      res.body.student_id,
    ],
    [false, false, false, true, false, 'Tut', 'T1'],
  );
  const reset = await api(env, 'PUT', `/api/users/${id}`, {
    as: people.tutor.creds,
    json: { user: { receive_task_notifications: null, opt_in_to_research: null, student_id: null, nickname: '' } },
  });
  assert.is(reset.status, 200);
  assert.equal(
    [
      reset.body.receive_task_notifications,
      reset.body.receive_portfolio_notifications,
      reset.body.opt_in_to_research,
      reset.body.student_id,
      reset.body.nickname,
    ],
    [true, false, null, null, null],
  );
});

test('an empty wrapper or no body changes nothing and answers the user', async () => {
  const id = people.student.user.id;
  const before = await snapshot();
  const empty = await api(env, 'PUT', `/api/users/${id}`, { as: people.student.creds, json: { user: {} } });
  assert.is(empty.status, 200);
  assert.is(empty.body.username, 'astudent');
  assert.is((await api(env, 'PUT', `/api/users/${id}`, { as: people.student.creds })).status, 200);
  assert.equal(await snapshot(), before);
});

test('nobody changes their own role; sending the same role is fine', async () => {
  for (const who of [people.admin, people.convenor, people.student]) {
    const same = await api(env, 'PUT', `/api/users/${who.user.id}`, {
      as: who.creds,
      json: { user: { system_role: who.user.systemRole.toLowerCase(), nickname: 'same' } },
    });
    assert.is(same.status, 200);
    assert.is(same.body.system_role, who.user.systemRole);
    const before = await snapshot();
    const other = who.user.systemRole === 'Student' ? 'Admin' : 'Student';
    const res = await api(env, 'PUT', `/api/users/${who.user.id}`, { as: who.creds, json: { user: { system_role: other, nickname: 'changed' } } });
    assert.is(res.status, 403);
    assert.is(res.body.error, 'You cannot change your own system role');
    assert.equal(await snapshot(), before);
  }
});

test('tutors and students may not edit other users, whether or not the id exists', async () => {
  const before = await snapshot();
  for (const who of [people.tutor, people.student]) {
    for (const id of [people.admin.user.id, people.convenor.user.id, 9999]) {
      const res = await api(env, 'PUT', `/api/users/${id}`, { as: who.creds, json: { user: { first_name: 'Hacked', system_role: 'Student' } } });
      assert.is(res.status, 403);
      assert.is(res.body.error, `Cannot modify user with id=${id} - not authorised`);
    }
  }
  assert.equal(await snapshot(), before);
});

test("a convenor edits another user's names and moves them between Student and Tutor", async () => {
  const id = people.student.user.id;
  const promoted = await api(env, 'PUT', `/api/users/${id}`, { as: people.convenor.creds, json: { user: { system_role: 'Tutor', first_name: 'Promoted' } } });
  assert.is(promoted.status, 200);
  assert.equal([promoted.body.system_role, promoted.body.first_name], ['Tutor', 'Promoted']);
  assert.is((await reload(id)).systemRole, 'Tutor');
  const demoted = await api(env, 'PUT', `/api/users/${people.tutor.user.id}`, { as: people.convenor.creds, form: { user: { system_role: 'student' } } });
  assert.is(demoted.status, 200);
  assert.is(demoted.body.system_role, 'Student');
  // The promoted user now acts with the new role.
  const tutors = await api(env, 'GET', '/api/users/tutors', { as: people.convenor.creds });
  assert.ok(tutors.body.some((u: { id: number }) => u.id === id));
});

test('a convenor may not make admins or convenors, nor change admins or convenors', async () => {
  const other = await createUser(env, 'bconvenor', 'Convenor');
  const before = await snapshot();
  const cases: [number, string, string][] = [
    [people.student.user.id, 'Admin', `Not authorised to promote_user user with id=${people.student.user.id} to Admin`],
    [people.tutor.user.id, 'Convenor', `Not authorised to promote_user user with id=${people.tutor.user.id} to Convenor`],
    [other.id, 'Tutor', `Not authorised to demote_user user with id=${other.id} to Tutor`],
    [people.admin.user.id, 'Student', `Not authorised to demote_user user with id=${people.admin.user.id} to Student`],
  ];
  for (const [id, role, message] of cases) {
    const res = await api(env, 'PUT', `/api/users/${id}`, { as: people.convenor.creds, json: { user: { system_role: role, first_name: 'Changed' } } });
    assert.is(res.status, 403, message);
    assert.is(res.body.error, message);
  }
  const unknownRole = await api(env, 'PUT', `/api/users/${people.student.user.id}`, { as: people.convenor.creds, json: { user: { system_role: 'root' } } });
  assert.is(unknownRole.status, 403);
  assert.is(unknownRole.body.error, 'No such role name root');
  assert.equal(await snapshot(), before);
});

test('an admin may move anyone else to any role', async () => {
  const steps: [IUser, SystemRole][] = [
    [people.student.user, 'Admin'],
    [people.student.user, 'Convenor'],
    [people.convenor.user, 'Student'],
    [people.tutor.user, 'Convenor'],
    [people.student.user, 'Tutor'],
  ];
  for (const [user, role] of steps) {
    const res = await api(env, 'PUT', `/api/users/${user.id}`, { as: people.admin.creds, json: { user: { system_role: role } } });
    assert.is(res.status, 200, `${user.username} -> ${role}`);
    assert.is(res.body.system_role, role);
    assert.is((await reload(user.id)).systemRole, role);
  }
});

test('unit staff cannot lose the system role their unit role needs (400)', async () => {
  await employ(env, people.tutor.user, await seedUnit(env, { code: 'UTUTOR' }), 'Tutor');
  const convenorTutor = await createUser(env, 'ctutor', 'Convenor');
  await employ(env, convenorTutor, await seedUnit(env, { code: 'UCONVENOR' }), 'Convenor');
  const before = await snapshot();
  const tutorToStudent = await api(env, 'PUT', `/api/users/${people.tutor.user.id}`, { as: people.convenor.creds, json: { user: { system_role: 'Student' } } });
  assert.is(tutorToStudent.status, 400);
  assert.is(tutorToStudent.body.error, 'Validation failed: Role cannot be changed to Student because the user has a Tutor role in a unit');
  for (const role of ['Tutor', 'Student']) {
    const res = await api(env, 'PUT', `/api/users/${convenorTutor.id}`, { as: people.admin.creds, json: { user: { system_role: role } } });
    assert.is(res.status, 400);
    assert.is(res.body.error, `Validation failed: Role cannot be changed to ${role} because the user has a Convenor role in a unit`);
  }
  assert.equal(await snapshot(), before);
  const toAdmin = await api(env, 'PUT', `/api/users/${convenorTutor.id}`, { as: people.admin.creds, json: { user: { system_role: 'Admin' } } });
  assert.is(toAdmin.status, 200);
  const tutorToConvenor = await api(env, 'PUT', `/api/users/${people.tutor.user.id}`, { as: people.admin.creds, json: { user: { system_role: 'Convenor' } } });
  assert.is(tutorToConvenor.status, 200);
});

test('a user sets their own password and signs in with it', async () => {
  const res = await api(env, 'PUT', `/api/users/${people.student.user.id}`, { as: people.student.creds, json: { user: { password: 'a new secret' } } });
  assert.is(res.status, 200);
  assert.not.ok('password' in res.body);
  assert.is((await signIn('astudent', 'a new secret')).status, 201);
  assert.is((await signIn('astudent', PASSWORD)).status, 401);
});

test("only an admin sets another user's password", async () => {
  const id = people.student.user.id;
  const before = await snapshot();
  const byConvenor = await api(env, 'PUT', `/api/users/${id}`, { as: people.convenor.creds, json: { user: { password: 'convenor set', first_name: 'X' } } });
  assert.is(byConvenor.status, 403);
  assert.is(byConvenor.body.error, `Not authorised to set the password of user with id=${id}`);
  assert.equal(await snapshot(), before);
  assert.is((await signIn('astudent', PASSWORD)).status, 201);
  const byAdmin = await api(env, 'PUT', `/api/users/${id}`, { as: people.admin.creds, form: { user: { password: 'admin set it' } } });
  assert.is(byAdmin.status, 200);
  assert.is((await signIn('astudent', 'admin set it')).status, 201);
});

test('a user created without a password can sign in once an admin sets one', async () => {
  const { password: _password, ...noPassword } = newUser;
  const created = await api(env, 'POST', '/api/users', { as: people.admin.creds, json: { user: noPassword } });
  await api(env, 'PUT', `/api/users/${created.body.id}`, { as: people.admin.creds, json: { user: { password: 'finally set' } } });
  const login = await signIn('alovelace', 'finally set');
  assert.is(login.status, 201);
  assert.is(login.body.user.id, created.body.id);
});

test('bad update input gets 400 naming the field, and nothing is written', async () => {
  const id = people.student.user.id;
  const before = await snapshot();
  const cases: [Record<string, unknown>, string][] = [
    [{ first_name: '' }, 'user[first_name] is empty'],
    [{ last_name: null }, 'user[last_name] is invalid'],
    [{ email: 'nope' }, 'user[email] is invalid'],
    [{ password: 'short' }, 'user[password] is too short'],
    [{ receive_task_notifications: 'maybe' }, 'user[receive_task_notifications] is invalid'],
    [{ has_run_first_time_setup: null }, 'user[has_run_first_time_setup] is invalid'],
    [{ pronouns: 'p'.repeat(300) }, 'user[pronouns] is too long'],
  ];
  for (const [user, message] of cases) {
    const res = await api(env, 'PUT', `/api/users/${id}`, { as: people.student.creds, json: { user } });
    assert.is(res.status, 400, message);
    assert.match(res.body.error, message);
  }
  assert.equal(await snapshot(), before);
});

test("an update may not take another user's email or student id; keeping one's own is fine", async () => {
  await createUser(env, 'other', 'Student', { studentId: 'S1' });
  const id = people.student.user.id;
  const before = await snapshot();
  const email = await api(env, 'PUT', `/api/users/${id}`, { as: people.student.creds, json: { user: { email: 'OTHER@example.edu' } } });
  assert.is(email.status, 400);
  assert.is(email.body.error, 'Validation failed: Email has already been taken');
  const studentId = await api(env, 'PUT', `/api/users/${id}`, { as: people.admin.creds, json: { user: { student_id: 'S1' } } });
  assert.is(studentId.status, 400);
  assert.is(studentId.body.error, 'Validation failed: Student ID has already been taken');
  assert.equal(await snapshot(), before);
  const own = await api(env, 'PUT', `/api/users/${id}`, { as: people.student.creds, json: { user: { email: 'AStudent@Example.edu' } } });
  assert.is(own.status, 200);
  assert.is(own.body.email, 'astudent@example.edu');
  const changed = await api(env, 'PUT', `/api/users/${id}`, { as: people.student.creds, json: { user: { email: 'new@example.edu' } } });
  assert.is(changed.body.email, 'new@example.edu');
});

test('updating: unknown id 404 for staff who may edit, bad id 400, no credentials 419', async () => {
  const unknown = await api(env, 'PUT', '/api/users/9999', { as: people.convenor.creds, json: { user: { first_name: 'X' } } });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error, 'Unable to find requested User');
  assert.is((await api(env, 'PUT', '/api/users/abc', { as: people.admin.creds, json: { user: {} } })).status, 400);
  const before = await snapshot();
  assert.is((await api(env, 'PUT', `/api/users/${people.student.user.id}`, { json: { user: { first_name: 'X' } } })).status, 419);
  const expired = await signedIn(env, 'late', 'Student');
  env.clock.advance(3 * 3600_000);
  const res = await api(env, 'PUT', `/api/users/${expired.user.id}`, { as: expired.creds, json: { user: { first_name: 'X' } } });
  assert.is(res.status, 419);
  assert.is((await reload(expired.user.id)).firstName, 'Late');
  assert.equal((await snapshot()).slice(0, 4), before);
});

// ---- Passwords end sessions ------------------------------------------------------------------

/** Whether these credentials still work (a read every user may make). */
const works = async (creds: { username: string; token: string }) => (await api(env, 'GET', '/api/unit_roles', { as: creds })).status === 200;

test("changing one's own password ends one's other sessions and keeps the one in use", async () => {
  const other = { username: 'astudent', token: (await signIn('astudent', PASSWORD)).body.auth_token };
  const third = { username: 'astudent', token: (await signIn('astudent', PASSWORD)).body.auth_token };
  assert.ok(await works(other)); // now cached in this process too
  const res = await api(env, 'PUT', `/api/users/${people.student.user.id}`, { as: people.student.creds, json: { user: { password: 'a new secret' } } });
  assert.is(res.status, 200);
  assert.ok(await works(people.student.creds));
  assert.not.ok(await works(other));
  assert.not.ok(await works(third));
  assert.is(await env.orm.em.fork().count(AuthToken, { user: people.student.user.id }), 1);
  assert.ok(await works(people.tutor.creds), "other users' sessions stay");
});

test("an admin setting a user's password ends all of that user's sessions", async () => {
  const second = { username: 'astudent', token: (await signIn('astudent', PASSWORD)).body.auth_token };
  assert.ok(await works(people.student.creds));
  const res = await api(env, 'PUT', `/api/users/${people.student.user.id}`, { as: people.admin.creds, json: { user: { password: 'admin set it' } } });
  assert.is(res.status, 200);
  assert.not.ok(await works(people.student.creds));
  assert.not.ok(await works(second));
  assert.is(await env.orm.em.fork().count(AuthToken, { user: people.student.user.id }), 0);
  assert.ok(await works(people.admin.creds));
});

test('edits without a password keep every session', async () => {
  const res = await api(env, 'PUT', `/api/users/${people.student.user.id}`, { as: people.admin.creds, json: { user: { first_name: 'Renamed' } } });
  assert.is(res.status, 200);
  assert.ok(await works(people.student.creds));
});

// ---- Usernames made from the email -----------------------------------------------------------

test("the web client's flat body without a username: the email local part is used, with the lowest number that makes it unique", async () => {
  // The spec's `user[...]` form needs a username (400 above); the web client's "Add New User" dialog never sends one.
  const flat = { firstName: 'Ada', lastName: 'Lovelace', nickname: 'Ada', email: 'Ada.Lovelace@Example.EDU', systemRole: 'Student' };
  await createUser(env, 'ada.lovelace', 'Student', { email: 'someone.else@example.edu' });
  await createUser(env, 'ada.lovelace3', 'Student', { email: 'someone.third@example.edu' });
  await createUser(env, 'adaxlovelace2', 'Student', { email: 'not.a.match@example.edu' }); // '.' is literal
  const first = await api(env, 'PUT', '/api/users', { as: people.admin.creds, json: flat });
  assert.is(first.status, 201, first.text);
  assert.is(first.body.username, 'ada.lovelace2');
  const second = await api(env, 'PUT', '/api/users', { as: people.admin.creds, json: { ...flat, email: 'ada.lovelace@other.example.edu' } });
  assert.is(second.status, 201);
  assert.is(second.body.username, 'ada.lovelace4');
  const row = await reload(second.body.id);
  assert.equal([row.username, row.email, row.passwordHash], ['ada.lovelace4', 'ada.lovelace@other.example.edu', null]);
});

test.run();
