// Small SCORM packages built in code: an imsmanifest.xml and one SCO page whose script talks to the
// run-time the player provides (window.API_1484_11, or window.API for SCORM 1.2). The player's
// browser tests (test/browser/) and the demo seed's online test use them; nothing here is served.
//
// Inside the player the package runs in a sandboxed frame, where the API is scorm-again's
// CrossFrameAPI: calls answer at once from a cache filled by postMessage, so a page reads the data
// model only once the cache is warm (`whenReady` below polls cmi.learner_id).
import { zipToBuffer } from '../../src/lib/zip.ts';

export type PackageVersion = '2004' | '1.2';

export interface PackageSpec {
  title: string;
  /** The SCO's <body>: HTML, then its script (plain browser JavaScript). */
  body: string;
  script: string;
  version?: PackageVersion;
  /** The launch file's path in the zip (default index.html). */
  launch?: string;
}

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The manifest: one organization, one item, one SCO resource launching `launch`. */
export function scormManifest(title: string, launch: string, version: PackageVersion): string {
  const t = escapeXml(title);
  const href = escapeXml(launch);
  if (version === '1.2') {
    return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.package" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${t}</title><item identifier="item" identifierref="sco"><title>${t}</title></item></organization></organizations>
  <resources><resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="${href}"><file href="${href}"/></resource></resources>
</manifest>
`;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.package" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${t}</title><item identifier="item" identifierref="sco"><title>${t}</title></item></organization></organizations>
  <resources><resource identifier="sco" type="webcontent" adlcp:scormType="sco" href="${href}"><file href="${href}"/></resource></resources>
</manifest>
`;
}

/** Helpers every SCO page below shares: the API, and a wait until its data model has arrived. */
const SCO_PRELUDE = `
var api = window.API_1484_11;
function show(id, text) { document.getElementById(id).textContent = text; }
function whenReady(done) {
  var tries = 0;
  (function poll() {
    if (api.GetValue('cmi.learner_id') !== '' || tries++ > 100) return done();
    setTimeout(poll, 50);
  })();
}
`;

export function scoPage(spec: Pick<PackageSpec, 'title' | 'body' | 'script'>): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(spec.title)}</title>
<style>body{font-family:sans-serif;margin:2rem}fieldset{margin:1rem 0}button{padding:.5rem 1rem}</style></head>
<body>
${spec.body}
<script>${SCO_PRELUDE}${spec.script}</script>
</body></html>
`;
}

export function buildScormPackage(spec: PackageSpec): Promise<Buffer> {
  const launch = spec.launch ?? 'index.html';
  return zipToBuffer([
    { name: 'imsmanifest.xml', data: Buffer.from(scormManifest(spec.title, launch, spec.version ?? '2004')) },
    { name: launch, data: Buffer.from(scoPage(spec)) },
  ]);
}

/**
 * A two-question quiz: Initialize, one interaction per question, a score (the share right), success
 * (passed at 50% or more), completion, Commit and Terminate when the learner presses Submit.
 */
export const QUIZ: PackageSpec = {
  title: 'Two-question quiz',
  body: `<h1>Quick quiz</h1><p id="learner"></p><p id="state">Loading…</p>
<form id="quiz">
<fieldset><legend>1. What is 6 × 7?</legend><label><input type="radio" name="q1" value="42"> 42</label> <label><input type="radio" name="q1" value="48"> 48</label></fieldset>
<fieldset><legend>2. Which is a prime number?</legend><label><input type="radio" name="q2" value="7"> 7</label> <label><input type="radio" name="q2" value="9"> 9</label></fieldset>
<button type="submit" id="submit" disabled>Submit</button>
</form>`,
  script: `
api.Initialize('');
whenReady(function () {
  show('learner', 'Learner: ' + api.GetValue('cmi.learner_name') + ' (' + api.GetValue('cmi.mode') + ')');
  show('state', 'Ready');
  document.getElementById('submit').disabled = false;
});
document.getElementById('quiz').addEventListener('submit', function (event) {
  event.preventDefault();
  var answers = [['q1', '42'], ['q2', '7']];
  var right = 0;
  answers.forEach(function (q, i) {
    var chosen = (document.querySelector('input[name=' + q[0] + ']:checked') || {}).value || '';
    var correct = chosen === q[1];
    if (correct) right++;
    api.SetValue('cmi.interactions.' + i + '.id', q[0]);
    api.SetValue('cmi.interactions.' + i + '.type', 'choice');
    api.SetValue('cmi.interactions.' + i + '.learner_response', chosen || 'none');
    api.SetValue('cmi.interactions.' + i + '.result', correct ? 'correct' : 'incorrect');
  });
  var scaled = right / answers.length;
  api.SetValue('cmi.score.scaled', String(scaled));
  api.SetValue('cmi.score.raw', String(right));
  api.SetValue('cmi.score.min', '0');
  api.SetValue('cmi.score.max', String(answers.length));
  api.SetValue('cmi.success_status', scaled >= 0.5 ? 'passed' : 'failed');
  api.SetValue('cmi.completion_status', 'completed');
  api.Commit('');
  api.Terminate('');
  show('state', 'Submitted: ' + right + ' of ' + answers.length);
});
`,
};

/**
 * A test in two sittings: "Save and leave" sets incomplete, suspend_data and exit=suspend and
 * commits without terminating; a later resume shows cmi.entry and the suspend_data it got back;
 * "Finish" passes and terminates.
 */
export const RESUMABLE: PackageSpec = {
  title: 'Two-part test',
  body: `<h1>Two-part test</h1><p>Entry: <span id="entry">?</span></p><p>Suspend data: <span id="suspend">?</span></p><p id="state">Loading…</p>
