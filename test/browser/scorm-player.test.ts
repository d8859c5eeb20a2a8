// The SCORM player in a real browser (Debian's chromium through playwright-core; scripts/chromium.sh):
// packages built here (scripts/lib/scorm-package.ts) are uploaded, played through
// GET /api/scorm/player/{task_def_id} and checked on the server: attempts, comments, limits, an
// extra attempt, review and override, resume after a reload, and the sandbox holding against a
// package that hunts for the viewer's credentials. Without a browser the suite says so and skips.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { PROBE, QUIZ, QUIZ_12, RESUMABLE } from '../../scripts/lib/scorm-package.ts';
import { issueSignInToken } from '../../src/operations/lti/sign-in-tokens.ts';
import { launchBrowser, skipSuite } from '../support/browser.ts';
import { listeningBaseUrl, testEnv, type TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { attemptsOf, packageFrame, playerWorld, screenshot, signedInContext, textOf, waitForState } from '../support/scorm-player.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('browser: the SCORM player');
const TESTS = [
  'a student takes the quiz, is limited, gets an extra attempt and passes; a tutor reviews and overrides',
  'an incomplete attempt resumes after a reload with its suspend_data',
  "a package's script cannot read GET /api/users with the viewer's credentials",
  'an LMS launch signs the player in from the fragment, once',
  "a SCORM 1.2 package plays through Scorm12API, its result mapped to the attempt's SCORM 2004 data model",
  "a commit the server refuses (the attempt was ended by staff meanwhile) shows the server's reason",
];

const launched = await launchBrowser();
if ('skipped' in launched) {
  skipSuite(test, 'browser/scorm-player', launched.skipped, TESTS);
} else {
  const browser: Browser = launched.browser;
  let env: TestEnv;
  let people: People;
  let base: string;
  freshEachTest(test, (world) => ({ env, people } = world));
  test.before(async () => {
    base = await listeningBaseUrl(await testEnv());
  });
  test.after(() => browser.close());

  const comments = async (world: { project: number; td: number }) => {
    const res = await api(env, 'GET', `/api/projects/${world.project}/task_def_id/${world.td}/comments`, { as: people.tutor.creds });
    return (res.body as { type: string; comment: string; test_attempt?: { id: number; success_status: boolean } }[]).filter((c) => c.type === 'scorm');
  };

  test(TESTS[0]!, async () => {
    const world = await playerWorld(env, people, QUIZ, { scorm_attempt_limit: 1, scorm_allow_review: true });
    const student = await signedInContext(browser, base, people.student);
    const page = await student.newPage();
    await page.goto(`${base}/api/scorm/player/${world.td}`);
    await screenshot(page, '0-loading');
    await waitForState(page, 'ready');
    assert.match(await textOf(page, '#summary'), /1 of 1 attempts left/);
    await screenshot(page, '1-ready');

    // First attempt: both answers wrong.
    await page.click('#start');
    await waitForState(page, 'initialized');
    let frame = await packageFrame(page);
    await frame.waitForSelector('#submit:not([disabled])');
    assert.match(await textOf(frame, '#learner'), /Astudent Tester \(normal\)/);
    await frame.check('input[name=q1][value="48"]');
    await frame.check('input[name=q2][value="9"]');
    await screenshot(page, '2-playing');
    await frame.click('#submit');
    await waitForState(page, 'ready');
    let attempts = await attemptsOf(env, people.student, world);
    assert.is(attempts.length, 1);
    assert.is(attempts[0]!.terminated, true);
    assert.is(attempts[0]!.success_status, false);
    assert.is(attempts[0]!.score_scaled, 0);
    const model = JSON.parse(attempts[0]!.cmi_datamodel);
    assert.is(model['cmi.interactions.0.learner_response'], '48');
    assert.is(model['cmi.interactions.1.result'], 'incorrect');
    let scorm = await comments(world);
    assert.is(scorm.length, 1);
    assert.is(scorm[0]!.comment, 'Unsuccessful');
    assert.equal(scorm[0]!.test_attempt, { id: attempts[0]!.id, success_status: false });

    // The limit: the server refuses a second start, and the page shows its reason.
    assert.match(await textOf(page, '#summary'), /0 of 1 attempts left/);
    await page.click('#start');
    await waitForState(page, 'refused');
    const refusal = await textOf(page, '#status');
    assert.match(refusal, /attempt/i);
    await screenshot(page, '3-refused');
    assert.is((await attemptsOf(env, people.student, world)).length, 1);

    // An extra attempt: the student asks on the page, the tutor grants (as the newer web client does it).
    await page.fill('#extension-reason', 'I misread the questions');
    await page.click('#ask');
    await waitForState(page, 'asked');
    await screenshot(page, '3b-asked');
    const all = await api(env, 'GET', `/api/projects/${world.project}/task_def_id/${world.td}/comments`, { as: people.tutor.creds });
    const asked = (all.body as { id: number; type: string; comment: string }[]).find((c) => c.type === 'scorm_extension');
    assert.is(asked?.comment, 'I misread the questions');
    const granted = await api(env, 'PUT', `/api/projects/${world.project}/task_def_id/${world.td}/assess_scorm_extension/${asked!.id}`, {
      as: people.tutor.creds,
      json: { ...asked, granted: true },
    });
    assert.ok(granted.status < 300, granted.text);

    await page.reload();
    await waitForState(page, 'ready');
    assert.match(await textOf(page, '#summary'), /1 of 2 attempts left/);
    const started = Date.now();
    await page.click('#start');
    await waitForState(page, 'initialized');
    frame = await packageFrame(page);
    await frame.waitForSelector('#submit:not([disabled])');
    await frame.check('input[name=q1][value="42"]');
    await frame.check('input[name=q2][value="7"]');
    await frame.click('#submit');
    await waitForState(page, 'ready');
    assert.ok(Date.now() - started < 60_000);
    attempts = await attemptsOf(env, people.student, world);
    assert.is(attempts.length, 2);
    assert.is(attempts[0]!.success_status, true);
    assert.is(attempts[0]!.score_scaled, 1);
    scorm = await comments(world);
    assert.ok(
      scorm.some((c) => c.test_attempt?.id === attempts[0]!.id && /^Passed/.test(c.comment)),
      JSON.stringify(scorm),
    );
    await screenshot(page, '4-passed');
    await student.close();

    // The tutor reviews the passed attempt (review mode: nothing saved) and overrides it.
    const tutor = await signedInContext(browser, base, people.tutor);
    const staffPage = await tutor.newPage();
    await staffPage.goto(`${base}/api/scorm/player/${world.td}?project_id=${world.project}`);
    await waitForState(staffPage, 'ready');
    assert.is(await staffPage.$('#start'), null, 'staff never start attempts');
    await staffPage.click(`#review-${attempts[0]!.id}`);
    await waitForState(staffPage, 'reviewing');
    const reviewFrame = await packageFrame(staffPage);
    await reviewFrame.waitForSelector('#submit:not([disabled])');
    assert.match(await textOf(reviewFrame, '#learner'), /\(review\)/);
    await screenshot(staffPage, '5-review');
    await staffPage.click('#close');
    await waitForState(staffPage, 'ready');
    await staffPage.click(`#override-${attempts[0]!.id}`);
    await staffPage.waitForFunction(() => /Result changed/.test(document.getElementById('status')?.textContent ?? ''));
    const overridden = (await attemptsOf(env, people.tutor, world))[0]!;
    assert.is(overridden.success_status, false);
    // Review changed nothing; the override rewrote the result only.
    const { 'cmi.success_status': after, ...restAfter } = JSON.parse(overridden.cmi_datamodel);
    const { 'cmi.success_status': before, ...restBefore } = JSON.parse(attempts[0]!.cmi_datamodel);
    assert.equal(restAfter, restBefore);
    assert.equal([before, after], ['passed', 'failed']);
    await screenshot(staffPage, '6-overridden');
    await tutor.close();
  });

  test(TESTS[1]!, async () => {
    const world = await playerWorld(env, people, RESUMABLE, { scorm_attempt_limit: 0 });
    const context = await signedInContext(browser, base, people.student);
    const page = await context.newPage();
    await page.goto(`${base}/api/scorm/player/${world.td}`);
    await waitForState(page, 'ready');
    assert.match(await textOf(page, '#summary'), /not limited/);
    await page.click('#start');
    let frame = await packageFrame(page);
    await frame.waitForSelector('#leave:not([disabled])');
    assert.is(await frame.textContent('#entry'), 'ab-initio');
    await frame.click('#leave');
    await waitForState(page, 'committed');
    let [attempt] = await attemptsOf(env, people.student, world);
    assert.is(attempt!.terminated, false);
    assert.is(JSON.parse(attempt!.cmi_datamodel)['cmi.suspend_data'], 'part=2;answers=a,b');

    await page.reload();
    await waitForState(page, 'ready');
    assert.ok(await page.$('#resume'), 'an open attempt is resumed, not restarted');
    await page.click('#resume');
    frame = await packageFrame(page);
    await frame.waitForSelector('#finish:not([disabled])');
    assert.is(await frame.textContent('#entry'), 'resume');
    assert.is(await frame.textContent('#suspend'), 'part=2;answers=a,b');
    await screenshot(page, '7-resumed');
    // Only the package's frame reaches the run-time: a Terminate posted by any other window is dropped.
    await page.evaluate(() => window.postMessage({ messageId: 'forged-1', method: 'Terminate', params: [''] }, '*'));
    await page.waitForTimeout(300);
    assert.is((await attemptsOf(env, people.student, world))[0]!.terminated, false);
    assert.is(await page.getAttribute('body', 'data-state'), 'initialized');
    await frame.click('#finish');
    await waitForState(page, 'ready');
    const all = await attemptsOf(env, people.student, world);
    assert.is(all.length, 1, 'the same attempt');
    [attempt] = all;
    assert.is(attempt!.terminated, true);
    assert.is(attempt!.success_status, true);
    await context.close();
  });

  test(TESTS[2]!, async () => {
    const world = await playerWorld(env, people, PROBE, { scorm_attempt_limit: 0 });
    const context = await signedInContext(browser, base, people.student);
    const page = await context.newPage();
    await page.goto(`${base}/api/scorm/player/${world.td}`);
    await waitForState(page, 'ready');
    await page.click('#start');
    const frame = await packageFrame(page);
    await frame.waitForSelector('body[data-done=yes]');
    const report = JSON.parse((await frame.textContent('#report')) ?? '{}') as Record<string, string>;
    await screenshot(page, '8-probe');
    assert.match(report['parent localStorage']!, /^blocked/, JSON.stringify(report));
    assert.match(report['parent sessionStorage']!, /^blocked/);
    assert.match(report['parent document']!, /^blocked/);
    assert.match(report['own localStorage']!, /^blocked/);
    assert.match(report.origin!, /null/);
    assert.not.match(report.fetch!, /status 200/, report.fetch);
    // The same page, signed in, does read it: the probe's failure is the sandbox's doing.
    const own = await page.evaluate(async () => {
      const user = JSON.parse(localStorage.getItem('doubtfire_user') ?? '{}');
      const r = await fetch('/api/users', { headers: { Username: user.username, 'Auth-Token': user.authenticationToken } });
      return r.status;
    });
    assert.is(own, 403, 'a student may not list users either way; the request itself was authenticated');
    await context.close();
  });

  test(TESTS[3]!, async () => {
    const world = await playerWorld(env, people, QUIZ, { scorm_attempt_limit: 0 });
    const token = await issueSignInToken(env.orm.em.fork(), people.student.user, env.clock.now());
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/api/scorm/player/${world.td}#sign_in_token=${token}&username=${people.student.creds.username}`);
    await waitForState(page, 'ready');
    assert.not.match(page.url(), /sign_in_token/, 'the token leaves the address at once');
    assert.match(await textOf(page, '#title'), /T1 Weekly quiz/);
    // A reload keeps this tab's session; the token itself was used up.
    await page.reload();
    await waitForState(page, 'ready');
    const again = await context.newPage();
    await again.goto(`${base}/api/scorm/player/${world.td}#sign_in_token=${token}&username=${people.student.creds.username}`);
    await waitForState(again, 'sign-in');
    assert.match(await textOf(again, '#status'), /used or has expired/);
    await screenshot(again, '9-sign-in');
    // The form signs in with a password.
    await again.fill('#signin-username', people.student.creds.username);
    await again.fill('#signin-password', 'password');
    await again.click('#signin-form button');
    await waitForState(again, 'ready');
    await context.close();
  });
  test(TESTS[4]!, async () => {
    const world = await playerWorld(env, people, QUIZ_12, { scorm_attempt_limit: 0 });
    const context = await signedInContext(browser, base, people.student);
    const page = await context.newPage();
    await page.goto(`${base}/api/scorm/player/${world.td}`);
    await waitForState(page, 'ready');
    await page.click('#start');
    await waitForState(page, 'initialized');
    const frame = await packageFrame(page);
    await frame.waitForSelector('#submit:not([disabled])');
    assert.match(await textOf(frame, '#learner'), /Astudent Tester \(ab-initio\)/);
    await frame.click('#submit');
    await waitForState(page, 'ready');
    const [attempt] = await attemptsOf(env, people.student, world);
    assert.is(attempt!.terminated, true);
    assert.is(attempt!.success_status, true);
    assert.is(attempt!.score_scaled, 0.8);
    const model = JSON.parse(attempt!.cmi_datamodel);
    assert.is(model['cmi.success_status'], 'passed');
    assert.is(model['cmi.completion_status'], 'completed');
    await context.close();
  });
  test(TESTS[5]!, async () => {
    const world = await playerWorld(env, people, RESUMABLE, { scorm_attempt_limit: 0 });
    const context = await signedInContext(browser, base, people.student);
    const page = await context.newPage();
    await page.goto(`${base}/api/scorm/player/${world.td}`);
    await waitForState(page, 'ready');
    await page.click('#start');
    const frame = await packageFrame(page);
    await frame.waitForSelector('#leave:not([disabled])');
    const [open] = await attemptsOf(env, people.student, world);
    const ended = await api(env, 'PATCH', `/api/test_attempts/${open!.id}?success_status=false`, { as: people.tutor.creds, json: {} });
    assert.is(ended.status, 200, ended.text);
    await frame.click('#leave');
    // Shown in the player's bar, above the package (whose Commit the cross-frame API answers at once).
    await page.waitForFunction(() => document.getElementById('player-status')?.className === 'error');
    assert.match(await textOf(page, '#player-status'), /ended/);
    assert.ok(await page.isVisible('#player-status'));
    await screenshot(page, '10-refused-commit');
    await context.close();
  });
}

test.run();
