// GET /api/auth/scorm and GET /api/scorm/{task_def_id}/{username}/{scorm_token}/{file_path}
// (docs/online-tests.md, "Assets and their isolation").
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ScormToken, TaskDefinition } from '../../schema/index.ts';
import { SCORM_BRIDGE_MARKUP } from '../../src/domain/scorm-assets.ts';
import { deleteExpiredTokens, issueToken } from '../../src/operations/auth/session-tokens.ts';
import { SCORM_TOKEN_LIFETIME_MS, SCORM_TOKENS_PER_USER } from '../../src/policy/index.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { api, type Credentials } from '../support/http.ts';
import { PACKAGE_PAGE, manifest2004, scormPackage } from '../support/scorm-packages.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST SCORM tokens and package assets');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function definitionWithPackage(code = 'SIT101', files: Record<string, string | Buffer> = {}) {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const em = env.orm.em.fork();
  const td = em.create(TaskDefinition, {
    unit,
    name: 'Quiz',
    abbreviation: 'Q1',
    description: '',
    startDate: '2026-03-02',
    targetDate: '2026-03-13',
    plagiarismChecks: [],
    uploadRequirements: [],
  });
  await em.flush();
  const zip = await scormPackage(files);
  const up = await api(env, 'POST', `/api/units/${unit}/task_definitions/${td.id}/scorm_data`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'quiz.zip', contentType: 'application/zip', data: zip } },
  });
  assert.is(up.status, 201, up.text);
  return { unit, td: td.id };
}

async function scormToken(as: Credentials): Promise<string> {
  const res = await api(env, 'GET', '/api/auth/scorm', { as, hyphenHeader: true });
  assert.is(res.status, 200, res.text);
  assert.equal(Object.keys(res.body), ['scorm_auth_token']);
  return res.body.scorm_auth_token;
}

const asset = (td: number | string, username: string, token: string, path: string) =>
  env.app.inject({ method: 'GET', url: `/api/scorm/${td}/${username}/${token}/${path}` });

test('GET /api/auth/scorm: any signed-in user, a fresh token each call; none without credentials', async () => {
  const first = await scormToken(people.student.creds);
  const second = await scormToken(people.student.creds);
  assert.ok(first.length >= 32);
  assert.is.not(first, second);
  assert.ok(await scormToken(people.admin.creds));
  const none = await api(env, 'GET', '/api/auth/scorm');
  assert.is(none.status, 419);
  // Stored as its SHA-256, never as itself.
  const rows = await env.orm.em.fork().find(ScormToken, {});
  assert.ok(rows.every((r) => r.tokenHash.length === 64 && r.tokenHash !== first && r.tokenHash !== second));
});

test('the table stays bounded: issuing drops the user’s expired tokens and keeps at most the newest few; the hourly purge takes expired ones', async () => {
  for (let i = 0; i < SCORM_TOKENS_PER_USER + 5; i++) await scormToken(people.student.creds);
  const count = async () => (await env.orm.em.fork().find(ScormToken, { user: people.student.user.id })).length;
  assert.is(await count(), SCORM_TOKENS_PER_USER);
  await scormToken(people.tutor.creds);
  env.clock.advance(SCORM_TOKEN_LIFETIME_MS + 1000);
  // The student signs in again (their sign-in token expired too) and asks: the expired ones go.
  const token = await issueToken(env.orm.em.fork(), people.student.user, env.clock.now(), false);
  await scormToken({ username: people.student.creds.username, token });
  assert.is(await count(), 1);
  const purged = await deleteExpiredTokens(env.orm.em.fork(), env.clock.now());
  assert.ok(purged >= 1);
  assert.is((await env.orm.em.fork().find(ScormToken, { user: people.tutor.user.id })).length, 0);
});

test('an asset: the file, its type, no-store, nosniff and the sandbox policy; HTML gets the bridge at the start of <head>', async () => {
  const { td } = await definitionWithPackage();
  const token = await scormToken(people.student.creds);
  const page = await asset(td, 'astudent', token, 'index.html');
  assert.is(page.statusCode, 200, page.body);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.is(page.headers['cache-control'], 'no-store');
  assert.is(page.headers['x-content-type-options'], 'nosniff');
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /^sandbox allow-scripts/);
  // No allow-same-origin: the page's origin is opaque, so its scripts cannot use the viewer's storage or call the API as them.
  assert.not.match(csp, 'allow-same-origin');
  assert.match(String(page.headers['content-disposition']), /^inline/);
  assert.is(page.body, PACKAGE_PAGE.replace('<head>', `<head>${SCORM_BRIDGE_MARKUP}`));
  assert.is(page.headers['content-length'], String(Buffer.byteLength(page.body)));

  const script = await asset(td, 'astudent', token, 'quiz.js');
  assert.equal([script.statusCode, script.headers['content-type'], script.body], [200, 'text/javascript; charset=utf-8', 'window.quizLoaded = true;']);
  assert.is(script.headers['content-security-policy'], csp);
  // A .json file keeps its name (the web client's `.json` suffix is not stripped here).
  const data = await asset(td, 'astudent', token, 'data.json');
  assert.equal([data.statusCode, data.headers['content-type'], data.body], [200, 'application/json', '{"questions":3}']);
  const image = await asset(td, 'astudent', token, 'media/logo.png');
  assert.equal([image.statusCode, image.headers['content-type'], image.rawPayload.length], [200, 'image/png', 8]);
  // Staff of the unit and an admin too.
  for (const who of [people.tutor, people.convenor, people.admin]) {
    const t = await scormToken(who.creds);
    assert.is((await asset(td, who.creds.username, t, 'quiz.js')).statusCode, 200, who.creds.username);
  }
});

