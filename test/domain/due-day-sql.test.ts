// The inbox and feedback lists have PostgreSQL compute due dates (src/db/task-list.ts dueDaySql)
// and write instants; both must answer exactly as the domain rule and toISOString do.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sql } from 'kysely';
import { db } from '../../src/db/kysely.ts';
import { dueDaySql, isoInstant } from '../../src/db/task-list.ts';
import { dueDay } from '../../src/domain/task-rules.ts';
import { testEnv } from '../support/env.ts';

const test = suite('due dates and instants written by PostgreSQL agree with the domain');

test('dueDaySql gives dueDay for targets, deadlines and extensions around the cap', async () => {
  const env = await testEnv();
  const cases: { targetDate: string; deadline: string; extensions: number }[] = [];
  // Deadlines before, on and after extended days (the weekly mail's deadline is the unit's end when
  // a definition has no due date), and a term's worth of weeks.
  for (const targetDate of ['2026-03-02', '2026-12-28', '2024-02-26'])
    for (const deadline of [targetDate, '2026-03-16', '2026-03-20', '2026-06-30', '2027-01-10', '2024-03-01'])
      for (const extensions of [0, 1, 2, 3, 4, 5, 8, 13]) cases.push({ targetDate, deadline, extensions });
  const { rows } = await sql<{ due: string }>`
    select to_char(${dueDaySql(sql`c.target::date`, sql`c.deadline::date`, sql`c.ext::int`)}, 'YYYY-MM-DD') as due
    from json_to_recordset(${JSON.stringify(cases.map((c, n) => ({ n, target: c.targetDate, deadline: c.deadline, ext: c.extensions })))}::json)
      as c(n int, target text, deadline text, ext int)
    order by c.n`.execute(db(env.orm.em.fork()));
  assert.equal(
    rows.map((r) => r.due),
    cases.map((c) => dueDay(c, c.extensions)),
  );
});

test('isoInstant writes what toISOString writes, microseconds cut to milliseconds', async () => {
  const env = await testEnv();
  const instants = ['2026-03-03 00:00:00+00', '2026-03-03 10:11:12.345678+00', '2026-12-31 23:59:59.999999+10', '2026-06-01 00:00:00.5-03'];
  const { rows } = await sql<{ iso: string }>`
    select ${isoInstant(sql`i::timestamptz`)} as iso from unnest(${instants}::text[]) with ordinality as u(i, n) order by n`.execute(db(env.orm.em.fork()));
  assert.equal(
    rows.map((r) => r.iso),
    instants.map((i) => new Date(i.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString()),
  );
});

test.run();
