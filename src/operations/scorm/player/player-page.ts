// GET /api/scorm/player/{task_def_id}: the SCORM player's page, for browsers (the 8.0 web client's
// link in the task description, an LMS's deep link). It is a shell: no credentials arrive with a
// browser's navigation, so it names only the task definition, and its script (player.js) signs in
// and asks the API for the rest. Its policy allows scripts from this origin only (no inline script:
// the JSON block below is data, never run), frames from this origin only (the package, from the
// asset route, in a sandboxed frame), and requests to this origin only.
import { escapeHtml } from '../../../lib/html.ts';
import { runtimeUrls } from '../runtime/runtime-files.ts';

export const PLAYER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; " +
  "base-uri 'none'; form-action 'none'";

/** A JSON value inside <script type="application/json">: `<` escaped so no text can close the element. */
const jsonBlock = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** `webUrl`: the web client (WEB_CLIENT_URL), linked from the page's header when known. */
export async function playerPage(product: string, taskDefinitionId: number, webUrl?: string): Promise<string> {
  const files = await runtimeUrls(['player.js', 'player.css', 'scorm2004.min.js', 'scorm12.min.js', 'cross-frame-lms.min.js']);
  const config = {
    task_def_id: taskDefinitionId,
    product,
    runtime: { scorm2004: files['scorm2004.min.js'], scorm12: files['scorm12.min.js'], lms: files['cross-frame-lms.min.js'] },
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Online test - ${escapeHtml(product)}</title>
<link rel="stylesheet" href="${escapeHtml(files['player.css']!)}">
<script type="application/json" id="player-config">${jsonBlock(config)}</script>
<script src="${escapeHtml(files['player.js']!)}" defer></script>
</head><body data-state="loading">
<header><h1 id="title">Online test</h1><p id="unit">${escapeHtml(product)}</p>${webUrl ? `<p><a id="back" href="${escapeHtml(webUrl)}">Back to ${escapeHtml(product)}</a></p>` : ''}</header>
<main>
<p id="status" role="status">Loading…</p>
<section id="signin" hidden>
<form id="signin-form"><label>Username <input id="signin-username" name="username" autocomplete="username" required></label>
<label>Password <input id="signin-password" name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
</section>
<section id="panel" hidden>
<p id="summary"></p>
<div id="actions"></div>
<table id="attempts-table" hidden><thead><tr><th>#</th><th>Started</th><th>Result</th><th></th></tr></thead><tbody id="attempts"></tbody></table>
</section>
</main>
<section id="player" hidden><div class="bar"><strong id="player-mode"></strong><button type="button" id="close">Close the test</button><span id="player-status" role="status"></span></div>
<iframe id="sco" title="Online test" sandbox="allow-scripts allow-forms allow-popups allow-modals" referrerpolicy="no-referrer"></iframe></section>
</body></html>`;
}
