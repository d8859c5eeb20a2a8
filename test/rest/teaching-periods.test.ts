import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Break, TeachingPeriod, Unit } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { type People, createUser } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';

const test = suite('REST /api/teaching_periods');
let env: TestEnv;
let people: People;

freshEachTest(test, (world) => ({ env, people } = world));

// TEST_NOW is 2026-03-02T00:00:00Z.
const t1 = {
  period: 'T1',
  year: 2026,
  start_date: '2026-03-02T00:00:00.000Z',
  end_date: '2026-05-29T00:00:00.000Z',
  active_until: '2026-06-30T00:00:00.000Z',
};
/** The days of t1, on which the units of a t1 period run. */
const T1_DAYS = { startDate: '2026-03-02', endDate: '2026-05-29' };
const PERIOD_KEYS = ['active', 'active_until', 'end_date', 'id', 'period', 'start_date', 'year'];
const UNIT_KEYS = ['active', 'code', 'description', 'end_date', 'id', 'main_convenor_user_id', 'my_role', 'name', 'start_date', 'teaching_period_id'];

/** A period as the API returns it. */
type Period = { id: number; period: string; year: number; start_date: string; end_date: string; active_until: string; active: boolean };
/** A break as the API returns it. */
type PeriodBreak = { id: number; start_date: string; number_of_weeks: number };

