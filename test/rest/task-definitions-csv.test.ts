import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ActivityType, Break, GroupSet, TaskDefinition, TutorialStream } from '../../schema/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import { readCsv } from '../../src/domain/csv.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { pdfBytes } from '../support/zips.ts';

const test = suite('REST /api/csv/task_definitions');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const at = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** T1 2026 from Monday 2 March, with a two-week break from 6 April (week 6 starts 20 April). */
async function period(): Promise<number> {
  const id = await seedPeriod(env, { startDate: at('2026-03-02'), endDate: at('2026-06-12'), activeUntil: at('2026-07-01') });
  const em = env.orm.em.fork();
  em.create(Break, { teachingPeriod: id, startDate: '2026-04-06', numberOfWeeks: 2 });
  await em.flush();
  return id;
}

async function staffedUnit(code: string, teachingPeriod: number): Promise<number> {
  const unit = await seedUnit(env, { code, teachingPeriod, startDate: '2026-03-02', endDate: '2026-06-12' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  return unit;
}

async function insert(entity: unknown, data: Record<string, unknown>): Promise<number> {
  const em = env.orm.em.fork();
  const row = em.create(entity as never, data as never) as { id: number };
  await em.flush();
  return row.id;
}

async function streamAndSet(unit: number): Promise<void> {
  const em = env.orm.em.fork();
  const type = (await em.findOne(ActivityType, { abbreviation: 'prac' })) ?? em.create(ActivityType, { name: 'Practical', abbreviation: 'prac' });
  await em.flush();
  await insert(TutorialStream, { unit, activityType: type.id, name: 'Practicals', abbreviation: 'prac1' });
  await insert(GroupSet, { unit, name: 'Teams' });
}

const P1 = {
  name: 'Pass Task 1',
  abbreviation: 'P1',
  description: 'Write a program, then "test" it,\nthoroughly',
  weighting: 4,
  target_grade: 0,
  start_date: '2026-03-02',
  target_date: '2026-03-13',
  restrict_status_updates: true,
  upload_requirements: '[{"key":"file0","name":"Report","type":"document","tii_check":true,"tii_pct":20},{"key":"file1","name":"Code","type":"code"}]',
  plagiarism_checks: '[{"key":"file1","type":"moss python","pattern":"*.py"}]',
  plagiarism_warn_pct: 60,
  is_graded: false,
  max_quality_pts: 5,
  tutorial_stream_abbr: 'prac1',
};

async function createDefinition(unit: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await api(env, 'POST', `/api/units/${unit}/task_definitions`, { as: people.convenor.creds, json: { task_def: { ...P1, ...overrides } } });
  assert.is(res.status, 201, res.text);
  return res.body.id;
}

/** The unit's definitions as stored, by abbreviation, in comparable form. */
async function stored(unit: number) {
  const rows = await env.orm.em.fork().find(TaskDefinition, { unit }, { orderBy: { abbreviation: 'asc' }, populate: ['groupSet', 'tutorialStream'] });
  return rows.map((d) => ({
    name: d.name,
    abbreviation: d.abbreviation,
    description: d.description,
    weighting: d.weighting,
    targetGrade: d.targetGrade,
    startDate: d.startDate,
    targetDate: d.targetDate,
    dueDate: d.dueDate,
    restrictStatusUpdates: d.restrictStatusUpdates,
    uploadRequirements: d.uploadRequirements,
    plagiarismChecks: d.plagiarismChecks,
    plagiarismWarnPct: d.plagiarismWarnPct,
    isGraded: d.isGraded,
    maxQualityPts: d.maxQualityPts,
    groupSet: (d.groupSet as unknown as { name: string } | null)?.name ?? null,
    stream: (d.tutorialStream as unknown as { abbreviation: string } | null)?.abbreviation ?? null,
  }));
}

/** A CSV cell, always quoted. */
const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;

const csvFile = (text: string | Buffer, filename = 'tasks.csv') => ({
  file: { filename, contentType: 'text/csv', data: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8') },
});

const HEADER =
  'name,abbreviation,description,weighting,target_grade,restrict_status_updates,max_quality_pts,is_graded,plagiarism_warn_pct,plagiarism_checks,' +
  'group_set,upload_requirements,start_week,start_day,target_week,target_day,due_week,due_day,tutorial_stream';
/** What the export writes: HEADER with the online-test settings and the assessment steps (an import may leave those out, as HEADER does). */
const EXPORT_HEADER =
  'name,abbreviation,description,weighting,target_grade,restrict_status_updates,max_quality_pts,is_graded,plagiarism_warn_pct,plagiarism_checks,' +
  'scorm_enabled,scorm_allow_review,scorm_bypass_test,scorm_time_delay_enabled,scorm_attempt_limit,' +
  'group_set,upload_requirements,start_week,start_day,target_week,target_day,due_week,due_day,tutorial_stream,scorm_trust,scorm_pass_status,requires_discussion,discussion_prompts,prerequisites,overseer_steps';

test('download: <CODE>-Tasks.csv, every column in order, weeks of the unit calendar over its break, JSON columns as JSON', async () => {
  const tp = await period();
  const unit = await staffedUnit('SIT101', tp);
  await streamAndSet(unit);
  const teams = (await env.orm.em.fork().findOneOrFail(GroupSet, { unit })).id;
  await createDefinition(unit);
  await createDefinition(unit, {
    name: 'Credit Task',
    abbreviation: 'C1',
    start_date: '2026-04-01', // Wed of week 5
    target_date: '2026-04-22', // Wed of week 6, after the break
    due_date: '2026-05-01', // Fri of week 7
    upload_requirements: '[]',
    plagiarism_checks: '[]',
    group_set_id: teams,
    is_graded: true,
    target_grade: 1,
  });
  for (const who of [people.convenor, people.tutor, people.admin]) {
    const res = await api(env, 'GET', '/api/csv/task_definitions', { as: who.creds, query: { unit_id: unit } });
    assert.is(res.status, 200, who.creds.username);
    assert.match(String(res.headers['content-type']), 'text/csv');
    assert.is(res.headers['content-disposition'], 'attachment; filename=SIT101-Tasks.csv');
    const { headers, rows } = await readCsv(res.text);
    assert.is(headers.join(','), EXPORT_HEADER);
    assert.equal(JSON.parse(rows[0].upload_requirements), JSON.parse(P1.upload_requirements));
    assert.equal(
      { ...rows[0], upload_requirements: '' },
      {
        name: 'Pass Task 1',
        abbreviation: 'P1',
        description: 'Write a program, then "test" it,\nthoroughly',
        weighting: '4',
        target_grade: '0',
        restrict_status_updates: 'true',
        max_quality_pts: '5',
        is_graded: 'false',
        plagiarism_warn_pct: '60',
        plagiarism_checks: '[{"key":"file1","type":"moss python","pattern":"*.py"}]',
        scorm_enabled: 'false',
        scorm_allow_review: 'false',
        scorm_bypass_test: 'false',
        scorm_time_delay_enabled: 'false',
        scorm_attempt_limit: '0',
        group_set: '',
        upload_requirements: '',
        start_week: '1',
        start_day: 'Mon',
        target_week: '2',
        target_day: 'Fri',
        due_week: '',
        due_day: '',
        tutorial_stream: 'prac1',
        scorm_trust: 'package',
        scorm_pass_status: '',
        requires_discussion: 'false',
        discussion_prompts: '[]',
        prerequisites: '[]',
        overseer_steps: '[]',
      },
    );
    assert.equal(
      [
        rows[1].abbreviation,
        rows[1].group_set,
        rows[1].start_week,
        rows[1].start_day,
        rows[1].target_week,
        rows[1].target_day,
        rows[1].due_week,
        rows[1].due_day,
      ],
      ['C1', 'Teams', '5', 'Wed', '6', 'Wed', '7', 'Fri'],
    );
  }
});

test('round trip: a downloaded file creates the same definitions in another unit, and a second upload updates them', async () => {
  const tp = await period();
  const unit = await staffedUnit('SIT101', tp);
  const other = await staffedUnit('SIT102', tp);
  for (const u of [unit, other]) await streamAndSet(u);
  const teams = (await env.orm.em.fork().findOneOrFail(GroupSet, { unit })).id;
  await createDefinition(unit);
  await createDefinition(unit, {
    name: 'Credit Task',
    abbreviation: 'C1',
    target_date: '2026-04-22',
    due_date: '2026-05-01',
    group_set_id: teams,
    upload_requirements: '[]',
    plagiarism_checks: '[]',
  });
  const download = await api(env, 'GET', '/api/csv/task_definitions', { as: people.convenor.creds, query: { unit_id: unit } });

  const first = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(other), ...csvFile(download.text) },
  });
  assert.is(first.status, 201, first.text);
  assert.equal(
    first.body.success.map((r: { message: string }) => r.message),
    ['Added new task definition C1.', 'Added new task definition P1.'],
  );
  assert.equal([first.body.errors, first.body.ignored], [[], []]);
  assert.equal(first.body.success[1].row.abbreviation, 'P1');
  assert.equal(await stored(other), await stored(unit));

  const again = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.admin.creds,
    multipart: { unit_id: String(other), ...csvFile(download.text) },
  });
  assert.is(again.status, 201);
  assert.equal(
    again.body.success.map((r: { message: string }) => r.message),
    ['Updated existing task C1', 'Updated existing task P1'],
  );
  assert.equal(await stored(other), await stored(unit));
});

