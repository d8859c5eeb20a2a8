import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'csv-parse/sync';
import { User } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('REST /api/csv/users (users CSV export and import, invitations instead of a shared password)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const csv = (text: string) => ({ file: { filename: 'users.csv', contentType: 'text/csv', data: Buffer.from(text) } });
const HEADER = 'Email, First_Name,Last_Name,USERNAME,nickname,role,student_id\n';
type Row = { row: Record<string, string>; message: string };
const messages = (rows: Row[]) => rows.map((r) => r.message);

async function mailJobs(): Promise<{ kind: string; userId: number }[]> {
  const rows = await env.orm.em
    .fork()
    .execute<{ payload: { kind: string; userId: number } }[]>(
      "select payload::jsonb - '_requestId' as payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'send_email' " +
        'order by j.id',
    );
  return rows.map((r) => r.payload);
}

async function withSmtp<T>(fn: () => Promise<T>): Promise<T> {
  const before = env.config.mail.smtpUrl;
  env.config.mail.smtpUrl = 'smtp://127.0.0.1:2525';
  try {
    return await fn();
  } finally {
    env.config.mail.smtpUrl = before;
  }
}

test('GET: an Admin downloads every user with the seven columns and no password', async () => {
  await createUser(env, 'zed', 'Tutor', { studentId: 's9', nickname: 'Z' });
  const res = await api(env, 'GET', '/api/csv/users', { as: people.admin.creds });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /text\/csv/);
  const rows = parse(res.text) as string[][];
  assert.equal(rows[0], ['email', 'first_name', 'last_name', 'username', 'nickname', 'role', 'student_id']);
  assert.equal(
    rows.slice(1).map((r) => [r[3], r[5]]),
    [
      ['aadmin', 'Admin'],
      ['aconvenor', 'Convenor'],
      ['atutor', 'Tutor'],
      ['astudent', 'Student'],
      ['zed', 'Tutor'],
    ],
  );
  assert.not.match(res.text, /scrypt|password/i);
});

test('GET: refused to a Convenor (403) and without a session (401 or 403)', async () => {
  const res = await api(env, 'GET', '/api/csv/users', { as: people.convenor.creds });
  assert.is(res.status, 403);
  assert.type(res.body.error, 'string');
  assert.ok([401, 403, 419].includes((await api(env, 'GET', '/api/csv/users')).status));
});

test("POST: the original's row rules; created users have no password and are listed without SMTP", async () => {
  const body =
    HEADER +
    'ada@uni.edu,ADA,lovelace,NewAda,Countess,student,s1\n' +
    'email,first_name,last_name,username,nickname,role,student_id\n' +
    'x@uni.edu,A,B,astudent,,Student,\n' +
    'y@uni.edu,A,B,newada,,Student,\n' +
    ',A,B,noemail,,Student,\n' +
    'not-an-address,A,B,badaddress,,Student,\n' +
    'r@uni.edu,A,B,badrole,,Wizard,\n' +
    'astudent@example.edu,A,B,takenemail,,Student,\n' +
    't@uni.edu,tina,tutor,ttutor,,Tutor,\n';
  const res = await api(env, 'POST', '/api/csv/users', { as: people.admin.creds, multipart: csv(body) });
  assert.is(res.status, 201);
  assert.equal(messages(res.body.success), [
    'Added user newada as Student. No password yet: no mail server is configured, so no invitation was sent.',
    'Added user ttutor as Tutor. No password yet: no mail server is configured, so no invitation was sent.',
  ]);
  assert.equal(messages(res.body.ignored), ['User astudent already existed.', 'User newada already existed.']);
  assert.equal(messages(res.body.errors), [
    'The email cannot be blank or empty',
    'Invalid email address (not-an-address)',
    'Unable to find role Wizard',
    'Email astudent@example.edu belongs to another user',
  ]);
  assert.equal(res.body.without_password, ['newada', 'ttutor']);
  const ada = await env.orm.em.fork().findOneOrFail(User, { username: 'newada' });
  assert.equal(
    [ada.firstName, ada.lastName, ada.nickname, ada.studentId, ada.systemRole, ada.email, ada.passwordHash],
    ['Ada', 'Lovelace', 'Countess', 's1', 'Student', 'ada@uni.edu', null],
  );
  assert.equal(await mailJobs(), []);
});

