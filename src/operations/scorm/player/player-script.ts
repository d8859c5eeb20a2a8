// The SCORM player page's script (GET /api/scorm/runtime/player.js), served as a static file so the
// page's Content-Security-Policy needs no inline script. It runs in the browser, not here: plain
// ES2017 in a string (no backticks or `${` inside), so the same text works from src/ and dist/.
//
// What it does (docs/online-tests.md, "The player"):
// - signs in: a single-use LTI sign-in token in the URL fragment (exchanged through POST /api/auth,
//   then removed from the address), else this tab's earlier session (sessionStorage), else the web
//   client's stored session when it runs on this origin (localStorage `doubtfire_user`), else a
//   sign-in form. The session's Auth-Token never goes into a URL.
// - asks GET /api/scorm/player/{id}/context and the attempts, and offers start, resume and review;
// - runs scorm-again's Scorm2004API (or Scorm12API) here, answers the sandboxed package frame's
//   postMessage calls through CrossFrameLMS (only from that frame), and commits to the attempt
//   routes with synchronous requests, as SCORM's Commit and Terminate must return their result.
export const PLAYER_SCRIPT = String.raw`(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('player-config').textContent);
  var API = location.pathname.replace(/\/scorm\/player\/[^/]+\/?$/, '');
  var SESSION_KEY = 'scorm_player_session';
  var params = new URLSearchParams(location.search);
  var projectParam = params.get('project_id');
  var session = null;
  var context = null;
  var attempts = [];
  var lms = null;
  var api = null;
  var current = null;

  function $(id) { return document.getElementById(id); }
  function show(id, on) { $(id).hidden = !on; }
  function setState(state) { document.body.setAttribute('data-state', state); }
  // The page's status line, and the same in the player's bar (the page is under the package while it plays).
  function say(text, isError) {
    ['status', 'player-status'].forEach(function (id) {
      var status = $(id);
      status.textContent = text;
      status.className = isError ? 'error' : '';
    });
  }
  function mark(name) { try { performance.mark('scorm-player:' + name); } catch (e) { /* old browsers */ } }

  function headers(json) {
    var h = {};
    if (session) { h['Username'] = session.username; h['Auth-Token'] = session.auth_token; }
    if (json) h['Content-Type'] = 'application/json';
    return h;
  }

  function ApiError(status, message) { this.status = status; this.message = message; }

  function errorOf(status, text) {
    try { var body = JSON.parse(text); if (body && typeof body.error === 'string') return new ApiError(status, body.error); } catch (e) { /* not JSON */ }
    return new ApiError(status, 'The server answered ' + status);
  }

  function call(method, path, body) {
    return fetch(API + path, { method: method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' })
      .then(function (response) {
        return response.text().then(function (text) {
          if (!response.ok) throw errorOf(response.status, text);
          return text ? JSON.parse(text) : null;
        });
      });
  }

  // Commit and Terminate must answer the package at once: a synchronous request, as the newer web client's adapter does.
  function callNow(method, path, body) {
    var xhr = new XMLHttpRequest();
    xhr.open(method, API + path, false);
    var h = headers(body !== undefined);
    Object.keys(h).forEach(function (k) { xhr.setRequestHeader(k, h[k]); });
    xhr.send(body === undefined ? null : JSON.stringify(body));
    if (xhr.status < 200 || xhr.status >= 300) throw errorOf(xhr.status, xhr.responseText);
    return xhr.responseText ? JSON.parse(xhr.responseText) : null;
  }

  // ---- Signing in -------------------------------------------------------------------------------

  function saveSession(s) {
    session = s;
    try { sessionStorage.setItem(SESSION_KEY, JSON.stringify(s)); } catch (e) { /* storage off: this page only */ }
  }

  function forgetSession() {
    session = null;
    try { sessionStorage.removeItem(SESSION_KEY); } catch (e) { /* storage off */ }
  }

  function fromFragment() {
    var fragment = new URLSearchParams(location.hash.slice(1));
    var token = fragment.get('sign_in_token');
    var username = fragment.get('username');
    if (!token || !username) return null;
    // Used once: out of the address (and the history) before anything else happens.
    history.replaceState(null, '', location.pathname + location.search);
    return { username: username, token: token };
  }

  function storedSessions() {
    var found = [];
    try { var own = JSON.parse(sessionStorage.getItem(SESSION_KEY) || 'null'); if (own && own.username && own.auth_token) found.push(own); } catch (e) { /* none */ }
    try {
      var user = JSON.parse(localStorage.getItem('doubtfire_user') || 'null');
      if (user && user.username && user.authenticationToken) found.push({ username: user.username, auth_token: user.authenticationToken });
    } catch (e) { /* none */ }
    return found;
  }

  function exchange(username, secret, field) {
    var body = { username: username, remember: false };
    body[field] = secret;
    return call('POST', '/auth', body).then(function (answer) {
      saveSession({ username: answer.user.username, auth_token: answer.auth_token });
    });
  }

  // Tries each stored session in turn: the first the context call accepts is kept.
  function tryStored(list) {
    if (!list.length) return Promise.resolve(false);
    session = list[0];
    return loadContext().then(function () { saveSession(session); return true; }, function (error) {
      if (error.status === 419 || error.status === 401) return tryStored(list.slice(1));
      throw error;
    });
  }

  function askToSignIn(message) {
    forgetSession();
    setState('sign-in');
    show('panel', false);
    show('signin', true);
    say(message || 'Sign in to take the test.', !!message);
  }

  $('signin-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var username = $('signin-username').value;
    var password = $('signin-password').value;
    say('Signing in…');
    exchange(username, password, 'password').then(function () {
      show('signin', false);
      return loadContext().then(function () { return refresh(true); });
    }).catch(function (error) { askToSignIn(error.message); });
  });

  // ---- What the page shows ------------------------------------------------------------------------

  function loadContext() {
    var query = projectParam ? '?project_id=' + encodeURIComponent(projectParam) : '';
    return call('GET', '/scorm/player/' + config.task_def_id + '/context' + query).then(function (c) { context = c; return c; });
  }

  function attemptsPath() {
    return '/projects/' + context.project.id + '/task_def_id/' + context.task_definition.id + '/test_attempts';
  }

  // fresh: the context was just loaded (at sign-in); otherwise it is asked again beside the attempts.
  function refresh(fresh) {
    var td = context.task_definition;
    $('title').textContent = td.abbreviation + ' ' + td.name;
    document.title = td.abbreviation + ' ' + td.name + ' - ' + config.product;
    $('unit').textContent = context.unit.code + ' ' + context.unit.name + (context.project && context.staff ? ' · ' + context.project.student_name : '');
    if (!context.project) {
      setState('no-project');
      show('panel', false);
      say(context.staff ? "To review a student's attempts, open this page from their task (add ?project_id= to the address)." : 'You are not enrolled in this unit.', true);
      return Promise.resolve();
    }
    if (!td.has_scorm_data || !td.scorm_enabled) {
      setState('no-test');
      show('panel', false);
      say('This task has no online test yet.', true);
      return Promise.resolve();
    }
    return Promise.all([call('GET', attemptsPath()), fresh === true ? context : loadContext()]).then(function (answers) {
      attempts = answers[0];
      render();
    });
  }

  function describe(a) {
    if (!a.terminated) return 'In progress';
    return (a.success_status ? 'Passed' : 'Not passed') + (a.score_scaled === null || a.score_scaled === undefined ? '' : ', score ' + Math.round(a.score_scaled * 100) + '%');
  }

  function button(text, id, onClick) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    if (id) b.id = id;
    b.addEventListener('click', onClick);
    return b;
  }

  function render() {
    mark('ready');
    setState('ready');
    show('player', false);
    show('panel', true);
    var td = context.task_definition;
    var left = context.attempts_left;
    $('summary').textContent =
      (td.scorm_attempt_limit === 0 ? 'Attempts are not limited.' : left + ' of ' + context.attempt_limit + ' attempts left.') +
      ' ' + attempts.length + ' made so far.';
    var actions = $('actions');
    actions.textContent = '';
    var open = attempts.filter(function (a) { return !a.terminated; })[0];
    if (!context.staff) {
      if (open) actions.appendChild(button('Resume the attempt', 'resume', function () { resume(open); }));
      else actions.appendChild(button('Start a new attempt', 'start', start));
      // The 8.0 web client has no way to ask for more attempts: the page offers it once they are used up.
      if (!open && left === 0) {
        var reason = document.createElement('input');
        reason.id = 'extension-reason';
        reason.placeholder = 'Why you need another attempt';
        reason.maxLength = 4000;
        actions.appendChild(reason);
        actions.appendChild(button('Ask for another attempt', 'ask', function () { askForAttempt(reason.value); }));
      }
    }
    var rows = $('attempts');
    rows.textContent = '';
    attempts.forEach(function (a, i) {
      var tr = document.createElement('tr');
      tr.setAttribute('data-attempt', String(a.id));
      var n = document.createElement('td'); n.textContent = String(attempts.length - i); tr.appendChild(n);
      var when = document.createElement('td'); when.textContent = new Date(a.attempted_time).toLocaleString(); tr.appendChild(when);
      var what = document.createElement('td'); what.textContent = describe(a); tr.appendChild(what);
      var act = document.createElement('td');
      if (a.terminated && (context.staff || td.scorm_allow_review)) act.appendChild(button('Review', 'review-' + a.id, function () { review(a); }));
      if (a.terminated && context.staff) {
        act.appendChild(button(a.success_status ? 'Mark not passed' : 'Mark passed', 'override-' + a.id, function () { override(a, !a.success_status); }));
      }
      tr.appendChild(act);
      rows.appendChild(tr);
    });
    show('attempts-table', attempts.length > 0);
    say(open && !context.staff ? 'You have an attempt in progress.' : 'Ready.');
  }

  function failed(error) {
    if (error && (error.status === 419 || error.status === 401)) return askToSignIn('Your session has ended: sign in again.');
    say(error && error.message ? error.message : String(error), true);
    setState('error');
  }

  function start() {
    say('Starting…');
    call('POST', attemptsPath()).then(function (attempt) { play(attempt, 'normal'); }).catch(function (error) {
      // The server says why an attempt cannot start (the limit, an open or a passed attempt, the delay).
      say(error.message, true);
      setState('refused');
    });
  }

  function askForAttempt(comment) {
    if (!comment.trim()) return say('Say why you need another attempt.', true);
    say('Asking…');
    call('POST', '/projects/' + context.project.id + '/task_def_id/' + context.task_definition.id + '/request_scorm_extension', { comment: comment })
      .then(function () { return refresh(); })
      .then(function () { say('Asked: your tutor answers in the task\'s comments, and a granted attempt appears here.'); setState('asked'); })
      .catch(failed);
  }

  function resume(attempt) {
    say('Resuming…');
    // No fields: the server answers the open attempt unchanged, with cmi.entry "resume" when it was left incomplete.
    call('PATCH', '/test_attempts/' + attempt.id, {}).then(function (a) { play(a, 'normal'); }).catch(failed);
  }

  function review(attempt) {
    say('Opening the attempt for review…');
    call('GET', '/test_attempts/' + attempt.id + '/review').then(function (a) { play(a, 'review'); }).catch(failed);
  }

  function override(attempt, passed) {
    say('Saving…');
    call('PATCH', '/test_attempts/' + attempt.id + '?success_status=' + passed, {}).then(function () { return refresh(); }).then(function () {
      say('Result changed to ' + (passed ? 'passed' : 'not passed') + '.');
    }).catch(failed);
  }

  // ---- Playing ------------------------------------------------------------------------------------

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error('Could not load ' + src)); };
      document.head.appendChild(s);
    });
  }

  // SCORM 1.2 packages see their own elements; the attempt stores SCORM 2004's.
  var TO_12 = { 'cmi.learner_id': 'cmi.core.student_id', 'cmi.learner_name': 'cmi.core.student_name', 'cmi.entry': 'cmi.core.entry', 'cmi.location': 'cmi.core.lesson_location', 'cmi.suspend_data': 'cmi.suspend_data', 'cmi.launch_data': 'cmi.launch_data' };

  function parseModel(text) {
    var model = {};
    try { model = JSON.parse(text || '{}') || {}; } catch (e) { model = {}; }
    return model;
  }

  // What scorm-again holds, in the attempt's shape: element -> string, with the _counts the data model has.
  function toDataModel(flat, base) {
    var out = {};
    Object.keys(base).forEach(function (k) { out[k] = String(base[k]); });
    Object.keys(flat).forEach(function (k) {
      var v = flat[k];
      if (v === null || typeof v === 'object') return;
      if (v === '' && !(k in base)) return;
      out[k] = String(v);
    });
    // Each list's _count: one more than its highest index (cmi.interactions.3.id -> 4).
    var counts = { 'cmi.interactions': 0, 'cmi.objectives': 0, 'cmi.comments_from_learner': 0, 'cmi.comments_from_lms': 0 };
    Object.keys(out).forEach(function (k) {
      var parts = k.split('.');
      for (var i = 1; i < parts.length; i++) {
        if (/^\d+$/.test(parts[i])) {
          var list = parts.slice(0, i).join('.');
          counts[list] = Math.max(counts[list] || 0, Number(parts[i]) + 1);
        }
      }
      var interaction = /^(cmi\.interactions\.\d+)\.id$/.exec(k);
      if (interaction) {
        if (!((interaction[1] + '.objectives') in counts)) counts[interaction[1] + '.objectives'] = 0;
        if (!((interaction[1] + '.correct_responses') in counts)) counts[interaction[1] + '.correct_responses'] = 0;
      }
    });
    Object.keys(counts).forEach(function (list) { out[list + '._count'] = String(counts[list]); });
    return out;
  }

  function from12(flat, base) {
    var out = {};
    Object.keys(base).forEach(function (k) { out[k] = String(base[k]); });
    var status = flat['cmi.core.lesson_status'];
    if (status === 'passed' || status === 'failed') { out['cmi.success_status'] = status; out['cmi.completion_status'] = 'completed'; }
    else if (status === 'completed' || status === 'incomplete') out['cmi.completion_status'] = status;
    var raw = Number(flat['cmi.core.score.raw']);
    var max = Number(flat['cmi.core.score.max'] || 100);
    if (flat['cmi.core.score.raw'] !== '' && flat['cmi.core.score.raw'] !== undefined && !isNaN(raw) && max > 0) out['cmi.score.scaled'] = String(Math.max(-1, Math.min(1, raw / max)));
    if (typeof flat['cmi.suspend_data'] === 'string') out['cmi.suspend_data'] = flat['cmi.suspend_data'];
    if (typeof flat['cmi.core.lesson_location'] === 'string') out['cmi.location'] = flat['cmi.core.lesson_location'];
    if (flat['cmi.core.exit'] === 'suspend') out['cmi.exit'] = 'suspend';
    return out;
  }

  function startingData(model, version) {
    var start = {};
    Object.keys(model).forEach(function (k) {
      if (/\._count$/.test(k)) return;
      if (version === '1.2') { if (TO_12[k]) start[TO_12[k]] = model[k]; }
      else start[k] = model[k];
    });
    if (version === '1.2') start['cmi.core.lesson_mode'] = model['cmi.mode'] === 'review' ? 'review' : 'normal';
    return start;
  }

  function commit(terminate) {
    var version = context.task_definition.scorm_version;
    var flat = api.getFlattenedCMI();
    var model = version === '1.2' ? from12(flat, current.model) : toDataModel(flat, current.model);
    var body = { cmi_datamodel: JSON.stringify(model) };
    if (terminate) body.terminated = true;
    mark('commit');
    var answer = callNow('PATCH', '/test_attempts/' + current.attempt.id, body);
    current.model = model;
    current.attempt = answer;
    return answer;
  }

  // scorm-again's commits go here (its HTTP service interface): synchronous, so Commit answers the package truly.
  var httpService = {
    processHttpRequest: function (url, params, immediate, apiLog, processListeners, metadata) {
      var terminate = !!(metadata && metadata.isTerminateCommit) || !!immediate;
      if (!current || current.mode === 'review') return { result: 'true', errorCode: 0 };
      try {
        commit(terminate);
        mark(terminate ? 'terminated' : 'committed');
        setState(terminate ? 'terminated' : 'committed');
        if (!terminate) say('Saved.');
        return { result: 'true', errorCode: 0 };
      } catch (error) {
        current.refused = error.message || String(error);
        say(current.refused, true);
        return { result: 'false', errorCode: 101 };
      }
    },
    updateSettings: function () {},
  };

  function assetUrl(token, launch) {
    var q = launch.indexOf('?');
    var path = q < 0 ? launch : launch.slice(0, q);
    var query = q < 0 ? '' : launch.slice(q);
    var encoded = path.split('/').map(encodeURIComponent).join('/');
    return API + '/scorm/' + context.task_definition.id + '/' + encodeURIComponent(session.username) + '/' + encodeURIComponent(token) + '/' + encoded + query;
  }

  function stopPlaying() {
    if (lms) { lms.destroy(); lms = null; }
    var frame = $('sco');
    frame.removeAttribute('src');
    frame.src = 'about:blank';
    api = null;
    current = null;
  }

  function play(attempt, mode) {
    var td = context.task_definition;
    var version = td.scorm_version === '1.2' ? '1.2' : '2004';
    mark('play');
    setState('loading');
    say(mode === 'review' ? 'Loading the attempt for review…' : 'Loading the test…');
    var model = parseModel(attempt.cmi_datamodel);
    var runtime = version === '1.2' ? config.runtime.scorm12 : config.runtime.scorm2004;
    Promise.all([
      window.CrossFrameLMS ? null : loadScript(config.runtime.lms),
      (version === '1.2' ? window.Scorm12API : window.Scorm2004API) ? null : loadScript(runtime),
      call('GET', '/auth/scorm'),
    ]).then(function (loaded) {
      var token = loaded[2].scorm_auth_token;
      var Api = version === '1.2' ? window.Scorm12API : window.Scorm2004API;
      stopPlaying();
      current = { attempt: attempt, mode: mode, model: model };
      api = new Api({ autocommit: false, lmsCommitUrl: API + '/test_attempts/' + attempt.id, httpService: httpService, logLevel: 5, mastery_override: false, autoProgress: false });
      api.loadFromFlattenedJSON(startingData(model, version));
      api.on(version === '1.2' ? 'LMSInitialize' : 'Initialize', function () { mark('initialized'); setState(mode === 'review' ? 'reviewing' : 'initialized'); say(mode === 'review' ? 'Review: nothing you do here is saved.' : 'Test in progress: it saves as you go.'); });
      api.on(version === '1.2' ? 'LMSFinish' : 'Terminate', function () {
        // A refused commit's reason stays on the page: the attempt holds only what was accepted.
        var refused = current && current.refused;
        setTimeout(function () {
          stopPlaying();
          refresh().then(function () {
            if (refused) say('The test could not save everything: ' + refused, true);
            else say(mode === 'review' ? 'Review closed.' : 'Attempt finished.');
          }).catch(failed);
        }, 0);
      });
      var frame = $('sco');
      show('panel', false);
      show('player', true);
      $('player-mode').textContent = mode === 'review' ? 'Review' : '';
      frame.src = assetUrl(token, td.scorm_launch_file || 'index.html');
      lms = new window.CrossFrameLMS(api, '*');
    }).catch(failed);
  }

  // Only the package's frame may call the run-time: a message from any other window stops here,
  // before CrossFrameLMS (which must accept '*', as a sandboxed frame's origin is opaque) sees it.
  window.addEventListener('message', function (event) {
    if (event.source !== $('sco').contentWindow) event.stopImmediatePropagation();
  });

  $('close').addEventListener('click', function () {
    if (current && current.mode !== 'review' && api) {
      // Leaving without Terminate: what the package has set is kept, and the attempt stays open to resume.
      try { commit(false); } catch (error) { say(error.message, true); }
    }
    stopPlaying();
    refresh().catch(failed);
  });

  // ---- Start-up -----------------------------------------------------------------------------------

  mark('start');
  var fragment = fromFragment();
  var signedIn = fragment
    ? exchange(fragment.username, fragment.token, 'auth_token').then(loadContext)
    : tryStored(storedSessions()).then(function (ok) { if (!ok) throw new ApiError(419, ''); });
  signedIn.then(function () { return refresh(true); }).catch(function (error) {
    if (fragment && !session && (error.status === 401 || error.status === 400)) {
      return askToSignIn('This link from your course has been used or has expired: sign in, or open it again from the course.');
    }
    if (error.status === 419 || error.status === 401) return askToSignIn(error.message || null);
    failed(error);
  });
})();
`;