test('upload: BOM, CRLF and headers in any case and order; matched by abbreviation, else by name (which renames); yes/y/1 are true', async () => {
  const tp = await period();
  const unit = await staffedUnit('SIT101', tp);
  await streamAndSet(unit);
  await createDefinition(unit);
  const columns = HEADER.split(',').reverse();
  const line = (values: Record<string, string>) => columns.map((c) => cell(values[c] ?? '')).join(',');
  const base = {
    name: 'Pass Task 1',
    abbreviation: 'P1',
    description: 'd',
    weighting: '2',
    target_grade: '0',
    start_week: '1',
    start_day: 'Tue',
    target_week: '3',
    target_day: 'thu',
    tutorial_stream: 'prac1',
  };
  const text =
    '\uFEFF' +
    columns.map((c) => ` ${c.toUpperCase().replace(/_/g, ' ')} `).join(',') +
    '\r\n' +
    line({ ...base, abbreviation: 'P1X', is_graded: 'Yes', restrict_status_updates: 'y' }) + // by name: renamed P1 → P1X
    '\r\n' +
    line({
      ...base,
      name: 'New Task',
      abbreviation: 'N1',
      is_graded: '1',
      due_week: '6',
      due_day: 'Mon',
      upload_requirements: '[{"key":"file0","name":"Essay","type":"document"}]',
    }) +
    '\r\n';
  const res = await api(env, 'POST', '/api/csv/task_definitions', { as: people.convenor.creds, multipart: { unit_id: String(unit), ...csvFile(text) } });
  assert.is(res.status, 201, res.text);
  assert.equal(
    res.body.success.map((r: { message: string }) => r.message),
    ['Updated existing task P1X', 'Added new task definition N1.'],
  );
  const after = await stored(unit);
  assert.equal(
    after.map((d) => [d.abbreviation, d.name, d.startDate, d.targetDate, d.dueDate, d.isGraded, d.restrictStatusUpdates, d.weighting]),
    [
      ['N1', 'New Task', '2026-03-03', '2026-03-19', '2026-04-20', true, false, 2],
      ['P1X', 'Pass Task 1', '2026-03-03', '2026-03-19', null, true, true, 2],
    ],
  );
  assert.equal(after[0].uploadRequirements, [{ key: 'file0', name: 'Essay', type: 'document' }]);
});

