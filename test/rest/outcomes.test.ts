import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LearningOutcome } from '../../schema/index.ts';
import { createContext } from '../../src/trpc/context.ts';
import { appRouter } from '../../src/routers/index.ts';
import { createCallerFactory } from '../../src/trpc/core.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { countStatements } from '../support/statements.ts';
import { loadOutcomes, loadOutcomesByUnit } from '../../src/operations/units/outcomes/outcome-rows.ts';

const test = suite('REST /api/units/{unit_id}/outcomes');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** A unit convened by people.convenor, tutored by people.tutor, with people.student enrolled. */
async function staffedUnit(code = 'SIT101'): Promise<number> {
  const unit = await seedUnit(env, { code });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  return unit;
}

/** The unit's outcomes as stored: [abbreviation, ilo_number] in number order. */
async function numbering(unit: number): Promise<[string, number][]> {
  const rows = await env.orm.em.fork().find(LearningOutcome, { unit }, { orderBy: { iloNumber: 'asc', id: 'asc' } });
  return rows.map((o) => [o.abbreviation, o.iloNumber]);
}

async function addOutcomes(unit: number, ...abbreviations: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const abbreviation of abbreviations) {
    const res = await api(env, 'POST', `/api/units/${unit}/outcomes/`, {
      as: people.convenor.creds,
      json: { name: `Outcome ${abbreviation}`, description: `About ${abbreviation}`, abbreviation },
    });
    assert.is(res.status, 201, res.text);
    ids.push(res.body.id);
  }
  return ids;
}

test('create: 201 with the Outcome keys, numbered after the last; no abbreviation means ILO<n>', async () => {
  const unit = await staffedUnit();
  const first = await api(env, 'POST', `/api/units/${unit}/outcomes`, {
    as: people.convenor.creds,
    json: { name: 'Design', description: 'Design programs', abbreviation: 'DES' },
  });
  assert.is(first.status, 201);
  assert.equal(first.body, { id: first.body.id, ilo_number: 1, abbreviation: 'DES', name: 'Design', description: 'Design programs' });
  // Form bodies as the spec lists them; an admin who is not staff manages the unit too.
  const second = await api(env, 'POST', `/api/units/${unit}/outcomes`, { as: people.admin.creds, form: { name: 'Test', description: 'Test programs' } });
  assert.is(second.status, 201);
  assert.equal([second.body.ilo_number, second.body.abbreviation], [2, 'ILO2']);
  assert.equal(await numbering(unit), [
    ['DES', 1],
    ['ILO2', 2],
  ]);
});

test('create: the abbreviation is unique in the unit, but another unit may reuse it', async () => {
  const unit = await staffedUnit();
  const other = await staffedUnit('SIT102');
  await addOutcomes(unit, 'DES');
  const again = await api(env, 'POST', `/api/units/${unit}/outcomes`, {
    as: people.convenor.creds,
    json: { name: 'X', description: 'Y', abbreviation: 'DES' },
  });
  assert.is(again.status, 400);
  assert.equal(again.body, { error: 'Validation failed: Abbreviation has already been taken' });
  await addOutcomes(other, 'DES');
  assert.equal(await numbering(unit), [['DES', 1]]);
});

test('create: missing, blank, ill-typed and too long input is a 400 naming the field', async () => {
  const unit = await staffedUnit();
  const cases: [unknown, string][] = [
    [{ description: 'd' }, 'name is missing'],
    [{ name: '  ', description: 'd' }, 'name is empty'],
    [{ name: 'n' }, 'description is missing'],
    [{ name: 'n', description: { a: 1 } }, 'description is invalid'],
    [{ name: 'n', description: 'x'.repeat(4096) }, 'description is too long (maximum is 4095 characters)'],
  ];
  for (const [json, error] of cases) {
    const res = await api(env, 'POST', `/api/units/${unit}/outcomes`, { as: people.convenor.creds, json });
    assert.is(res.status, 400, JSON.stringify(json));
    assert.equal(res.body, { error });
  }
  const badUnit = await api(env, 'POST', '/api/units/abc/outcomes', { as: people.convenor.creds, json: { name: 'n', description: 'd' } });
  assert.is(badUnit.status, 400);
  assert.equal(await numbering(unit), []);
});

