// GET /api/submission/unit/{id}/portfolio, .../task_definitions/{td}/student_pdfs and
// .../download_submissions: the unit-wide zips staff download, opened and their entries checked.
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GroupSubmission, SubmissionFile, Task, TaskSubmission } from '../../schema/index.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from '../support/env.ts';
import { createUser, signedIn, type People } from '../support/fixtures.ts';
import type { Credentials } from '../support/http.ts';
import { seedGroupRow, seedGroupSet, seedMember } from '../support/seed-group-members.ts';
import { seedEnrolmentIn, seedTaskDef, seedTutorialRow } from '../support/seed-tutorials.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';
import { pdfBytes, unzip } from '../support/zips.ts';

const test = suite('REST unit-wide zips: portfolios, task PDFs, submitted files');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const put = (key: string, data: Buffer) => env.services.storage.put(key, Readable.from([data]));

const get = (path: string, as: Credentials) => env.app.inject({ method: 'GET', url: path, headers: { Username: as.username, 'Auth-Token': as.token } });

async function student(unit: number, username: string, seed: Parameters<typeof enrol>[3] = {}) {
  const user = await createUser(env, username, 'Student');
  return enrol(env, user, unit, seed);
}

async function world() {
  const unit = await seedUnit(env, { code: 'SIT101' });
  const convenorRole = await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  const tutorRole = await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  const lab = await seedTutorialRow(env, unit, 'LA1', { tutor: tutorRole });
  const td = await seedTaskDef(env, unit, '1.1P');
  return { unit, lab, td, convenorRole };
}

async function task(project: number, td: number, seed: { pdf?: string; group?: number } = {}) {
  const em = env.orm.em.fork();
  const t = em.create(Task, { project, taskDefinition: td, groupSubmission: seed.group ?? null, pdfPath: seed.pdf ?? null });
  await em.flush();
  return t.id;
}

async function upload(taskId: number, at: string, files: [idx: number, kind: 'document' | 'code', ext: string, data: string][]) {
  const em = env.orm.em.fork();
  const s = em.create(TaskSubmission, { task: taskId, submittedAt: new Date(at), processing: false });
  await em.flush();
  for (const [idx, kind, ext, data] of files) {
    const key = storageKeys.submissionFile(s.id, idx, kind, ext);
    await put(key, Buffer.from(data));
    em.create(SubmissionFile, {
      submission: s.id,
      idx,
      key: 'k'.repeat(64),
      name: `f${idx}`,
      kind,
      originalFilename: `f${idx}.${ext}`,
      contentType: 'text/plain',
      sizeBytes: data.length,
      storagePath: key,
    });
  }
  await em.flush();
  return s.id;
}

