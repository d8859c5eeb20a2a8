// Rollover copies rubrics (docs/marking/rubrics.md): each copied definition gets its source's
// criteria, levels, mapping and thresholds, never the marks; in statements that do not grow with
// the number of rubrics, criteria or levels.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Unit } from '../../schema/index.ts';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';
import { rubricUrl } from '../support/rubric.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('rubrics on rollover');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const level = (title: string, points: number, position: number, description = '') => ({ title, points, position, description });

/** Graded, with thresholds of its own: two criteria, a full mark of 20. */
const GRADED = {
  mapping: 'grade',
  thresholds: { pass: 0.4, credit: 0.55, distinction: 0.7, high_distinction: 0.9 },
  criteria: [
    {
      title: 'Structure',
      description: 'How the work is organised',
      position: 1,
      levels: [level('Missing', 0, 1, 'No structure'), level('Good', 6, 2, 'Clear sections'), level('Excellent', 10, 3)],
    },
    { title: 'Testing', position: 2, levels: [level('None', 0, 1), level('Some', 5.5, 2), level('Thorough', 10, 3)] },
  ],
};

/** Mapped to quality points: three criteria, positions not starting at 1. */
const QUALITY = {
  mapping: 'quality_pts',
  criteria: [
    { title: 'Clarity', position: 5, levels: [level('Unclear', 0, 0), level('Clear', 4, 7)] },
    { title: 'Depth', description: 'Goes beyond the brief', position: 3, levels: [level('Shallow', 1, 1), level('Deep', 3, 2)] },
    { title: 'Style', position: 9, levels: [level('Any', 2, 4)] },
  ],
};

type RubricBody = {
  id: number;
  mapping: string;
  thresholds: unknown;
  max_score: number;
  criteria: {
    id: number;
    title: string;
    description: string;
    position: number;
    levels: { id: number; title: string; description: string; points: number; position: number }[];
  }[];
};

/** The rubric without its ids: what a copy must equal. */
const shape = (r: RubricBody) => ({
  mapping: r.mapping,
  thresholds: r.thresholds,
  max_score: r.max_score,
  criteria: r.criteria.map((c) => ({
    title: c.title,
    description: c.description,
    position: c.position,
    levels: c.levels.map((l) => ({ title: l.title, description: l.description, points: l.points, position: l.position })),
  })),
});

/** A unit with three definitions (C1 graded, C2 with quality points, P1 plain) and the given rubrics. */
async function unitWith(code: string, rubrics: { C1?: unknown; C2?: unknown; P1?: unknown }, period?: number) {
  const unit = await seedUnit(env, { code, ...(period === undefined ? {} : { teachingPeriod: period, startDate: '2026-03-02', endDate: '2026-06-12' }) });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const defs = {
    C1: await seedTaskDefinition(env, unit, 'C1', { isGraded: true, maxQualityPts: 5 }),
    C2: await seedTaskDefinition(env, unit, 'C2', { maxQualityPts: 8 }),
    P1: await seedTaskDefinition(env, unit, 'P1'),
  };
  const saved: Record<string, RubricBody> = {};
  for (const [abbr, body] of Object.entries(rubrics)) {
    const res = await api(env, 'PUT', rubricUrl(unit, defs[abbr as keyof typeof defs]), { as: people.convenor.creds, json: body });
    assert.is(res.status, 200, res.text);
    saved[abbr] = res.body;
  }
  return { unit, defs, saved };
}

/** The copied unit's definition ids by abbreviation. */
async function definitionsOf(unit: number): Promise<Record<string, number>> {
  const rows = await db(env.orm.em.fork()).selectFrom('task_definitions').select(['id', 'abbreviation']).where('unit_id', '=', unit).execute();
  return Object.fromEntries(rows.map((r) => [r.abbreviation, r.id]));
}

const rollover = (unit: number) =>
  api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.admin.creds, json: { start_date: '2031-03-03', end_date: '2031-06-27' } });