test('POST: missing headers are an error per row; a Convenor may create students and tutors only; a Tutor is refused', async () => {
  const missing = await api(env, 'POST', '/api/csv/users', { as: people.admin.creds, multipart: csv('email,username,role\na@uni.edu,a,Student\n') });
  assert.equal(messages(missing.body.errors), ['Missing headers: first_name, last_name, nickname, student_id']);
  const body = `${HEADER}c@uni.edu,C,C,newconv,,Convenor,\ns@uni.edu,S,S,newstud,,Student,\n`;
  const res = await api(env, 'POST', '/api/csv/users', { as: people.convenor.creds, multipart: csv(body) });
  assert.is(res.status, 201);
  assert.equal(messages(res.body.errors), ['Not authorised to create users with role Convenor']);
  assert.equal(
    res.body.success.map((r: Row) => r.row.username),
    ['newstud'],
  );
  const tutor = await api(env, 'POST', '/api/csv/users', { as: people.tutor.creds, multipart: csv(body) });
  assert.is(tutor.status, 403);
  assert.type(tutor.body.error, 'string');
});

test('POST with a mail server: each user created without a password gets one invitation mail, queued without a token', async () => {
  const body = `${HEADER}a@uni.edu,A,A,inv1,,Student,\nb@uni.edu,B,B,inv2,,Student,\n`;
  const res = await withSmtp(() => api(env, 'POST', '/api/csv/users', { as: people.admin.creds, multipart: csv(body) }));
  assert.is(res.status, 201);
  assert.is(res.body.without_password, undefined);
  assert.equal(messages(res.body.success), [
    'Added user inv1 as Student. An invitation to set a password was e-mailed.',
    'Added user inv2 as Student. An invitation to set a password was e-mailed.',
  ]);
  const ids = (await env.orm.em.fork().find(User, { username: { $in: ['inv1', 'inv2'] } }, { orderBy: { id: 'asc' } })).map((u) => u.id);
  assert.equal(
    await mailJobs(),
    ids.map((userId) => ({ kind: 'invitation', userId })),
  );
});

const rows = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `u${from + i}@uni.edu,First,Last,u${from + i},,Student,id${from + i}\n`).join('');

test('POST: a fixed number of statements whatever the number of rows (mails queued in one statement)', async () => {
  const upload = (text: string) => withSmtp(() => api(env, 'POST', '/api/csv/users', { as: people.admin.creds, multipart: csv(HEADER + text) }));
  await upload(rows(1000, 1001)); // the session is then cached
  const few = await countStatements(async () => assert.is((await upload(rows(0, 3))).body.success.length, 3));
  const many = await countStatements(async () => assert.is((await upload(rows(3, 203))).body.success.length, 200));
  assert.is(many, few);
  assert.is((await mailJobs()).length, 204);
});

test('POST: 5,000 rows in one request, in batches of 1,000 rows, never a statement per row (timings: npm run bench -- users-import)', async () => {
  const upload = (text: string) => api(env, 'POST', '/api/csv/users', { as: people.admin.creds, multipart: csv(HEADER + text) });
  await upload(rows(9000, 9001)); // the session is then cached
  const oneBatch = await countStatements(async () => assert.is((await upload(rows(0, 3))).body.success.length, 3));
  let res: Awaited<ReturnType<typeof upload>> | undefined;
  const fiveBatches = await countStatements(async () => (res = await upload(rows(3, 5003))));
  assert.is(res!.status, 201);
  assert.is(res!.body.success.length, 5000);
  assert.ok(fiveBatches <= 5 * oneBatch, `${fiveBatches} statements for 5,000 rows, ${oneBatch} for 3`);
});

test.run();