test('create, update, delete: tutors, students and outsiders get 403 with the message; unknown units and outcomes are 404', async () => {
  const unit = await staffedUnit();
  const [id] = await addOutcomes(unit, 'DES');
  const outsider = await seedUnit(env, { code: 'OTHER1' });
  await employ(env, people.tutor.user, outsider, 'Convenor'); // convenes another unit only
  const refused = [
    ['POST', `/api/units/${unit}/outcomes`, 'You are not authorised to create outcomes in this unit.'],
    ['PUT', `/api/units/${unit}/outcomes/${id}`, 'You are not authorised to update outcomes in this unit.'],
    ['DELETE', `/api/units/${unit}/outcomes/${id}`, 'You are not authorised to delete outcomes in this unit.'],
    ['GET', `/api/units/${unit}/outcomes/csv`, 'You are not authorised to download outcomes for this unit.'],
  ] as const;
  for (const [method, url, error] of refused) {
    for (const who of [people.tutor, people.student]) {
      const res = await api(env, method, url, { as: who.creds, json: method === 'GET' ? undefined : { name: 'Changed', description: 'Changed' } });
      assert.is(res.status, 403, `${method} ${url} as ${who.creds.username}`);
      assert.equal(res.body, { error });
    }
  }
  assert.equal(await numbering(unit), [['DES', 1]]);
  assert.is((await env.orm.em.fork().findOneOrFail(LearningOutcome, id)).name, 'Outcome DES');

  for (const [method, url] of [
    ['POST', '/api/units/9999/outcomes'],
    ['PUT', `/api/units/9999/outcomes/${id}`],
    ['DELETE', `/api/units/9999/outcomes/${id}`],
    ['GET', '/api/units/9999/outcomes/csv'],
  ] as const) {
    const res = await api(env, method, url, { as: people.admin.creds, json: method === 'GET' ? undefined : { name: 'n', description: 'd' } });
    assert.is(res.status, 404, `${method} ${url}`);
    assert.equal(res.body, { error: 'Unable to find requested Unit' });
  }
  // An outcome of another unit is unknown here.
  const [foreign] = await addOutcomesAs(outsider, people.tutor.creds, 'F1');
  for (const method of ['PUT', 'DELETE'] as const) {
    const res = await api(env, method, `/api/units/${unit}/outcomes/${foreign}`, { as: people.convenor.creds, json: { name: 'Stolen' } });
    assert.is(res.status, 404, method);
    assert.equal(res.body, { error: 'Unable to find requested Learning Outcome' });
  }
  assert.equal(await numbering(outsider), [['F1', 1]]);
});

async function addOutcomesAs(unit: number, creds: { username: string; token: string }, abbreviation: string): Promise<number[]> {
  const res = await api(env, 'POST', `/api/units/${unit}/outcomes`, { as: creds, json: { name: 'n', description: 'd', abbreviation } });
  assert.is(res.status, 201, res.text);
  return [res.body.id];
}

test('update: changes only the fields sent and answers the Outcome', async () => {
  const unit = await staffedUnit();
  const [id] = await addOutcomes(unit, 'DES');
  const res = await api(env, 'PUT', `/api/units/${unit}/outcomes/${id}`, { as: people.convenor.creds, json: { description: 'New text' } });
  assert.is(res.status, 200);
  assert.equal(res.body, { id, ilo_number: 1, abbreviation: 'DES', name: 'Outcome DES', description: 'New text' });
  const bad = await api(env, 'PUT', `/api/units/${unit}/outcomes/${id}`, { as: people.convenor.creds, json: { ilo_number: 'first' } });
  assert.is(bad.status, 400);
  assert.equal(bad.body, { error: 'ilo_number is invalid' });
  const zero = await api(env, 'PUT', `/api/units/${unit}/outcomes/${id}`, { as: people.convenor.creds, form: { ilo_number: '0' } });
  assert.equal([zero.status, zero.body], [400, { error: 'ilo_number is less than 1' }]);
});

test('update: a new ilo_number moves the outcome and shifts the ones in between, up or down, keeping 1..n', async () => {
  const unit = await staffedUnit();
  const [a, , , d] = await addOutcomes(unit, 'A', 'B', 'C', 'D', 'E');
  const up = await api(env, 'PUT', `/api/units/${unit}/outcomes/${d}`, { as: people.convenor.creds, json: { ilo_number: 2 } });
  assert.is(up.status, 200);
  assert.is(up.body.ilo_number, 2);
  assert.equal(await numbering(unit), [
    ['A', 1],
    ['D', 2],
    ['B', 3],
    ['C', 4],
    ['E', 5],
  ]);
  const down = await api(env, 'PUT', `/api/units/${unit}/outcomes/${a}`, { as: people.convenor.creds, json: { ilo_number: 4, name: 'Moved' } });
  assert.equal([down.body.ilo_number, down.body.name], [4, 'Moved']);
  assert.equal(await numbering(unit), [
    ['D', 1],
    ['B', 2],
    ['C', 3],
    ['A', 4],
    ['E', 5],
  ]);
  // Past the end: to the end.
  const far = await api(env, 'PUT', `/api/units/${unit}/outcomes/${d}`, { as: people.convenor.creds, json: { ilo_number: 99 } });
  assert.is(far.body.ilo_number, 5);
  assert.equal(await numbering(unit), [
    ['B', 1],
    ['C', 2],
    ['A', 3],
    ['E', 4],
    ['D', 5],
  ]);
});