async function createPeriod(fields: Record<string, unknown> = t1): Promise<Period> {
  const res = await api(env, 'POST', '/api/teaching_periods', { as: people.admin.creds, form: { teaching_period: fields } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function createBreak(periodId: number, start_date: string, number_of_weeks: number): Promise<PeriodBreak> {
  const res = await api(env, 'POST', `/api/teaching_periods/${periodId}/breaks`, {
    as: people.admin.creds,
    json: { start_date, number_of_weeks },
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const periodRow = (id: number) => env.orm.em.fork().findOneOrFail(TeachingPeriod, { id });
const countPeriods = () => env.orm.em.fork().count(TeachingPeriod, {});
const breakRows = async (periodId: number) =>
  (await env.orm.em.fork().find(Break, { teachingPeriod: periodId }, { orderBy: { startDate: 'asc' } })).map((b) => ({
    id: b.id,
    start_date: b.startDate,
    number_of_weeks: b.numberOfWeeks,
  }));

// ---------------------------------------------------------------- periods: create

test('an admin creates a period from a form body and gets it back without breaks or units', async () => {
  const res = await api(env, 'POST', '/api/teaching_periods', { as: people.admin.creds, form: { teaching_period: t1 } });
  assert.is(res.status, 201);
  assert.equal(Object.keys(res.body).sort(), PERIOD_KEYS);
  assert.equal({ ...res.body, id: 0 }, { ...t1, id: 0, active: true });
  const row = await periodRow(res.body.id);
  assert.is(row.period, 'T1');
  assert.is(row.startDate.toISOString(), t1.start_date);
});

test('the web client creates a period with JSON day strings, `active` and `units` keys', async () => {
  const res = await api(env, 'POST', '/api/teaching_periods/', {
    as: people.admin.creds,
    hyphenHeader: true,
    json: {
      teaching_period: {
        period: 'T2',
        year: 2026,
        start_date: '2026-07-06',
        end_date: '2026-09-25',
        active_until: '2026-10-30',
        active: true,
        units: [],
      },
    },
  });
  assert.is(res.status, 201);
  assert.equal(res.body, {
    id: res.body.id,
    period: 'T2',
    year: 2026,
    start_date: '2026-07-06T00:00:00.000Z',
    end_date: '2026-09-25T00:00:00.000Z',
    active_until: '2026-10-30T00:00:00.000Z',
    active: true,
  });
});

test('period rules: length, year range, date order and uniqueness per year; nothing is written', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...t1, period: 'X'.repeat(21) }, 'Validation failed: Period is too long (maximum is 20 characters)'],
    [{ ...t1, year: 1999 }, 'Validation failed: Year must be between 2000 and 2999'],
    [{ ...t1, year: 3000 }, 'Validation failed: Year must be between 2000 and 2999'],
    [{ ...t1, end_date: '2026-03-01T23:59:59.000Z' }, 'End date should be on or after the start date'],
    [{ ...t1, active_until: '2026-05-28' }, 'Active until should be on or after the end date'],
  ];
  for (const [fields, message] of cases) {
    const res = await api(env, 'POST', '/api/teaching_periods', { as: people.admin.creds, form: { teaching_period: fields } });
    assert.is(res.status, 400, message);
    assert.match(res.body.error, message);
  }
  assert.is(await countPeriods(), 0);

  // Boundaries are allowed: 20 characters, end on the start, active until the end.
  await createPeriod({ ...t1, period: 'Y'.repeat(20), end_date: t1.start_date, active_until: t1.start_date });
  await createPeriod(t1);
  const dup = await api(env, 'POST', '/api/teaching_periods', { as: people.admin.creds, form: { teaching_period: t1 } });
  assert.is(dup.status, 400);
  assert.is(dup.body.error, 'Validation failed: Period has already been taken');
  await createPeriod({ ...t1, year: 2027 });
  assert.is(await countPeriods(), 3);
});

test('missing and ill-typed period fields get 400 naming the field', async () => {
  const expectations: [unknown, string][] = [
    [{ teaching_period: { ...t1, period: undefined } }, 'teaching_period[period] is missing'],
    [{ teaching_period: { ...t1, period: '  ' } }, 'teaching_period[period] is empty'],
    [{ teaching_period: { ...t1, year: 'twenty' } }, 'teaching_period[year] is invalid'],
    [{ teaching_period: { ...t1, start_date: 'soon' } }, 'teaching_period[start_date] is invalid'],
    [{ teaching_period: { ...t1, end_date: '2026-02-30' } }, 'teaching_period[end_date] is invalid'],
    [{ teaching_period: { ...t1, active_until: undefined } }, 'teaching_period[active_until] is missing'],
    [{}, 'teaching_period is missing'],
  ];
  for (const [json, message] of expectations) {
    const res = await api(env, 'POST', '/api/teaching_periods', { as: people.admin.creds, json });
    assert.is(res.status, 400, message);
    assert.match(res.body.error, message);
  }
  assert.is(await countPeriods(), 0);
});

// ---------------------------------------------------------------- periods: read

test('listing is public, ordered by start date, with `active` from the clock and no breaks or units', async () => {
  const later = await createPeriod({ ...t1, period: 'T2', start_date: '2026-07-06', end_date: '2026-09-25', active_until: '2026-10-30' });
  const past = await createPeriod({ ...t1, year: 2025, start_date: '2025-03-03', end_date: '2025-05-30', active_until: '2026-03-02' });
  const current = await createPeriod(t1);
  await createBreak(current.id, '2026-04-06', 1);
  await seedUnit(env, { code: 'SIT101', teachingPeriod: current.id, ...T1_DAYS });

  const list = await api(env, 'GET', '/api/teaching_periods/');
  assert.is(list.status, 200);
  assert.equal(
    list.body.map((p: Period) => p.id),
    [past.id, current.id, later.id],
  );
  // active_until equal to now is no longer active.
  assert.equal(
    list.body.map((p: Period) => p.active),
    [false, true, true],
  );
  for (const p of list.body) assert.equal(Object.keys(p).sort(), PERIOD_KEYS);
  assert.equal(list.body[1], current);

  env.clock.set(new Date('2026-07-01T00:00:00.000Z'));
  const afterwards = await api(env, 'GET', '/api/teaching_periods');
  assert.equal(
    afterwards.body.map((p: Period) => p.active),
    [false, false, true],
  );
});

test('reading one period is public and includes its breaks in order and its units', async () => {
  const period = await createPeriod();
  const b2 = await createBreak(period.id, '2026-04-20', 1);
  const b1 = await createBreak(period.id, '2026-03-30', 2);
  const unit = { id: await seedUnit(env, { code: 'SIT101', teachingPeriod: period.id, ...T1_DAYS }) };
  await seedUnit(env, { code: 'SIT999', startDate: '2026-01-05', endDate: '2026-04-24' });

  const res = await api(env, 'GET', `/api/teaching_periods/${period.id}`);
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), [...PERIOD_KEYS, 'breaks', 'units'].sort());
  assert.equal(res.body.breaks, [b1, b2]);
  assert.equal(res.body.breaks[0], { id: b1.id, start_date: '2026-03-30', number_of_weeks: 2 });
  assert.is(res.body.units.length, 1);
  assert.equal(Object.keys(res.body.units[0]).sort(), UNIT_KEYS);
  assert.equal(res.body.units[0], {
    code: 'SIT101',
    id: unit.id,
    name: 'Unit SIT101',
    my_role: null,
    main_convenor_user_id: null,
    description: 'About SIT101',
    start_date: '2026-03-02',
    end_date: '2026-05-29',
    active: true,
    teaching_period_id: period.id,
  });
});