test('404 for a wrong user, an expired or garbage token, a unit the user may not read, a missing file, no package, a path out of the package', async () => {
  const { td } = await definitionWithPackage();
  const token = await scormToken(people.student.creds);
  const notFound = async (res: Awaited<ReturnType<typeof asset>>, label: string) => {
    assert.is(res.statusCode, 404, `${label}: ${res.body}`);
    assert.ok(JSON.parse(res.body).error, label);
  };
  await notFound(await asset(td, 'atutor', token, 'index.html'), "another user's name");
  await notFound(await asset(td, 'astudent', 'garbage', 'index.html'), 'garbage token');
  await notFound(await asset(td, 'astudent', people.student.creds.token, 'index.html'), 'a sign-in token');
  await notFound(await asset(td, 'astudent', token, 'nope.html'), 'missing file');
  await notFound(await asset(td, 'astudent', token, 'media'), 'a folder');
  await notFound(await asset(999999, 'astudent', token, 'index.html'), 'unknown definition');
  for (const path of ['../imsmanifest.xml', '..%2F..%2Fetc%2Fpasswd', 'media/../../index.html', '%2e%2e/index.html']) {
    await notFound(await asset(td, 'astudent', token, path), path);
  }
  // `a/./b` and `a/../b` inside the package name what they name.
  assert.is((await asset(td, 'astudent', token, 'media/../quiz.js')).statusCode, 200);

  const outsider = await signedIn(env, 'outsider', 'Student');
  await notFound(await asset(td, 'outsider', await scormToken(outsider.creds), 'index.html'), 'a student of another unit');
  const other = await definitionWithPackage('SIT202');
  // The student is enrolled in both; a student of only the first is not in the second.
  const stranger = await signedIn(env, 'stranger', 'Student');
  await enrol(env, stranger.user, (await env.orm.em.fork().findOneOrFail(TaskDefinition, { id: td })).unit.id);
  const strangerToken = await scormToken(stranger.creds);
  assert.is((await asset(td, 'stranger', strangerToken, 'index.html')).statusCode, 200);
  await notFound(await asset(other.td, 'stranger', strangerToken, 'index.html'), 'another unit’s package');

  // No package: removed.
  await api(env, 'DELETE', `/api/units/${other.unit}/task_definitions/${other.td}/scorm_data`, { as: people.convenor.creds });
  await notFound(await asset(other.td, 'astudent', token, 'index.html'), 'no package');

  // A stored package damaged in the store: no file to give, never a 500.
  await env.services.storage.put(storageKeys.scormPackage(td), Readable.from([Buffer.from('PK\u0003\u0004 broken beyond repair')]));
  await notFound(await asset(td, 'astudent', token, 'index.html'), 'a damaged package');

  env.clock.advance(SCORM_TOKEN_LIFETIME_MS + 1);
  await notFound(await asset(td, 'astudent', token, 'index.html'), 'expired token');
});

test('a SCORM token is no sign-in token: refused as Auth-Token everywhere else', async () => {
  const token = await scormToken(people.student.creds);
  for (const [method, url] of [
    ['GET', '/api/users/current'],
    ['GET', '/api/units'],
    ['GET', '/api/auth/scorm'],
  ] as const) {
    const res = await api(env, method, url, { as: { username: 'astudent', token }, hyphenHeader: true });
    assert.is(res.status, 419, `${url}: ${res.text}`);
  }
});

test('a replaced package is served at once, never from the old listing', async () => {
  const { unit, td } = await definitionWithPackage();
  const token = await scormToken(people.student.creds);
  assert.is((await asset(td, 'astudent', token, 'quiz.js')).body, 'window.quizLoaded = true;');
  const replacement = await scormPackage({ 'quiz.js': 'window.version = 2;', 'extra/new.css': 'body{}' }, manifest2004());
  const up = await api(env, 'POST', `/api/units/${unit}/task_definitions/${td}/scorm_data`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'quiz.zip', contentType: 'application/zip', data: replacement } },
  });
  assert.is(up.status, 201);
  assert.is((await asset(td, 'astudent', token, 'quiz.js')).body, 'window.version = 2;');
  const css = await asset(td, 'astudent', token, 'extra/new.css');
  assert.equal([css.statusCode, css.headers['content-type']], [200, 'text/css; charset=utf-8']);
});

test('a large HTML file without <head> streams with the bridge first; a large binary streams whole', async () => {
  const big = `<p>${'x'.repeat(200_000)}</p>`;
  const binary = Buffer.alloc(300_000);
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 7) % 251;
  const { td } = await definitionWithPackage('SIT101', { 'long.html': big, 'blob.bin': binary });
  const token = await scormToken(people.student.creds);
  const page = await asset(td, 'astudent', token, 'long.html');
  assert.is(page.body, SCORM_BRIDGE_MARKUP + big);
  const blob = await asset(td, 'astudent', token, 'blob.bin');
  assert.equal([blob.statusCode, blob.headers['content-type']], [200, 'application/octet-stream']);
  assert.ok(blob.rawPayload.equals(binary));
});

test.run();
