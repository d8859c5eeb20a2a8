// What every download tells the browser (issue 14 §6 and §7): its own type and no sniffing, to be
// saved unless it is an image, audio, video or PDF, and a file name the real web client reads
// without mangling it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Project, Unit } from '../../schema/index.ts';
import { contentDisposition } from '../../compat/plugin.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api, type TestResponse } from '../support/http.ts';
import { samplePdf, samplePng } from '../support/sample-files.ts';
import { taskWorld } from '../support/task-world.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('REST downloads: nosniff, attachment for what is not media, file names as the web client reads them');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/**
 * The file name the web client saves a download under (its file-downloader service, unmodified):
 * the first `filename…=` value with single quotes removed; the browser then turns characters a file
 * name may not hold (the double quote among them) into `_`.
 */
function savedAs(res: TestResponse): string | undefined {
  const matches = /filename[^;=\n]*=((['']).*?\2|[^;\n]*)/.exec(String(res.headers['content-disposition'] ?? ''));
  if (!matches?.[1]) return undefined;
  return matches[1].replace(/['']/g, '').replace(/["*:<>?\\/|]/g, '_');
}

/** The name an RFC 6266 client (a browser saving the answer itself) takes: `filename*` when there is one. */
function rfc6266Name(header: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  return /filename=("?)([^";]*)\1/.exec(header)![2]!;
}

/** A PNG that is also an HTML page: the markup sits in a text chunk a browser sniffing for HTML finds. */
function pngPolyglot(): Buffer {
  const png = samplePng();
  const html = Buffer.from('<html><body><script>alert(document.domain)</script></body></html>', 'latin1');
  const chunk = Buffer.alloc(12 + html.length);
  chunk.writeUInt32BE(html.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  html.copy(chunk, 8);
  // The CRC is not checked by the content check or by browsers deciding what to show.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

test('the web client saves the grades CSV as DEMO101-Students.csv and a submission as 6.1C.pdf, not _…_', async () => {
  const w = await taskWorld(env, people);
  await env.orm.em.fork().nativeUpdate(Unit, { id: w.unit }, { code: 'DEMO101' });
  await env.orm.em.fork().nativeUpdate(Project, { id: w.project }, { grade: 50, gradeRationale: 'Fine' });
  const grades = await api(env, 'GET', `/api/units/${w.unit}/grades`, { as: people.convenor.creds });
  assert.is(grades.status, 200);
  assert.is(grades.headers['content-disposition'], 'attachment; filename=DEMO101-Students.csv');
  assert.is(savedAs(grades), 'DEMO101-Students.csv');
  const pdf = await api(env, 'GET', `/api/projects/${w.project}/task_def_id/${w.td}/submission`, { as: people.student.creds, query: { as_attachment: true } });
  assert.is(pdf.status, 200);
  assert.is(savedAs(pdf), 'FileNotFound.pdf', 'nothing handed in yet: the placeholder, under its own name');
  assert.is(contentDisposition('6.1C.pdf', true), 'attachment; filename=6.1C.pdf');
});

test('a name that is not a token: the web client saves it with _ for the odd characters, RFC 6266 clients get it exactly', () => {
  const cases: [string, string][] = [
    ['2026-03-02 00:00:00-SIT101-portfolios.zip', '2026-03-02_00_00_00-SIT101-portfolios.zip'],
    ["Tâche (1)'s.pdf", 'T_che__1__s.pdf'],
    ['say "hi"; now.pdf', 'say__hi___now.pdf'],
    ['50%.pdf', '50_.pdf'],
  ];
  for (const [name, forClient] of cases) {
    const header = contentDisposition(name, true);
    assert.is(savedAs({ headers: { 'content-disposition': header } } as unknown as TestResponse), forClient, name);
    assert.is(rfc6266Name(header), name, name);
    assert.not.match(header, /[\r\n"]/, name);
  }
  // Header-breaking characters never reach the header, in either form.
  assert.is(contentDisposition('a\r\nSet-Cookie: x=1.pdf', false), "inline; filename=a__Set-Cookie__x_1.pdf; filename*=UTF-8''a__Set-Cookie%3A%20x%3D1.pdf");
});

test('a PNG that is also HTML is served with its image type and nosniff; so is every other answer', async () => {
  const w = await taskWorld(env, people);
  const base = `/api/projects/${w.project}/task_def_id/${w.td}/comments`;
  const posted = await api(env, 'POST', base, {
    as: people.student.creds,
    multipart: { attachment: { filename: 'page.html', contentType: 'text/html', data: pngPolyglot() } },
  });
  assert.is(posted.status, 201, posted.text);
  const shown = await api(env, 'GET', `${base}/${posted.body.id}`, { as: people.tutor.creds, query: { as_attachment: false } });
  assert.equal(
    [shown.status, shown.headers['content-type'], shown.headers['x-content-type-options'], shown.headers['content-disposition']],
    [200, 'image/png', 'nosniff', `inline; filename=comment-${posted.body.id}.png`],
  );
  // JSON answers, errors and unknown routes carry it too.
  for (const [method, url] of [
    ['GET', base],
    ['GET', '/api/units/999999'],
    ['GET', '/api/no/such/route'],
  ]) {
    const res = await api(env, method, url, { as: people.tutor.creds });
    assert.is(res.headers['x-content-type-options'], 'nosniff', `${method} ${url} (${res.status})`);
  }
});

test('what is not an image, audio, video or PDF is saved, even where the operation would show it', async () => {
  const w = await taskWorld(env, people);
  // The calendar feed asks to be shown; it is text, so it is saved (calendar programs read it all the same).
  const put = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: true } } });
  assert.is(put.status, 200, put.text);
  const feed = await api(env, 'GET', `/api/webcal/${put.body.guid}`);
  assert.equal(
    [feed.status, feed.headers['content-disposition'], feed.headers['x-content-type-options']],
    [200, 'attachment; filename=calendar.ics', 'nosniff'],
  );
  // A PDF may still be shown in the page.
  const sheet = await api(env, 'POST', `/api/units/${w.unit}/task_definitions/${w.td}/task_sheet`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'sheet.pdf', contentType: 'application/pdf', data: samplePdf() } },
  });
  assert.is(sheet.status, 200, sheet.text);
  const shown = await api(env, 'GET', `/api/units/${w.unit}/task_definitions/${w.td}/task_pdf`, { as: people.student.creds });
  assert.match(String(shown.headers['content-disposition']), /^inline; filename=/);
  assert.is(shown.headers['x-content-type-options'], 'nosniff');
});

test.run();