test("each unit carries the caller's role; anonymous or bad credentials give null, not an error", async () => {
  const period = await createPeriod();
  const a = await seedUnit(env, { code: 'A101', teachingPeriod: period.id, ...T1_DAYS });
  const b = await seedUnit(env, { code: 'B202', teachingPeriod: period.id, ...T1_DAYS });
  const c = await seedUnit(env, { code: 'C303', teachingPeriod: period.id, ...T1_DAYS });
  const main = { id: await employ(env, people.convenor.user, a, 'Convenor', { main: true }) };
  await employ(env, people.convenor.user, b, 'Tutor');
  await employ(env, people.tutor.user, a, 'Tutor');
  await enrol(env, people.student.user, a);
  await enrol(env, people.student.user, b, { enrolled: false });
  await employ(env, people.admin.user, c, 'Tutor');
  await enrol(env, people.admin.user, b);

  const roles = async (creds?: { username: string; token: string }) => {
    const res = await api(env, 'GET', `/api/teaching_periods/${period.id}`, { as: creds });
    assert.is(res.status, 200);
    return res.body.units.map((u: { my_role: string | null }) => u.my_role);
  };
  assert.equal(await roles(people.convenor.creds), ['Convenor', 'Tutor', null]);
  assert.equal(await roles(people.tutor.creds), ['Tutor', null, null]);
  assert.equal(await roles(people.student.creds), ['Student', null, null]);
  assert.equal(await roles(people.admin.creds), ['Admin', 'Student', 'Tutor']);
  assert.equal(await roles(), [null, null, null]);
  assert.equal(await roles({ ...people.admin.creds, token: 'wrong' }), [null, null, null]);

  const res = await api(env, 'GET', `/api/teaching_periods/${period.id}`);
  assert.equal(
    res.body.units.map((u: { main_convenor_user_id: number | null }) => u.main_convenor_user_id),
    [people.convenor.user.id, null, null],
  );
  assert.ok(main.id);
});

test('reading one period runs the same number of queries for 1 unit as for 6', async () => {
  const period = await createPeriod();
  await createBreak(period.id, '2026-03-30', 1);
  const first = await seedUnit(env, { code: 'U0', teachingPeriod: period.id, ...T1_DAYS });
  await employ(env, people.convenor.user, first, 'Convenor', { main: true });
  await enrol(env, people.student.user, first);

  const queriesFor = async () => {
    let count = 0;
    const original = env.orm.config.get('onQuery');
    env.orm.config.set('onQuery', (sql: string) => {
      count++;
      return sql;
    });
    try {
      const res = await api(env, 'GET', `/api/teaching_periods/${period.id}`, { as: people.convenor.creds });
      assert.is(res.status, 200);
      return { count, units: res.body.units.length };
    } finally {
      env.orm.config.set('onQuery', original);
    }
  };
  const one = await queriesFor();
  for (let i = 1; i < 6; i++) {
    const unit = await seedUnit(env, { code: `U${i}`, teachingPeriod: period.id, ...T1_DAYS });
    const other = await createUser(env, `staff${i}`, 'Convenor');
    await employ(env, other, unit, 'Convenor', { main: true });
    await employ(env, people.convenor.user, unit, 'Tutor');
    await enrol(env, people.student.user, unit);
  }
  const six = await queriesFor();
  assert.is(one.units, 1);
  assert.is(six.units, 6);
  assert.ok(one.count > 0);
  assert.is(six.count, one.count);
});

// ---------------------------------------------------------------- periods: update and delete