test('upload: a refused row is an error naming why, changes nothing, and the rows after it still apply', async () => {
  const tp = await period();
  const unit = await staffedUnit('SIT101', tp);
  await streamAndSet(unit);
  await createDefinition(unit);
  await createDefinition(unit, { name: 'Second', abbreviation: 'P2' });
  const before = await stored(unit);
  const row = (cells: Record<string, string>) => {
    const values: Record<string, string> = {
      name: 'T',
      abbreviation: 'T',
      description: 'd',
      weighting: '1',
      target_grade: '0',
      start_week: '1',
      start_day: 'Mon',
      target_week: '2',
      target_day: 'Fri',
      tutorial_stream: 'prac1',
      ...cells,
    };
    return HEADER.split(',')
      .map((c) => cell(values[c] ?? ''))
      .join(',');
  };
  const cases: [Record<string, string>, string][] = [
    [{ abbreviation: '' }, 'Abbreviation and name cannot be empty.'],
    [{ abbreviation: 'A1', target_week: 'x' }, "Unable to determine target date for A1 -- need week number, and day short text eg. 'Wed'"],
    [{ abbreviation: 'A2', start_day: 'Someday' }, "Unable to determine start date for A2 -- need week number, and day short text eg. 'Wed'"],
    [{ abbreviation: 'A3', group_set: 'Nobody' }, 'Unable to find groupset with name Nobody in unit.'],
    [{ abbreviation: 'A4', tutorial_stream: 'nope' }, 'Unable to find requested Tutorial Stream'],
    [{ abbreviation: 'A5', tutorial_stream: '' }, 'Validation failed: Tutorial stream must be one of the tutorial streams in the unit'],
    [{ abbreviation: 'A6', upload_requirements: "[{:key=>'file0'}]" }, 'Validation failed: Upload requirements is not valid JSON'],
    [{ abbreviation: 'A7', target_grade: '7' }, 'Validation failed: Target grade 7 is not a valid target grade'],
    [{ abbreviation: 'A8', weighting: 'heavy' }, 'weighting is not a whole number: heavy'],
    // P2 (by abbreviation) given P1's name.
    [{ abbreviation: 'P2', name: 'Pass Task 1' }, 'Validation failed: Name has already been taken'],
    // P1 renamed to P2's name: the update is refused, P1 keeps its name.
    [{ abbreviation: 'P1', name: 'Second' }, 'Validation failed: Name has already been taken'],
    // An update the rules refuse leaves the definition as it was.
    [{ abbreviation: 'P2', name: 'Second', description: 'changed', target_grade: '9' }, 'Validation failed: Target grade 9 is not a valid target grade'],
    [{ abbreviation: 'B1', target_week: '1', target_day: 'Mon', start_week: '2' }, 'Validation failed: Target date must not be before the start date'],
    [{ abbreviation: 'B2', name: 'x'.repeat(256) }, 'Validation failed: name is too long (maximum is 255 characters)'],
  ];
  const text = [HEADER, ...cases.map(([cells]) => row(cells)), HEADER, row({ abbreviation: 'OK', name: 'Fine' })].join('\n');
  const res = await api(env, 'POST', '/api/csv/task_definitions', { as: people.convenor.creds, multipart: { unit_id: String(unit), ...csvFile(text) } });
  assert.is(res.status, 201, res.text);
  assert.equal(
    res.body.errors.map((r: { message: string }) => r.message),
    cases.map(([, message]) => message),
  );
  assert.equal(
    res.body.ignored.map((r: { message: string }) => r.message),
    ['Header row skipped.'],
  );
  assert.equal(
    res.body.success.map((r: { message: string }) => r.message),
    ['Added new task definition OK.'],
  );
  const after = await stored(unit);
  assert.equal(
    after.map((d) => d.abbreviation),
    ['OK', 'P1', 'P2'],
  );
  assert.equal(
    after.filter((d) => d.abbreviation !== 'OK'),
    before,
  );
});