<button type="button" id="leave" disabled>Save and leave</button> <button type="button" id="finish" disabled>Finish</button>`,
  script: `
api.Initialize('');
whenReady(function () {
  show('entry', api.GetValue('cmi.entry'));
  show('suspend', api.GetValue('cmi.suspend_data'));
  show('state', 'Ready');
  document.getElementById('leave').disabled = false;
  document.getElementById('finish').disabled = false;
});
document.getElementById('leave').addEventListener('click', function () {
  api.SetValue('cmi.location', 'part-2');
  api.SetValue('cmi.suspend_data', 'part=2;answers=a,b');
  api.SetValue('cmi.completion_status', 'incomplete');
  api.SetValue('cmi.exit', 'suspend');
  api.Commit('');
  show('state', 'Saved');
});
document.getElementById('finish').addEventListener('click', function () {
  api.SetValue('cmi.score.scaled', '1');
  api.SetValue('cmi.success_status', 'passed');
  api.SetValue('cmi.completion_status', 'completed');
  api.SetValue('cmi.exit', 'normal');
  api.Commit('');
  api.Terminate('');
  show('state', 'Finished');
});
`,
};

/**
 * A hostile package: it looks for the viewer's credentials where a same-origin page would find
 * them (the web client's localStorage, the player's sessionStorage, the parent's document) and
 * asks GET /api/users with whatever it found, then writes each outcome into its page.
 */
export const PROBE: PackageSpec = {
  title: 'Credential probe',
  body: '<h1>Probe</h1><pre id="report">running</pre>',
  script: `
var report = {};
function attempt(name, fn) { try { report[name] = 'read: ' + String(fn()).slice(0, 200); } catch (e) { report[name] = 'blocked: ' + e.name; } }
var found = {};
attempt('own localStorage', function () { found.user = localStorage.getItem('doubtfire_user'); return found.user; });
attempt('parent localStorage', function () { found.parentUser = parent.localStorage.getItem('doubtfire_user'); return found.parentUser; });
attempt('parent sessionStorage', function () { found.session = parent.sessionStorage.getItem('scorm_player_session'); return found.session; });
attempt('parent document', function () { return parent.document.body.innerHTML; });
attempt('cookie', function () { return document.cookie; });
attempt('origin', function () { return location.origin + ' ' + String(window.origin); });
var creds = {};
[found.user, found.parentUser, found.session].forEach(function (text) {
  try { var v = JSON.parse(text); if (v && v.username) creds = { Username: v.username, 'Auth-Token': v.authenticationToken || v.auth_token }; } catch (e) { /* nothing */ }
});
var url = new URL('/api/users', location.href).href;
fetch(url, { headers: creds, credentials: 'include' }).then(function (r) {
  return r.text().then(function (t) { report.fetch = 'status ' + r.status + ': ' + t.slice(0, 120); });
}, function (e) { report.fetch = 'blocked: ' + e.name + ' ' + e.message; }).then(function () {
  document.getElementById('report').textContent = JSON.stringify(report, null, 1);
  document.body.setAttribute('data-done', 'yes');
});
`,
};

/** A SCORM 1.2 SCO (window.API): LMSInitialize, a raw score of 80 of 100, "passed", LMSCommit, LMSFinish on Submit. */
export const QUIZ_12: PackageSpec = {
  title: 'SCORM 1.2 check',
  version: '1.2',
  body: '<h1>SCORM 1.2 check</h1><p id="learner"></p><p id="state">Loading…</p><button type="button" id="submit" disabled>Submit</button>',
  script: `
var api12 = window.API;
api12.LMSInitialize('');
(function poll(tries) {
  if (api12.LMSGetValue('cmi.core.student_id') === '' && tries < 100) return setTimeout(function () { poll(tries + 1); }, 50);
  show('learner', 'Learner: ' + api12.LMSGetValue('cmi.core.student_name') + ' (' + api12.LMSGetValue('cmi.core.entry') + ')');
  show('state', 'Ready');
  document.getElementById('submit').disabled = false;
})(0);
document.getElementById('submit').addEventListener('click', function () {
  api12.LMSSetValue('cmi.core.score.raw', '80');
  api12.LMSSetValue('cmi.core.score.max', '100');
  api12.LMSSetValue('cmi.core.score.min', '0');
  api12.LMSSetValue('cmi.core.lesson_status', 'passed');
  api12.LMSCommit('');
  api12.LMSFinish('');
  show('state', 'Submitted');
});
`,
};