test('an admin updates only the fields sent; validation uses the merged values', async () => {
  const period = await createPeriod();
  const put = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, {
    as: people.admin.creds,
    json: { teaching_period: { active_until: '2026-03-01' } },
  });
  assert.is(put.status, 400);
  assert.match(put.body.error, 'Active until should be on or after the end date');

  const ok = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, {
    as: people.admin.creds,
    form: { teaching_period: { period: 'Tri 1', active_until: '2026-07-31T12:00:00.000Z' } },
  });
  assert.is(ok.status, 200);
  assert.equal(ok.body, { ...period, period: 'Tri 1', active_until: '2026-07-31T12:00:00.000Z' });

  const empty = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, { as: people.admin.creds, json: { teaching_period: {} } });
  assert.is(empty.status, 200);
  assert.equal(empty.body, ok.body);
  const bare = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, { as: people.admin.creds });
  assert.is(bare.status, 200);

  await createPeriod({ ...t1, period: 'T2' });
  const dup = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, { as: people.admin.creds, json: { teaching_period: { period: 'T2' } } });
  assert.is(dup.status, 400);
  assert.is(dup.body.error, 'Validation failed: Period has already been taken');
  const badYear = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, { as: people.admin.creds, json: { teaching_period: { year: 'next' } } });
  assert.is(badYear.status, 400);
  assert.is(badYear.body.error, 'teaching_period[year] is invalid');
  const badEnd = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, {
    as: people.admin.creds,
    json: { teaching_period: { end_date: '2026-02-01' } },
  });
  assert.is(badEnd.status, 400);
  assert.match(badEnd.body.error, 'End date should be on or after the start date');

  const row = await periodRow(period.id);
  assert.equal([row.period, row.year, row.endDate.toISOString(), row.activeUntil.toISOString()], ['Tri 1', 2026, t1.end_date, '2026-07-31T12:00:00.000Z']);
});

test("changing a period's start or end date moves every unit of the period to the new days", async () => {
  const period = await createPeriod();
  const mine = { id: await seedUnit(env, { code: 'SIT101', teachingPeriod: period.id, ...T1_DAYS }) };
  const other = { id: await seedUnit(env, { code: 'SIT999', startDate: '2026-03-02', endDate: '2026-05-29' }) };

  // No date change: units are left as they are.
  await env.orm.em.fork().nativeUpdate(Unit, { id: mine.id }, { startDate: '2026-03-03' });
  await api(env, 'PUT', `/api/teaching_periods/${period.id}`, { as: people.admin.creds, json: { teaching_period: { period: 'T1b' } } });
  assert.is((await env.orm.em.fork().findOneOrFail(Unit, { id: mine.id })).startDate, '2026-03-03');

  const res = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, {
    as: people.admin.creds,
    json: { teaching_period: { start_date: '2026-03-09', end_date: '2026-06-05' } },
  });
  assert.is(res.status, 200);
  assert.is(res.body.start_date, '2026-03-09T00:00:00.000Z');
  const em = env.orm.em.fork();
  const moved = await em.findOneOrFail(Unit, { id: mine.id });
  assert.equal([moved.startDate, moved.endDate], ['2026-03-09', '2026-06-05']);
  const untouched = await em.findOneOrFail(Unit, { id: other.id });
  assert.equal([untouched.startDate, untouched.endDate], ['2026-03-02', '2026-05-29']);

  const detail = await api(env, 'GET', `/api/teaching_periods/${period.id}`);
  assert.equal([detail.body.units[0].start_date, detail.body.units[0].end_date], ['2026-03-09', '2026-06-05']);
});

test('a period with units cannot be deleted; without units it goes with its breaks (204)', async () => {
  const period = await createPeriod();
  await createBreak(period.id, '2026-03-30', 1);
  const unit = await seedUnit(env, { code: 'SIT101', teachingPeriod: period.id, ...T1_DAYS });

  const refused = await api(env, 'DELETE', `/api/teaching_periods/${period.id}`, { as: people.admin.creds });
  assert.is(refused.status, 400);
  assert.is(refused.body.error, 'Cannot delete a teaching period that has units');
  assert.is(await countPeriods(), 1);
  assert.is((await breakRows(period.id)).length, 1);

  await env.orm.em.fork().nativeDelete(Unit, { id: unit });
  const del = await api(env, 'DELETE', `/api/teaching_periods/${period.id}`, { as: people.admin.creds });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  assert.is(await countPeriods(), 0);
  assert.is(await env.orm.em.fork().count(Break, {}), 0);
});