test('refusals: students may not download, tutors and students not upload; unknown units 404; bad input 400; a PDF is not a CSV; nothing written', async () => {
  const tp = await period();
  const unit = await staffedUnit('SIT101', tp);
  await streamAndSet(unit);
  const good = csvFile(`${HEADER}\nNew,N1,d,1,0,false,0,false,50,[],,[],1,Mon,2,Fri,,,prac1\n`);
  const student = await api(env, 'GET', '/api/csv/task_definitions', { as: people.student.creds, query: { unit_id: unit } });
  assert.equal([student.status, student.body], [403, { error: 'Not authorised to download task definitions of unit' }]);
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'POST', '/api/csv/task_definitions', { as: who.creds, multipart: { unit_id: String(unit), ...good } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload CSV of tasks' }], who.creds.username);
  }
  const unknownGet = await api(env, 'GET', '/api/csv/task_definitions', { as: people.admin.creds, query: { unit_id: 9999 } });
  const unknownPost = await api(env, 'POST', '/api/csv/task_definitions', { as: people.admin.creds, multipart: { unit_id: '9999', ...good } });
  assert.equal([unknownGet.status, unknownPost.status], [404, 404]);
  const noUnit = await api(env, 'GET', '/api/csv/task_definitions', { as: people.admin.creds });
  assert.equal([noUnit.status, noUnit.body], [400, { error: 'unit_id is missing' }]);
  const noFile = await api(env, 'POST', '/api/csv/task_definitions', { as: people.convenor.creds, multipart: { unit_id: String(unit) } });
  assert.equal([noFile.status, noFile.body], [400, { error: 'file is missing' }]);
  const headers = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(unit), ...csvFile('name,abbreviation\nA,B\n') },
  });
  assert.is(headers.status, 400);
  assert.match(headers.body.error, /^Missing headers: description, weighting, /);
  const broken = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(unit), ...csvFile(`${HEADER}\n"unclosed,N1\n`) },
  });
  assert.is(broken.status, 400);
  const pdf = await api(env, 'POST', '/api/csv/task_definitions', {
    as: people.convenor.creds,
    multipart: { unit_id: String(unit), ...csvFile(pdfBytes('x'), 'tasks.csv') },
  });
  assert.equal([pdf.status, pdf.body], [403, { error: 'File given is not a csv file - detected application/pdf' }]);
  assert.equal(await stored(unit), []);
});

test('tRPC: the typed caller downloads the CSV', async () => {
  const tp = await period();
  const unit = await staffedUnit('SIT101', tp);
  await streamAndSet(unit);
  await createDefinition(unit);
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.tutor.creds));
  const file = await caller.units.taskDefinitions.csvDownload({ unit_id: unit });
  assert.is(file.filename, 'SIT101-Tasks.csv');
  assert.equal(
    (await readCsv(String(file.data))).rows.map((r) => r.abbreviation),
    ['P1'],
  );
});

test.run();