test('portfolios: enrolled students with a compiled portfolio, filed by submitted (else target) grade and named with their tutors', async () => {
  const { unit, lab, convenorRole } = await world();
  const second = await seedTutorialRow(env, unit, 'LA2', { tutor: convenorRole });
  const when = new Date('2026-05-01T00:00:00Z');
  const alice = await student(unit, 'alice', { targetGrade: 3, portfolioProductionDate: when });
  const bob = await student(unit, 'bob', { targetGrade: 0, portfolioProductionDate: when });
  const carol = await student(unit, 'carol', { targetGrade: 2, portfolioProductionDate: when, enrolled: false });
  const dave = await student(unit, 'dave', { targetGrade: 1 }); // not compiled
  await student(unit, 'erin', { targetGrade: 1, portfolioProductionDate: when }); // compiled once, the file is gone
  await env.orm.em.fork().getConnection().execute('update projects set submitted_grade = 1 where id = ?', [bob]);
  await seedEnrolmentIn(env, alice, lab);
  await seedEnrolmentIn(env, bob, lab);
  await seedEnrolmentIn(env, bob, second);
  for (const p of [alice, bob, carol, dave]) await put(storageKeys.portfolio(p), pdfBytes(`portfolio ${p}`));
  const name = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`;
  const tutor = name(people.tutor.user);
  const convenor = name(people.convenor.user);
  for (const who of [people.tutor, people.convenor]) {
    const res = await get(`/api/submission/unit/${unit}/portfolio`, who.creds);
    assert.is(res.statusCode, 200, res.body);
    assert.is(res.headers['content-type'], 'application/zip');
    assert.is(
      res.headers['content-disposition'],
      "attachment; filename=2026-03-02_00_00_00-SIT101-portfolios.zip; filename*=UTF-8''2026-03-02%2000_00_00-SIT101-portfolios.zip",
    );
    const entries = await unzip(res.rawPayload);
    assert.equal([...entries.keys()], [`Credit/bob-portfolio (${tutor} (LA1) ${convenor} (LA2)).pdf`, `High Distinction/alice-portfolio (${tutor} (LA1)).pdf`]);
    assert.equal(entries.get(`High Distinction/alice-portfolio (${tutor} (LA1)).pdf`), pdfBytes(`portfolio ${alice}`));
    assert.equal(entries.get(`Credit/bob-portfolio (${tutor} (LA1) ${convenor} (LA2)).pdf`), pdfBytes(`portfolio ${bob}`));
  }
});

test('each zip is built fresh: a portfolio compiled after the first download is in the second', async () => {
  const { unit } = await world();
  const when = new Date('2026-05-01T00:00:00Z');
  const first = await get(`/api/submission/unit/${unit}/portfolio`, people.tutor.creds);
  assert.is(first.statusCode, 200);
  assert.is((await unzip(first.rawPayload)).size, 0);
  const alice = await student(unit, 'alice', { portfolioProductionDate: when });
  await put(storageKeys.portfolio(alice), pdfBytes('alice'));
  const second = await get(`/api/submission/unit/${unit}/portfolio`, people.tutor.creds);
  assert.equal([...(await unzip(second.rawPayload)).keys()], ['Pass/alice-portfolio.pdf']);
});

test('student_pdfs: every task PDF once, a group submission once under the group name', async () => {
  const { unit, lab, td } = await world();
  const alice = await student(unit, 'alice');
  const bob = await student(unit, 'bob');
  const carol = await student(unit, 'carol');
  const dave = await student(unit, 'dave');
  const set = await seedGroupSet(env, unit);
  const group = await seedGroupRow(env, set, lab, 'Team/Rocket');
  for (const p of [bob, carol]) await seedMember(env, group, p);
  const em = env.orm.em.fork();
  const gs = em.create(GroupSubmission, { group, taskDefinition: td, submittedBy: carol });
  await em.flush();
  await put('submissions/1/submission.pdf', pdfBytes('alice pdf'));
  await put('submissions/2/submission.pdf', pdfBytes('group pdf'));
  await task(alice, td, { pdf: 'submissions/1/submission.pdf' });
  await task(bob, td, { pdf: 'submissions/2/submission.pdf', group: gs.id });
  await task(carol, td, { pdf: 'submissions/2/submission.pdf', group: gs.id });
  await task(dave, td); // no PDF
  const res = await get(`/api/submission/unit/${unit}/task_definitions/${td}/student_pdfs`, people.tutor.creds);
  assert.is(res.statusCode, 200, res.body);
  assert.is(
    res.headers['content-disposition'],
    "attachment; filename=2026-03-02_00_00_00-SIT101-1.1P-pdfs.zip; filename*=UTF-8''2026-03-02%2000_00_00-SIT101-1.1P-pdfs.zip",
  );
  const entries = await unzip(res.rawPayload);
  assert.equal([...entries.keys()], ['1.1P-pdfs/alice.pdf', '1.1P-pdfs/Team_Rocket.pdf']);
  assert.equal(entries.get('1.1P-pdfs/alice.pdf'), pdfBytes('alice pdf'));
  assert.equal(entries.get('1.1P-pdfs/Team_Rocket.pdf'), pdfBytes('group pdf'));
});

test("download_submissions: each task's latest upload as uploaded, one folder per student or group", async () => {
  const { unit, lab, td } = await world();
  const alice = await student(unit, 'alice');
  const bob = await student(unit, 'bob');
  const carol = await student(unit, 'carol');
  await student(unit, 'dave');
  const set = await seedGroupSet(env, unit);
  const group = await seedGroupRow(env, set, lab, 'Team');
  for (const p of [bob, carol]) await seedMember(env, group, p);
  const em = env.orm.em.fork();
  const gs = em.create(GroupSubmission, { group, taskDefinition: td, submittedBy: carol });
  await em.flush();
  const a = await task(alice, td);
  const b = await task(bob, td, { group: gs.id });
  const c = await task(carol, td, { group: gs.id });
  await upload(a, '2026-03-03T00:00:00Z', [[0, 'document', 'pdf', 'old']]);
  await upload(a, '2026-03-04T00:00:00Z', [
    [0, 'document', 'pdf', 'new'],
    [1, 'code', 'py', 'print(1)'],
  ]);
  await upload(b, '2026-03-03T00:00:00Z', [[0, 'document', 'pdf', 'bob first']]);
  await upload(c, '2026-03-05T00:00:00Z', [[0, 'document', 'pdf', 'carol latest']]);
  const res = await get(`/api/submission/unit/${unit}/task_definitions/${td}/download_submissions`, people.convenor.creds);
  assert.is(res.statusCode, 200, res.body);
  assert.is(
    res.headers['content-disposition'],
    "attachment; filename=2026-03-02_00_00_00-SIT101-1.1P-submissions.zip; filename*=UTF-8''2026-03-02%2000_00_00-SIT101-1.1P-submissions.zip",
  );
  const entries = await unzip(res.rawPayload);
  assert.equal(
    [...entries.keys()],
    ['1.1P-submissions/alice/000-document.pdf', '1.1P-submissions/alice/001-code.py', '1.1P-submissions/Team/000-document.pdf'],
  );
  assert.is(entries.get('1.1P-submissions/alice/000-document.pdf')!.toString(), 'new');
  assert.is(entries.get('1.1P-submissions/alice/001-code.py')!.toString(), 'print(1)');
  assert.is(entries.get('1.1P-submissions/Team/000-document.pdf')!.toString(), 'carol latest');
});

test('students, admins and outsiders are refused with 403; unknown units and definitions 404; bad ids 400', async () => {
  const { unit, td } = await world();
  const other = await seedUnit(env, { code: 'SIT202' });
  const foreignTd = await seedTaskDef(env, other, 'X');
  const outsider = await signedIn(env, 'otutor', 'Tutor');
  const paths = [
    `/api/submission/unit/${unit}/portfolio`,
    `/api/submission/unit/${unit}/task_definitions/${td}/student_pdfs`,
    `/api/submission/unit/${unit}/task_definitions/${td}/download_submissions`,
  ];
  for (const path of paths) {
    for (const who of [people.student, people.admin, outsider]) {
      const res = await get(path, who.creds);
      assert.is(res.statusCode, 403, `${path} ${who.creds.username}`);
      assert.equal(res.json(), { error: 'Not authorised to download submissions of this unit' });
    }
    const unknown = await get(path.replace(`/unit/${unit}/`, '/unit/99999/'), people.tutor.creds);
    assert.is(unknown.statusCode, 404, path);
    assert.is((await get(path.replace(`/unit/${unit}/`, '/unit/abc/'), people.tutor.creds)).statusCode, 400, path);
    assert.is((await get(path, { username: people.tutor.creds.username, token: 'nope' })).statusCode, 419, path);
  }
  for (const what of ['student_pdfs', 'download_submissions']) {
    for (const id of [99999, foreignTd]) {
      const res = await get(`/api/submission/unit/${unit}/task_definitions/${id}/${what}`, people.tutor.creds);
      assert.is(res.statusCode, 404, `${what} ${id}`);
      assert.equal(res.json(), { error: 'Unable to find requested Task Definition' });
    }
  }
});

test.run();