// ---------------------------------------------------------------- periods: who may

test('convenors, tutors and students may not create, update or delete periods (403, nothing changes)', async () => {
  const period = await createPeriod();
  for (const who of [people.convenor, people.tutor, people.student]) {
    const post = await api(env, 'POST', '/api/teaching_periods', { as: who.creds, form: { teaching_period: { ...t1, period: 'X' } } });
    assert.is(post.status, 403);
    assert.is(post.body.error, 'Not authorised to create a teaching period');
    const put = await api(env, 'PUT', `/api/teaching_periods/${period.id}`, {
      as: who.creds,
      json: { teaching_period: { period: 'Changed', start_date: '2026-03-09' } },
    });
    assert.is(put.status, 403);
    const del = await api(env, 'DELETE', `/api/teaching_periods/${period.id}`, { as: who.creds });
    assert.is(del.status, 403);
  }
  assert.is(await countPeriods(), 1);
  const row = await periodRow(period.id);
  assert.equal([row.period, row.startDate.toISOString()], ['T1', t1.start_date]);
});

test('period writes without valid credentials get 419 and change nothing', async () => {
  const period = await createPeriod();
  const wrong = { ...people.admin.creds, token: 'nope' };
  for (const as of [undefined, wrong]) {
    assert.is((await api(env, 'POST', '/api/teaching_periods', { as, form: { teaching_period: { ...t1, period: 'X' } } })).status, 419);
    assert.is((await api(env, 'PUT', `/api/teaching_periods/${period.id}`, { as, form: { teaching_period: { period: 'Y' } } })).status, 419);
    assert.is((await api(env, 'DELETE', `/api/teaching_periods/${period.id}`, { as })).status, 419);
  }
  assert.is(await countPeriods(), 1);
  assert.is((await periodRow(period.id)).period, 'T1');
});

test('unknown period ids get 404 everywhere; non-numeric ids get 400', async () => {
  const admin = people.admin.creds;
  const get = await api(env, 'GET', '/api/teaching_periods/999');
  assert.is(get.status, 404);
  assert.is(get.body.error, 'Unable to find requested Teaching Period');
  assert.is((await api(env, 'PUT', '/api/teaching_periods/999', { as: admin, json: { teaching_period: { period: 'x' } } })).status, 404);
  assert.is((await api(env, 'DELETE', '/api/teaching_periods/999', { as: admin })).status, 404);
  assert.is((await api(env, 'GET', '/api/teaching_periods/999/breaks', { as: admin })).status, 404);
  const post = await api(env, 'POST', '/api/teaching_periods/999/breaks', { as: admin, json: { start_date: '2026-03-30', number_of_weeks: 1 } });
  assert.is(post.status, 404);
  assert.is((await api(env, 'PUT', '/api/teaching_periods/999/breaks/1', { as: admin, json: { number_of_weeks: 1 } })).status, 404);
  assert.is((await api(env, 'DELETE', '/api/teaching_periods/999/breaks/1', { as: admin })).status, 404);
  assert.is((await api(env, 'GET', '/api/teaching_periods/abc')).status, 400);
  assert.is((await api(env, 'GET', '/api/teaching_periods/99999999999')).status, 404);
  assert.is((await api(env, 'DELETE', '/api/teaching_periods/abc', { as: admin })).status, 400);
  assert.is(await env.orm.em.fork().count(Break, {}), 0);
});

// ---------------------------------------------------------------- breaks