test('delete: 204, the outcome is gone and the later ones move up, so a new one takes the next number', async () => {
  const unit = await staffedUnit();
  const [, b] = await addOutcomes(unit, 'A', 'B', 'C');
  const res = await api(env, 'DELETE', `/api/units/${unit}/outcomes/${b}`, { as: people.convenor.creds });
  assert.is(res.status, 204);
  assert.equal(await numbering(unit), [
    ['A', 1],
    ['C', 2],
  ]);
  await addOutcomes(unit, 'D');
  assert.equal(await numbering(unit), [
    ['A', 1],
    ['C', 2],
    ['D', 3],
  ]);
  const again = await api(env, 'DELETE', `/api/units/${unit}/outcomes/${b}`, { as: people.convenor.creds });
  assert.is(again.status, 404);
});

test('CSV download: every outcome in number order, quoted where needed, as an attachment named after the unit', async () => {
  const unit = await staffedUnit();
  await api(env, 'POST', `/api/units/${unit}/outcomes`, {
    as: people.convenor.creds,
    json: { name: 'Design, build', description: 'Say "why"\nthen how', abbreviation: 'DES' },
  });
  await addOutcomes(unit, 'TST');
  const res = await api(env, 'GET', `/api/units/${unit}/outcomes/csv.json`, { as: people.admin.creds });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-disposition']), 'attachment; filename=SIT101-LearningOutcomes.csv');
  assert.is(
    res.text,
    'unit_code,ilo_number,abbreviation,name,description\r\n' +
      'SIT101,1,DES,"Design, build","Say ""why""\nthen how"\r\n' +
      'SIT101,2,TST,Outcome TST,About TST\r\n',
  );
});

const csvFile = (text: string) => ({ file: { filename: 'outcomes.csv', contentType: 'text/csv', data: Buffer.from(text, 'utf8') } });

test('CSV upload: BOM, CRLF, quoted fields and headers in any case and order; other units ignored, known ones left alone', async () => {
  const unit = await staffedUnit();
  await addOutcomes(unit, 'DES');
  const text =
    '\uFEFFName , DESCRIPTION,Abbreviation,Unit_Code,ilo_number\r\n' +
    '"Test, well","Write ""tests""\r\nfirst",TST,SIT101,7\r\n' +
    'Other,Elsewhere,OTH,SIT999,1\r\n' +
    'Design again,Changed,DES,SIT101,1\r\n' +
    ',No name,NON,SIT101,2\r\n' +
    '\r\n' +
    'Deploy,Ship it,DEP,SIT101,3\r\n';
  const res = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, { as: people.convenor.creds, multipart: csvFile(text) });
  assert.is(res.status, 201, res.text);
  assert.equal(
    res.body.success.map((s: { message: string }) => s.message),
    ['Outcome TST created for unit', 'Outcome DEP created for unit'],
  );
  assert.equal(res.body.success[0].row, {
    name: 'Test, well',
    description: 'Write "tests"\r\nfirst',
    abbreviation: 'TST',
    unit_code: 'SIT101',
    ilo_number: '7',
  });
  assert.equal(
    res.body.ignored.map((s: { message: string }) => s.message),
    ['Invalid unit code. SIT999 does not match SIT101', 'Outcome DES already exists in SIT101; it was not changed'],
  );
  assert.equal(
    res.body.errors.map((s: { message: string }) => s.message),
    ['Missing name'],
  );
  assert.equal(await numbering(unit), [
    ['DES', 1],
    ['TST', 2],
    ['DEP', 3],
  ]);
  const des = await env.orm.em.fork().findOneOrFail(LearningOutcome, { unit, abbreviation: 'DES' });
  assert.is(des.name, 'Outcome DES');
});

test('CSV upload round trip: a downloaded file loads into another unit unchanged', async () => {
  const unit = await staffedUnit();
  await addOutcomes(unit, 'A', 'B');
  const download = await api(env, 'GET', `/api/units/${unit}/outcomes/csv`, { as: people.convenor.creds });
  const other = await staffedUnit('SIT101B');
  // Same code is needed for the rows to count: rename the file's unit code.
  const res = await api(env, 'POST', `/api/units/${other}/outcomes/csv`, {
    as: people.convenor.creds,
    multipart: csvFile(download.text.replaceAll('SIT101,', 'SIT101B,')),
  });
  assert.is(res.status, 201);
  assert.is(res.body.success.length, 2);
  assert.equal(await numbering(other), [
    ['A', 1],
    ['B', 2],
  ]);
});

