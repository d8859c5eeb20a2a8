// The unit's discuss-timeout settings (docs/discuss-timeouts.md) on POST and PUT /api/units and in
// the unit's JSON: form strings and JSON, who may change them, the bad input refused before the
// table's check constraint, and rollover's copy.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Unit } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { api } from '../support/http.ts';
import { employ, enrol, seedPeriod, seedUnit } from '../support/seed.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('units: discuss timeout settings');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const settingsOf = async (id: number) => {
  const u = await env.orm.em.fork().findOneOrFail(Unit, { id });
  return [u.discussTimeoutEnabled, u.discussTimeoutWarningDays, u.discussTimeoutExpireDays];
};

async function unitWithStaff(): Promise<number> {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  return unit;
}

test('created with form strings; the defaults are off, 7 and 14; everyone in the unit reads them', async () => {
  const plain = await api(env, 'POST', '/api/units', { as: people.convenor.creds, json: { unit: { code: 'A1', name: 'Plain' } } });
  assert.is(plain.status, 201, plain.text);
  assert.equal([plain.body.discuss_timeout_enabled, plain.body.discuss_timeout_warning_days, plain.body.discuss_timeout_expire_days], [false, 7, 14]);
  const res = await api(env, 'POST', '/api/units', {
    as: people.convenor.creds,
    form: { unit: { code: 'B1', name: 'Timed', discuss_timeout_enabled: 'true', discuss_timeout_warning_days: '5', discuss_timeout_expire_days: '10' } },
  });
  assert.is(res.status, 201, res.text);
  assert.equal(await settingsOf(res.body.id), [true, 5, 10]);
  await enrol(env, people.student.user, res.body.id);
  const seen = await api(env, 'GET', `/api/units/${res.body.id}`, { as: people.student.creds });
  assert.equal(
    [seen.status, seen.body.discuss_timeout_enabled, seen.body.discuss_timeout_warning_days, seen.body.discuss_timeout_expire_days],
    [200, true, 5, 10],
    'a rule the students meet, so they see it',
  );
});

test('PUT changes them as JSON or form strings, each alone checked against the current other; the answer has the fields sent', async () => {
  const unit = await unitWithStaff();
  const on = await api(env, 'PUT', `/api/units/${unit}`, {
    as: people.convenor.creds,
    json: { unit: { discuss_timeout_enabled: true, discuss_timeout_expire_days: 21 } },
  });
  assert.equal([on.status, on.body], [200, { discuss_timeout_enabled: true, discuss_timeout_expire_days: 21 }]);
  assert.equal(await settingsOf(unit), [true, 7, 21]);
  const form = await api(env, 'PUT', `/api/units/${unit}`, { as: people.convenor.creds, form: { unit: { discuss_timeout_warning_days: '20' } } });
  assert.is(form.status, 200, form.text);
  assert.equal(await settingsOf(unit), [true, 20, 21], 'below the current expiry');
  const admin = await api(env, 'PUT', `/api/units/${unit}`, { as: people.admin.creds, form: { unit: { discuss_timeout_enabled: 'false' } } });
  assert.is(admin.status, 200, admin.text);
  assert.equal(await settingsOf(unit), [false, 20, 21]);
});

test('bad days are refused with 400 and a clear message before the constraint; nothing changes', async () => {
  const unit = await unitWithStaff();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ discuss_timeout_warning_days: 14 }, /^Discuss timeout expire days must be more than the warning days$/],
    [{ discuss_timeout_warning_days: 9, discuss_timeout_expire_days: 3 }, /^Discuss timeout expire days must be more than the warning days$/],
    [{ discuss_timeout_expire_days: 7 }, /^Discuss timeout expire days must be more than the warning days$/],
    [{ discuss_timeout_warning_days: 0 }, /^Discuss timeout warning days must be at least 1$/],
    [{ discuss_timeout_warning_days: -2, discuss_timeout_expire_days: 5 }, /^Discuss timeout warning days must be at least 1$/],
    [{ discuss_timeout_warning_days: 2.5 }, /discuss_timeout_warning_days/],
    [{ discuss_timeout_expire_days: 'soon' }, /discuss_timeout_expire_days/],
    [{ discuss_timeout_enabled: 'maybe' }, /discuss_timeout_enabled/],
  ];
  for (const [fields, message] of cases) {
    const res = await api(env, 'PUT', `/api/units/${unit}`, { as: people.convenor.creds, json: { unit: fields } });
    assert.is(res.status, 400, JSON.stringify(fields));
    assert.match(res.body.error, message, JSON.stringify(fields));
  }
  const form = await api(env, 'PUT', `/api/units/${unit}`, { as: people.convenor.creds, form: { unit: { discuss_timeout_warning_days: '3.5' } } });
  assert.is(form.status, 400, 'a form string that is not a whole number');
  assert.equal(await settingsOf(unit), [false, 7, 14]);
  const created = await api(env, 'POST', '/api/units', {
    as: people.convenor.creds,
    json: { unit: { code: 'C1', name: 'Bad', discuss_timeout_warning_days: 10, discuss_timeout_expire_days: 10 } },
  });
  assert.equal([created.status, created.body], [400, { error: 'Discuss timeout expire days must be more than the warning days' }]);
  assert.is(await env.orm.em.fork().count(Unit, { code: 'C1' }), 0, 'no unit is made');
});

test('a tutor or student of the unit may not change them (403); without credentials 419', async () => {
  const unit = await unitWithStaff();
  for (const who of [people.tutor, people.student]) {
    const res = await api(env, 'PUT', `/api/units/${unit}`, { as: who.creds, json: { unit: { discuss_timeout_enabled: true } } });
    assert.equal([res.status, res.body], [403, { error: 'Not authorised to update this unit' }], who.creds.username);
  }
  const anonymous = await api(env, 'PUT', `/api/units/${unit}`, { json: { unit: { discuss_timeout_enabled: true } } });
  assert.is(anonymous.status, 419);
  assert.equal(await settingsOf(unit), [false, 7, 14]);
});

test('rollover copies them', async () => {
  const unit = await unitWithStaff();
  await api(env, 'PUT', `/api/units/${unit}`, {
    as: people.convenor.creds,
    json: { unit: { discuss_timeout_enabled: true, discuss_timeout_warning_days: 3, discuss_timeout_expire_days: 6 } },
  });
  const t2 = await seedPeriod(env, {
    period: 'T2',
    startDate: new Date('2026-07-06T00:00:00Z'),
    endDate: new Date('2026-10-05T00:00:00Z'),
    activeUntil: new Date('2026-11-01T00:00:00Z'),
  });
  const res = await api(env, 'POST', `/api/units/${unit}/rollover`, { as: people.convenor.creds, json: { teaching_period_id: t2 } });
  assert.is(res.status, 201, res.text);
  assert.equal(await settingsOf(res.body.id), [true, 3, 6]);
  assert.equal([res.body.discuss_timeout_enabled, res.body.discuss_timeout_warning_days, res.body.discuss_timeout_expire_days], [true, 3, 6]);
});

test.run();