test('an admin adds breaks (200) from flat JSON or a form; everyone signed in lists them by start date', async () => {
  const period = await createPeriod();
  const res = await api(env, 'POST', `/api/teaching_periods/${period.id}/breaks/`, {
    as: people.admin.creds,
    hyphenHeader: true,
    json: { start_date: '2026-04-20', number_of_weeks: 2 },
  });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['id', 'number_of_weeks', 'start_date']);
  assert.equal(res.body, { id: res.body.id, start_date: '2026-04-20', number_of_weeks: 2 });

  const form = await api(env, 'POST', `/api/teaching_periods/${period.id}/breaks`, {
    as: people.admin.creds,
    form: { start_date: '2026-03-16T10:30:00.000Z', number_of_weeks: '1' },
  });
  assert.is(form.status, 200);
  assert.equal(form.body, { id: form.body.id, start_date: '2026-03-16', number_of_weeks: 1 });

  for (const who of [people.admin, people.convenor, people.tutor, people.student]) {
    const list = await api(env, 'GET', `/api/teaching_periods/${period.id}/breaks`, { as: who.creds });
    assert.is(list.status, 200);
    assert.equal(list.body, [form.body, res.body]);
  }
  assert.is((await api(env, 'GET', `/api/teaching_periods/${period.id}/breaks`)).status, 419);
  assert.is((await api(env, 'GET', `/api/teaching_periods/${period.id}/breaks`, { as: { ...people.student.creds, token: 'x' } })).status, 419);
});

test('break rules: within the period, at least a week, no overlap; refusals write nothing', async () => {
  const period = await createPeriod(); // 2026-03-02 .. 2026-05-29
  await createBreak(period.id, '2026-04-06', 2); // covers 04-06 .. 04-19
  const cases: [Record<string, unknown>, string][] = [
    [{ start_date: '2026-03-01', number_of_weeks: 1 }, 'Start date should be on or after the teaching period start date'],
    [{ start_date: '2026-05-23', number_of_weeks: 1 }, 'Number of weeks is exceeding the teaching period end date'],
    [{ start_date: '2026-04-13', number_of_weeks: 1 }, 'Validation failed: Start date overlaps another break'],
    [{ start_date: '2026-03-30', number_of_weeks: 2 }, 'overlaps another break'],
    [{ start_date: '2026-03-30', number_of_weeks: 4 }, 'overlaps another break'],
    [{ start_date: '2026-03-30', number_of_weeks: 0 }, 'number_of_weeks is invalid'],
    [{ start_date: '2026-03-30', number_of_weeks: 'two' }, 'number_of_weeks is invalid'],
    [{ start_date: '2026-03-30', number_of_weeks: 1.5 }, 'number_of_weeks is invalid'],
    [{ start_date: '2026-03-30', number_of_weeks: 99999999999 }, 'exceeding the teaching period end date'],
    [{ start_date: '9999-12-27', number_of_weeks: 1 }, 'exceeding the teaching period end date'],
    [{ start_date: '2026-02-30', number_of_weeks: 1 }, 'start_date is invalid'],
    [{ start_date: 'Monday', number_of_weeks: 1 }, 'start_date is invalid'],
    [{ number_of_weeks: 1 }, 'start_date is missing'],
    [{ start_date: '2026-03-30' }, 'number_of_weeks is missing'],
  ];
  for (const [json, message] of cases) {
    const res = await api(env, 'POST', `/api/teaching_periods/${period.id}/breaks`, { as: people.admin.creds, json });
    assert.is(res.status, 400, `${JSON.stringify(json)} -> ${JSON.stringify(res.body)}`);
    assert.match(res.body.error, message);
  }
  assert.is((await breakRows(period.id)).length, 1);

  // Back to back with the existing break, on the first day, and ending exactly on the last day are fine.
  await createBreak(period.id, '2026-03-30', 1);
  await createBreak(period.id, '2026-04-20', 1);
  await createBreak(period.id, '2026-03-02', 1);
  await createBreak(period.id, '2026-05-22', 1);
  assert.is((await breakRows(period.id)).length, 5);
});

