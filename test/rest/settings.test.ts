import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';

const test = suite('REST /api/settings');
let env: TestEnv;
let people: People;
let saved: Pick<typeof env.config, 'externalName' | 'overseerEnabled' | 'simcheckEnabled' | 'privacyStatement' | 'plagiarismStatement'>;

freshEachTest(test, (world) => ({ env, people } = world));
test.before.each(() => {
  const { externalName, overseerEnabled, simcheckEnabled, privacyStatement, plagiarismStatement } = env.config;
  saved = { externalName, overseerEnabled, simcheckEnabled, privacyStatement, plagiarismStatement };
});

// The configuration object is shared by the whole run: put back what a test changed.
test.after.each(() => {
  Object.assign(env.config, saved);
});

test('settings are public and report the configuration, with tiiEnabled for the web client', async () => {
  const res = await api(env, 'GET', '/api/settings');
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['externalName', 'overseerEnabled', 'simcheckEnabled', 'tiiEnabled']);
  assert.equal(res.body, {
    externalName: env.config.externalName,
    overseerEnabled: true,
    simcheckEnabled: env.config.simcheckEnabled,
    tiiEnabled: env.config.simcheckEnabled,
  });
});

test('settings follow configuration changes; tiiEnabled always equals simcheckEnabled', async () => {
  env.config.externalName = 'OnTrack';
  env.config.overseerEnabled = false;
  env.config.simcheckEnabled = true;
  const on = await api(env, 'GET', '/api/settings');
  assert.equal(on.body, { externalName: 'OnTrack', overseerEnabled: false, simcheckEnabled: true, tiiEnabled: true });
  env.config.simcheckEnabled = false;
  const off = await api(env, 'GET', '/api/settings/');
  assert.equal(off.body, { externalName: 'OnTrack', overseerEnabled: false, simcheckEnabled: false, tiiEnabled: false });
});

test('settings ignore credentials, even invalid ones', async () => {
  const signedIn = await api(env, 'GET', '/api/settings', { as: people.student.creds });
  assert.is(signedIn.status, 200);
  const bad = await api(env, 'GET', '/api/settings', { as: { username: 'nobody', token: 'nope' } });
  assert.is(bad.status, 200);
  assert.equal(bad.body, signedIn.body);
});

test('the privacy statements are public', async () => {
  const res = await api(env, 'GET', '/api/settings/privacy');
  assert.is(res.status, 200);
  assert.equal(res.body, { privacy: env.config.privacyStatement, plagiarism: env.config.plagiarismStatement });
  assert.type(res.body.privacy, 'string');
  assert.ok(res.body.privacy.length > 0 && res.body.plagiarism.length > 0);
});

test('the privacy statements come from the configuration', async () => {
  env.config.privacyStatement = 'We keep your work safe.';
  env.config.plagiarismStatement = 'It is all my own work.';
  const res = await api(env, 'GET', '/api//settings/privacy/', { as: { username: 'nobody', token: 'nope' } });
  assert.is(res.status, 200);
  assert.equal(res.body, { privacy: 'We keep your work safe.', plagiarism: 'It is all my own work.' });
});

test('other methods on the settings paths are not operations', async () => {
  const put = await api(env, 'PUT', '/api/settings', { as: people.admin.creds, json: { externalName: 'X' } });
  assert.ok(put.status === 404 || put.status === 405);
  assert.is(env.config.externalName, saved.externalName);
});

test.run();
