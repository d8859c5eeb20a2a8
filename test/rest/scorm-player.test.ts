// The SCORM player's page, its scripts and its context route (docs/online-tests.md, "The player").
// The browser plays packages through it in test/browser/scorm-player.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TaskDefinition } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, type People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST SCORM player');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

async function world() {
  const unit = await seedUnit(env, { code: 'SIT202' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'T1');
  await env.orm.em
    .fork()
    .nativeUpdate(
      TaskDefinition,
      { id: td },
      { scormEnabled: true, scormAttemptLimit: 2, scormVersion: '2004', scormLaunchFile: 'index.html', scormPackageBytes: 100 },
    );
  return { unit, project, td };
}

test('the page: HTML with a policy of its own, no inline script, and the task named only by its id', async () => {
  const { td } = await world();
  const res = await api(env, 'GET', `/api/scorm/player/${td}`, { headers: { accept: 'text/html' } });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-src 'self'/);
  assert.not.match(csp, /unsafe-inline/);
  assert.is(res.headers['cache-control'], 'no-store');
  // Scripts: only files (player.js), and a JSON block that is data.
  const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  for (const [, attributes, body] of scripts) {
    if (!/type="application\/json"/.test(attributes!)) assert.is(body, '', `inline script: ${attributes}`);
  }
  assert.match(res.text, /src="\/api\/scorm\/runtime\/player\.js\?v=[0-9a-f]{16}"/);
  assert.match(res.text, /sandbox="allow-scripts allow-forms allow-popups allow-modals"/);
  assert.match(res.text, new RegExp(`"task_def_id":${td}`));
  assert.not.match(res.text, /Task T1/);
  // Back to the web client (WEB_CLIENT_URL), when the service knows it.
  const webUrl = env.config.mail.webUrl;
  if (webUrl) assert.ok(res.text.includes(`<a id="back" href="${webUrl}">`), res.text);
  else assert.not.match(res.text, /id="back"/);
});

test('the page: a bad id is a 400 page for a browser', async () => {
  const res = await api(env, 'GET', '/api/scorm/player/abc', { headers: { accept: 'text/html' } });
  assert.is(res.status, 400);
  assert.match(String(res.headers['content-type']), /^text\/html/);
});

test('runtime files: the allow-list only, JavaScript, long-lived for the current version', async () => {
  const page = await api(env, 'GET', '/api/scorm/player/1');
  const src = /src="(\/api\/scorm\/runtime\/player\.js\?v=[0-9a-f]+)"/.exec(page.text)![1]!;
  const res = await api(env, 'GET', src);
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/javascript/);
  assert.is(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(res.text, /CrossFrameLMS/);
  const unversioned = await api(env, 'GET', '/api/scorm/runtime/scorm2004.min.js');
  assert.is(unversioned.status, 200);
  assert.is(unversioned.headers['cache-control'], 'public, max-age=300');
  assert.match(unversioned.text, /Scorm2004API/);
  const api2 = await api(env, 'GET', '/api/scorm/runtime/cross-frame-api.js');
  assert.match(api2.text, /CrossFrameAPI/);
  for (const name of ['package.json', '..%2Fpackage.json', 'scorm2004.js', 'scorm2004.min.js.map']) {
    const refused = await api(env, 'GET', `/api/scorm/runtime/${name}`);
    assert.is(refused.status, 404, name);
    assert.ok(refused.body.error, name);
  }
});

test('context: the student sees their project and attempts left; staff see none without project_id', async () => {
  const { td, project, unit } = await world();
  const mine = await api(env, 'GET', `/api/scorm/player/${td}/context`, { as: people.student.creds });
  assert.is(mine.status, 200);
  assert.equal(mine.body.project, { id: project, username: 'astudent', student_name: 'Astudent Tester' });
  assert.is(mine.body.staff, false);
  assert.equal(mine.body.task_definition.scorm_version, '2004');
  assert.is(mine.body.task_definition.has_scorm_data, true);
  assert.is(mine.body.attempts_left, 2);
  assert.is(mine.body.unit.id, unit);

  const tutor = await api(env, 'GET', `/api/scorm/player/${td}/context`, { as: people.tutor.creds });
  assert.is(tutor.status, 200);
  assert.is(tutor.body.staff, true);
  assert.is(tutor.body.project, null);
  const forStudent = await api(env, 'GET', `/api/scorm/player/${td}/context?project_id=${project}`, { as: people.tutor.creds });
  assert.is(forStudent.body.project.id, project);
});

test("context: refused to strangers, to another student's project, and 404/400 for bad ids", async () => {
  const { td, project } = await world();
  const other = await signedIn(env, 'bstudent', 'Student');
  const outsider = await api(env, 'GET', `/api/scorm/player/${td}/context`, { as: other.creds });
  assert.is(outsider.status, 403);
  assert.match(outsider.body.error, /not authorised/);
  const unit2 = await seedUnit(env, { code: 'SIT999' });
  await enrol(env, other.user, unit2);
  const unit = (await env.orm.em.fork().findOneOrFail(TaskDefinition, { id: td })).unit.id;
  await enrol(env, other.user, unit);
  const peek = await api(env, 'GET', `/api/scorm/player/${td}/context?project_id=${project}`, { as: other.creds });
  assert.is(peek.status, 403);
  assert.is((await api(env, 'GET', `/api/scorm/player/999999/context`, { as: people.student.creds })).status, 404);
  assert.is((await api(env, 'GET', `/api/scorm/player/${td}/context?project_id=999999`, { as: people.tutor.creds })).status, 404);
  assert.is((await api(env, 'GET', `/api/scorm/player/${td}/context?project_id=x`, { as: people.tutor.creds })).status, 400);
  assert.is((await api(env, 'GET', `/api/scorm/player/${td}/context`)).status, 419);
});

test("the task's description links to the player where a test can be taken, and the link is never stored", async () => {
  const { td, unit } = await world();
  const plain = await seedTaskDefinition(env, unit, 'P1');
  const detail = await api(env, 'GET', `/api/units/${unit}`, { as: people.student.creds });
  const described = (id: number) => detail.body.task_definitions.find((d: { id: number }) => d.id === id).description;
  assert.is(described(td), `About T1\n\n[Take the online test](/api/scorm/player/${td})`);
  assert.is(described(plain), 'About P1');
  // The web client's editor sends back what it was given: saved without the link, answered with it once.
  const put = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    json: { task_def: { description: `${described(td)} and more\n\n[Take the online test](/api/scorm/player/${td})` } },
  });
  assert.is(put.status, 200, put.text);
  assert.is(put.body.description, `About T1\n\n[Take the online test](/api/scorm/player/${td}) and more\n\n[Take the online test](/api/scorm/player/${td})`);
  const stored = await env.orm.em.fork().findOneOrFail(TaskDefinition, { id: td });
  assert.is(stored.description, `About T1\n\n[Take the online test](/api/scorm/player/${td}) and more`);
  // Without a package, or with tests off, no link.
  await env.orm.em.fork().nativeUpdate(TaskDefinition, { id: td }, { scormEnabled: false, description: 'About T1' });
  const off = await api(env, 'GET', `/api/units/${unit}`, { as: people.student.creds });
  assert.is(off.body.task_definitions.find((d: { id: number }) => d.id === td).description, 'About T1');
});

test.run();