test('updating a break changes only what is sent, ignores its own old span, and is validated', async () => {
  const period = await createPeriod();
  const other = await createPeriod({ ...t1, period: 'T2' });
  const a = await createBreak(period.id, '2026-03-30', 1);
  const b = await createBreak(period.id, '2026-04-13', 1);
  const elsewhere = await createBreak(other.id, '2026-03-30', 1);

  const longer = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${a.id}`, {
    as: people.admin.creds,
    json: { number_of_weeks: 2 },
  });
  assert.is(longer.status, 200);
  assert.equal(longer.body, { id: a.id, start_date: '2026-03-30', number_of_weeks: 2 });

  const shifted = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${a.id}`, {
    as: people.admin.creds,
    form: { start_date: '2026-03-23' },
  });
  assert.is(shifted.status, 200);
  assert.equal(shifted.body, { id: a.id, start_date: '2026-03-23', number_of_weeks: 2 });

  const overlap = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${a.id}`, {
    as: people.admin.creds,
    json: { start_date: '2026-04-06' },
  });
  assert.is(overlap.status, 400);
  assert.match(overlap.body.error, 'overlaps another break');
  const tooLong = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${b.id}`, {
    as: people.admin.creds,
    json: { number_of_weeks: 10 },
  });
  assert.is(tooLong.status, 400);
  assert.match(tooLong.body.error, 'exceeding the teaching period end date');
  const badWeeks = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${b.id}`, {
    as: people.admin.creds,
    json: { number_of_weeks: -1 },
  });
  assert.is(badWeeks.status, 400);
  assert.is(badWeeks.body.error, 'number_of_weeks is invalid');

  // A break addressed through another period's URL is not found, and stays as it was.
  const wrongPeriod = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${elsewhere.id}`, {
    as: people.admin.creds,
    json: { number_of_weeks: 3 },
  });
  assert.is(wrongPeriod.status, 404);
  assert.is(wrongPeriod.body.error, 'Unable to find requested Break');
  assert.is((await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/999`, { as: people.admin.creds, json: {} })).status, 404);

  assert.equal(await breakRows(period.id), [
    { id: a.id, start_date: '2026-03-23', number_of_weeks: 2 },
    { id: b.id, start_date: '2026-04-13', number_of_weeks: 1 },
  ]);
  assert.equal(await breakRows(other.id), [elsewhere]);
});

test('an admin deletes a break (204); through another period it is 404', async () => {
  const period = await createPeriod();
  const other = await createPeriod({ ...t1, period: 'T2' });
  const a = await createBreak(period.id, '2026-03-30', 1);
  const elsewhere = await createBreak(other.id, '2026-03-30', 1);

  const wrong = await api(env, 'DELETE', `/api/teaching_periods/${period.id}/breaks/${elsewhere.id}`, { as: people.admin.creds });
  assert.is(wrong.status, 404);
  assert.equal(await breakRows(other.id), [elsewhere]);

  const del = await api(env, 'DELETE', `/api/teaching_periods/${period.id}/breaks/${a.id}`, { as: people.admin.creds });
  assert.is(del.status, 204);
  assert.is(del.text, '');
  assert.equal(await breakRows(period.id), []);
  assert.is((await api(env, 'DELETE', `/api/teaching_periods/${period.id}/breaks/${a.id}`, { as: people.admin.creds })).status, 404);
});

test('only admins add, change or remove breaks; others get 403 and signed-out callers 419', async () => {
  const period = await createPeriod();
  const a = await createBreak(period.id, '2026-03-30', 1);
  for (const who of [people.convenor, people.tutor, people.student]) {
    const post = await api(env, 'POST', `/api/teaching_periods/${period.id}/breaks`, {
      as: who.creds,
      json: { start_date: '2026-04-20', number_of_weeks: 1 },
    });
    assert.is(post.status, 403);
    assert.is(post.body.error, 'Not authorised to add a break');
    const put = await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${a.id}`, { as: who.creds, json: { number_of_weeks: 2 } });
    assert.is(put.status, 403);
    const del = await api(env, 'DELETE', `/api/teaching_periods/${period.id}/breaks/${a.id}`, { as: who.creds });
    assert.is(del.status, 403);
  }
  for (const as of [undefined, { ...people.admin.creds, token: 'nope' }]) {
    const post = await api(env, 'POST', `/api/teaching_periods/${period.id}/breaks`, { as, json: { start_date: '2026-04-20', number_of_weeks: 1 } });
    assert.is(post.status, 419);
    assert.is((await api(env, 'PUT', `/api/teaching_periods/${period.id}/breaks/${a.id}`, { as, json: { number_of_weeks: 2 } })).status, 419);
    assert.is((await api(env, 'DELETE', `/api/teaching_periods/${period.id}/breaks/${a.id}`, { as })).status, 419);
  }
  assert.equal(await breakRows(period.id), [a]);
});

test.run();