test('unit rollover gives each copied definition an equal rubric, with no marks; the source keeps its own', async () => {
  const w = await unitWith('SIT101', { C1: GRADED, C2: QUALITY });
  // A marked task on the source: its mark stays there.
  const project = await enrol(env, people.student.user, w.unit);
  const l = w.saved.C1.criteria.map((c) => ({ criterion_id: c.id, level_id: c.levels[1].id }));
  const mark = await api(env, 'PUT', `/api/projects/${project}/task_def_id/${w.defs.C1}/rubric_marks`, { as: people.tutor.creds, json: { choices: l } });
  assert.is(mark.status, 200, mark.text);

  const roll = await rollover(w.unit);
  assert.is(roll.status, 201, roll.text);
  const copies = await definitionsOf(roll.body.id);
  for (const abbr of ['C1', 'C2'] as const) {
    const copy = await api(env, 'GET', rubricUrl(roll.body.id, copies[abbr]), { as: people.convenor.creds });
    assert.is(copy.status, 200, `${abbr}: ${copy.text}`);
    assert.equal(shape(copy.body), shape(w.saved[abbr]), abbr);
    assert.is.not(copy.body.id, w.saved[abbr].id);
    // New rows, not the source's.
    const criteria = (r: RubricBody) => r.criteria.map((c) => c.id);
    const levels = (r: RubricBody) => r.criteria.flatMap((c) => c.levels.map((x) => x.id));
    assert.ok(criteria(copy.body).every((id) => !criteria(w.saved[abbr]).includes(id)));
    assert.ok(levels(copy.body).every((id) => !levels(w.saved[abbr]).includes(id)));
  }
  assert.is((await api(env, 'GET', rubricUrl(roll.body.id, copies.P1), { as: people.convenor.creds })).status, 404);

  const k = db(env.orm.em.fork());
  const marks = await k.selectFrom('rubric_marks as m').innerJoin('rubrics as r', 'r.id', 'm.rubric_id').select(['r.task_definition_id']).execute();
  assert.equal(
    marks.map((m) => m.task_definition_id),
    [w.defs.C1],
  );
  assert.is((await k.selectFrom('rubric_mark_choices').select('id').execute()).length, 2);
  // The source's rubric is untouched.
  const source = await api(env, 'GET', rubricUrl(w.unit, w.defs.C1), { as: people.convenor.creds });
  assert.equal(shape(source.body), shape(w.saved.C1));
});

test('rollover statements do not grow with the number of rubrics, criteria or levels', async () => {
  const one = await unitWith('ONE101', { C2: { mapping: 'none', criteria: [{ title: 'Only', position: 1, levels: [level('Done', 1, 1)] }] } });
  const many = await unitWith('MNY101', { C1: GRADED, C2: QUALITY, P1: { ...GRADED, mapping: 'none', thresholds: null } });
  const warm = await unitWith('WRM101', { C1: GRADED });
  const measure = async (unit: number) => {
    let status = 0;
    const n = await countStatements(async () => (status = (await rollover(unit)).status));
    assert.is(status, 201);
    return n;
  };
  await measure(warm.unit); // warms the session cache, which would otherwise count once
  const few = await measure(one.unit);
  const more = await measure(many.unit);
  assert.is(more, few, `statements: ${few} for one rubric of one level, ${more} for three rubrics of 17 levels`);
  const k = db(env.orm.em.fork());
  const levels = await k
    .selectFrom('rubric_levels as l')
    .innerJoin('rubric_criteria as c', 'c.id', 'l.criterion_id')
    .innerJoin('rubrics as r', 'r.id', 'c.rubric_id')
    .innerJoin('task_definitions as d', 'd.id', 'r.task_definition_id')
    .innerJoin('units as u', 'u.id', 'd.unit_id')
    .select((e) => ['u.code', e.fn.countAll<string>().as('n')])
    .groupBy('u.code')
    .execute();
  // Each code twice: the source and its copy.
  const perCode = Object.fromEntries(
    ['ONE101', 'MNY101'].map((code) => [code, (levels as { code: string; n: string }[]).filter((r) => r.code === code).map((r) => Number(r.n))]),
  );
  assert.equal(perCode, { ONE101: [2], MNY101: [2 * 17] });
});

test('teaching period rollover copies the rubrics of every unit it copies', async () => {
  const t1 = await seedPeriod(env, { period: 'T1', startDate: new Date('2026-03-02T00:00:00Z'), endDate: new Date('2026-06-12T00:00:00Z') });
  const t2 = await seedPeriod(env, { period: 'T2', startDate: new Date('2026-07-13T00:00:00Z'), endDate: new Date('2026-10-23T00:00:00Z') });
  const w = await unitWith('PER101', { C1: GRADED }, t1);
  const res = await api(env, 'POST', `/api/teaching_periods/${t1}/rollover`, { as: people.admin.creds, json: { new_teaching_period_id: t2 } });
  assert.is(res.status, 200, res.text);
  const copy = await env.orm.em.fork().findOneOrFail(Unit, { teachingPeriod: t2, code: 'PER101' });
  const copies = await definitionsOf(copy.id);
  const rubric = await api(env, 'GET', rubricUrl(copy.id, copies.C1), { as: people.convenor.creds });
  assert.is(rubric.status, 200, rubric.text);
  assert.equal(shape(rubric.body), shape(w.saved.C1));
});

test.run();