test('CSV upload without a column it needs: 201, each row an error naming the missing headers, as the original answers; nothing written', async () => {
  const unit = await staffedUnit();
  const res = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, {
    as: people.convenor.creds,
    multipart: csvFile('unit_code,abbreviation,name\nSIT101,A,Apply\nSIT999,B,Build\n'),
  });
  assert.is(res.status, 201, res.text);
  assert.equal(res.body, {
    success: [],
    errors: [
      { row: { unit_code: 'SIT101', abbreviation: 'A', name: 'Apply' }, message: 'Missing headers: description' },
      { row: { unit_code: 'SIT999', abbreviation: 'B', name: 'Build' }, message: 'Missing headers: description' },
    ],
    ignored: [],
  });
  const several = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, { as: people.convenor.creds, multipart: csvFile('unit_code,abbr\nSIT101,A\n') });
  assert.equal([several.status, several.body.errors.map((e: { message: string }) => e.message)], [201, ['Missing headers: abbreviation, name, description']]);
  assert.equal(await numbering(unit), []);
});

test('CSV upload: refused roles 403; missing file and broken CSV 400; binary files 403; nothing written', async () => {
  const unit = await staffedUnit();
  const good = csvFile('unit_code,abbreviation,name,description\nSIT101,A,n,d\n');
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, { as: who.creds, multipart: good });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to upload CSV of outcomes' }]);
  }
  const none = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, { as: people.convenor.creds, multipart: { note: 'x' } });
  assert.equal([none.status, none.body], [400, { error: 'file is missing' }]);
  const broken = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, {
    as: people.convenor.creds,
    multipart: csvFile('unit_code,abbreviation,name,description\nSIT101,A,"unclosed,d\n'),
  });
  assert.is(broken.status, 400);
  assert.match(broken.body.error, /^Unable to read the CSV file: /);
  const binary = await api(env, 'POST', `/api/units/${unit}/outcomes/csv`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'x.xlsx', contentType: 'application/octet-stream', data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1]) } },
  });
  assert.equal([binary.status, binary.body], [403, { error: 'File given is not a csv file - detected application/octet-stream' }]);
  const unknown = await api(env, 'POST', '/api/units/9999/outcomes/csv', { as: people.admin.creds, multipart: good });
  assert.is(unknown.status, 404);
  assert.equal(await numbering(unit), []);
});

test('loader (for the unit page and rollover): the outcomes of many units in number order, in one query', async () => {
  const unit = await staffedUnit();
  const other = await staffedUnit('SIT102');
  const [a] = await addOutcomes(unit, 'A', 'B');
  await api(env, 'PUT', `/api/units/${unit}/outcomes/${a}`, { as: people.convenor.creds, json: { ilo_number: 2 } });
  await addOutcomes(other, 'X');
  let byUnit = new Map<number, { abbreviation: string; ilo_number: number }[]>();
  const statements = await countStatements(async () => {
    byUnit = await loadOutcomesByUnit(env.orm.em.fork(), [unit, other, 9999]);
  });
  assert.is(statements, 1);
  assert.equal(
    byUnit.get(unit)!.map((o) => [o.abbreviation, o.ilo_number]),
    [
      ['B', 1],
      ['A', 2],
    ],
  );
  assert.equal(
    byUnit.get(other)!.map((o) => o.abbreviation),
    ['X'],
  );
  assert.equal(byUnit.get(9999), []);
  assert.equal(Object.keys((await loadOutcomes(env.orm.em.fork(), unit))[0]!), ['id', 'ilo_number', 'abbreviation', 'name', 'description']);
});

test('tRPC: the same operations through the typed caller', async () => {
  const unit = await staffedUnit();
  const caller = createCallerFactory(appRouter)(createContext(env.services, people.convenor.creds));
  const created = await caller.units.outcomes.create({ unit_id: unit, name: 'Design', description: 'Design programs' });
  assert.equal(created, { id: created.id, ilo_number: 1, abbreviation: 'ILO1', name: 'Design', description: 'Design programs' });
  const moved = await caller.units.outcomes.update({ unit_id: unit, id: created.id, abbreviation: 'DES' });
  assert.is(moved.abbreviation, 'DES');
  assert.is(await caller.units.outcomes.delete({ unit_id: unit, id: created.id }), true);
  assert.equal(await numbering(unit), []);
});

test.run();
