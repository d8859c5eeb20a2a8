import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as nodeIcal from 'node-ical';
import { Project, Unit, Webcal } from '../../schema/index.ts';
import type { TestEnv } from '../support/env.ts';
import { signedIn, travelTo, type Actor, type People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { api } from '../support/http.ts';
import { enrol, seedUnit } from '../support/seed.ts';
import { seedTask, seedTaskDefinition } from '../support/seed-enrolments.ts';
import { countStatements } from '../support/statements.ts';

const test = suite('REST GET /api/webcal/{guid}: the public calendar feed');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** Turns the caller's calendar on with these settings; returns its guid. */
async function calendarOf(who: Actor, webcal: Record<string, unknown> = {}): Promise<string> {
  const res = await api(env, 'PUT', '/api/webcal', { as: who.creds, json: { webcal: { enabled: true, ...webcal } } });
  assert.is(res.status, 200);
  return res.body.guid;
}

interface Event {
  uid: string;
  day: string;
  end: string;
  summary: string;
  status: string;
  unit: string;
  task: string;
  alarms: { action: string; description: string }[];
}

/** Fetches the feed with no credentials and parses it with node-ical, an independent parser. */
async function feed(guid: string): Promise<{ events: Event[]; text: string }> {
  const res = await api(env, 'GET', `/api/webcal/${guid}`);
  assert.is(res.status, 200, res.text);
  assert.is(res.headers['content-type'], 'text/calendar; charset=utf-8');
  const parsed = nodeIcal.sync.parseICS(res.text);
  const events = Object.values(parsed)
    .filter((c): c is nodeIcal.VEvent => c?.type === 'VEVENT')
    .map((e) => {
      const custom = e as unknown as Record<string, string>;
      return {
        uid: e.uid,
        day: localDay(e.start),
        end: localDay(e.end),
        summary: String(e.summary),
        status: String(e.status),
        unit: custom['DOUBTFIRE-UNIT']!,
        task: custom['DOUBTFIRE-TASK']!,
        alarms: (e.alarms ?? []).map((a) => ({ action: String(a.action), description: String(a.description) })),
      };
    });
  return { events, text: res.text };
}

const uidsAndDays = (events: Event[]) => events.map((e) => `${e.uid} ${e.day}`);

/** node-ical gives all-day dates as local midnight. */
function localDay(d: Date | undefined): string {
  if (!d) return 'none';
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

test('no credentials needed: all-day events on each target date, titled UNIT: ABBR: name, confirmed, with the unit and task ids', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await enrol(env, people.student.user, unit);
  const p1 = await seedTaskDefinition(env, unit, 'P1', { name: 'Hello, world', targetDate: '2026-03-16' });
  const p2 = await seedTaskDefinition(env, unit, 'P2', { name: 'Loops', targetDate: '2026-04-06' });
  const guid = await calendarOf(people.student);

  const { events, text } = await feed(guid);
  assert.equal(events, [
    {
      uid: `E-${p1}`,
      day: '2026-03-16',
      end: '2026-03-17',
      summary: 'SIT101: P1: Hello, world',
      status: 'CONFIRMED',
      unit: String(unit),
      task: String(p1),
      alarms: [],
    },
    {
      uid: `E-${p2}`,
      day: '2026-04-06',
      end: '2026-04-07',
      summary: 'SIT101: P2: Loops',
      status: 'CONFIRMED',
      unit: String(unit),
      task: String(p2),
      alarms: [],
    },
  ]);
  assert.match(text, /\r\nPRODID:-\/\/Course Service\/\/Task calendar\/\/EN\r\n/);
  assert.match(text, /\r\nMETHOD:PUBLISH\r\n/);
  assert.match(text, /\r\nX-PUBLISHED-TTL:P1D\r\n/);
  assert.match(text, /\r\nREFRESH-INTERVAL;VALUE=DURATION:P1D\r\n/);
  // Signed-in callers (and the web client's trailing slash) get the same calendar.
  const signed = await api(env, 'GET', `/api/webcal/${guid}/`, { as: people.tutor.creds });
  assert.is(signed.status, 200);
  assert.is(signed.text, text);
});

test("granted weeks move the end event to the student's due day, never past the deadline; others' tasks do not count", async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  const project = await enrol(env, people.student.user, unit);
  const other = await signedIn(env, 'bstudent', 'Student');
  const otherProject = await enrol(env, other.user, unit);
  const none = await seedTaskDefinition(env, unit, 'P0', { targetDate: '2026-03-09' });
  const one = await seedTaskDefinition(env, unit, 'P1', { targetDate: '2026-03-16', dueDate: '2026-04-30' });
  const capped = await seedTaskDefinition(env, unit, 'P2', { targetDate: '2026-03-16', dueDate: '2026-03-27' });
  await seedTask(env, project, one, { extensions: 1 });
  await seedTask(env, project, capped, { extensions: 3 });
  await seedTask(env, otherProject, none, { extensions: 2 });

  const { events } = await feed(await calendarOf(people.student));
  assert.equal(uidsAndDays(events), [`E-${none} 2026-03-09`, `E-${one} 2026-03-23`, `E-${capped} 2026-03-27`]);
  const { events: theirs } = await feed(await calendarOf(other));
  assert.equal(uidsAndDays(theirs), [`E-${none} 2026-03-23`, `E-${one} 2026-03-16`, `E-${capped} 2026-03-16`]);
});

test('start dates and reminders: S- events on start dates, End: and Start: titles, a display alarm on each event', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await enrol(env, people.student.user, unit);
  const p1 = await seedTaskDefinition(env, unit, 'P1', { startDate: '2026-03-04', targetDate: '2026-03-16' });
  const guid = await calendarOf(people.student, { include_start_dates: true, reminder: { time: 2, unit: 'D' } });

  const { events, text } = await feed(guid);
  assert.equal(
    events.map((e) => [e.uid, e.day, e.summary, e.alarms]),
    [
      [`S-${p1}`, '2026-03-04', 'Start: SIT101: P1: Task P1', [{ action: 'DISPLAY', description: 'Start: SIT101: P1: Task P1' }]],
      [`E-${p1}`, '2026-03-16', 'End: SIT101: P1: Task P1', [{ action: 'DISPLAY', description: 'End: SIT101: P1: Task P1' }]],
    ],
  );
  assert.equal(text.match(/TRIGGER:.*/g), ['TRIGGER:-P2D', 'TRIGGER:-P2D']);

  // Weeks are written as days, hours and minutes as a time.
  for (const [reminder, trigger] of [
    [{ time: 1, unit: 'w' }, '-P7D'],
    [{ time: 3, unit: 'h' }, '-PT3H'],
    [{ time: 30, unit: 'M' }, '-PT30M'],
  ] as const) {
    await calendarOf(people.student, { reminder });
    assert.equal((await feed(guid)).text.match(/TRIGGER:.*/g), [`TRIGGER:${trigger}`, `TRIGGER:${trigger}`]);
  }
  // Without a reminder and start dates the events carry neither.
  await calendarOf(people.student, { reminder: null, include_start_dates: false });
  assert.equal(
    (await feed(guid)).events.map((e) => [e.uid, e.summary, e.alarms.length]),
    [[`E-${p1}`, 'SIT101: P1: Task P1', 0]],
  );
});

test("only definitions up to the project's target grade", async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  const project = await enrol(env, people.student.user, unit, { targetGrade: 1 });
  const ids = [];
  for (const grade of [0, 1, 2, 3]) ids.push(await seedTaskDefinition(env, unit, `G${grade}`, { targetGrade: grade }));
  const guid = await calendarOf(people.student);
  assert.equal(
    (await feed(guid)).events.map((e) => e.uid),
    [`E-${ids[0]}`, `E-${ids[1]}`],
  );

  await env.orm.em.fork().nativeUpdate(Project, { id: project }, { targetGrade: 3 });
  assert.equal(
    (await feed(guid)).events.map((e) => e.uid),
    ids.map((id) => `E-${id}`),
  );
});

test('excluded units, withdrawn projects, inactive units and units not running today are left out', async () => {
  const shown = await seedUnit(env, { code: 'SHOWN' });
  const excluded = await seedUnit(env, { code: 'EXCLUDED' });
  const withdrawn = await seedUnit(env, { code: 'WITHDRAWN' });
  const inactive = await seedUnit(env, { code: 'INACTIVE', active: false });
  const ended = await seedUnit(env, { code: 'ENDED', startDate: '2025-07-01', endDate: '2026-03-01' });
  const later = await seedUnit(env, { code: 'LATER', startDate: '2026-03-03' });
  const notMine = await seedUnit(env, { code: 'NOTMINE' });
  for (const unit of [shown, excluded, inactive, ended, later]) await enrol(env, people.student.user, unit);
  await enrol(env, people.student.user, withdrawn, { enrolled: false });
  await enrol(env, (await signedIn(env, 'bstudent', 'Student')).user, notMine);
  for (const unit of [shown, excluded, withdrawn, inactive, ended, later, notMine]) await seedTaskDefinition(env, unit, 'P1');

  const guid = await calendarOf(people.student, { unit_exclusions: [excluded] });
  assert.equal(
    (await feed(guid)).events.map((e) => e.summary),
    ['SHOWN: P1: Task P1'],
  );

  // The exclusion lifted, that unit comes back; the day after LATER starts, so does it.
  await calendarOf(people.student, { unit_exclusions: [] });
  assert.equal(
    (await feed(guid)).events.map((e) => e.summary),
    ['EXCLUDED: P1: Task P1', 'SHOWN: P1: Task P1'],
  );
  await travelTo(env, people, '2026-03-03T00:00:00Z');
  assert.equal(
    (await feed(guid)).events.map((e) => e.summary),
    ['EXCLUDED: P1: Task P1', 'LATER: P1: Task P1', 'SHOWN: P1: Task P1'],
  );
  // Once the units end (or are deactivated) the calendar is empty, but still a calendar.
  await env.orm.em.fork().nativeUpdate(Unit, { code: 'LATER' }, { active: false });
  await travelTo(env, people, '2026-12-02T00:00:00Z');
  const empty = await feed(guid);
  assert.equal(empty.events, []);
  assert.match(empty.text, /^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/);
});

test('a staff member without projects gets an empty calendar', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await seedTaskDefinition(env, unit, 'P1');
  assert.equal((await feed(await calendarOf(people.tutor))).events, []);
});

test('an unknown, changed or disabled guid answers 404 with an error', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await enrol(env, people.student.user, unit);
  await seedTaskDefinition(env, unit, 'P1');
  const first = await calendarOf(people.student);

  const unknown = await api(env, 'GET', '/api/webcal/00000000-0000-0000-0000-000000000000');
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { error: 'Calendar not found' });
  assert.is((await api(env, 'GET', `/api/webcal/${'x'.repeat(300)}`)).status, 404);

  const second = await calendarOf(people.student, { should_change_guid: true });
  assert.is.not(second, first);
  assert.is((await api(env, 'GET', `/api/webcal/${first}`)).status, 404);
  assert.is((await feed(second)).events.length, 1);

  const off = await api(env, 'PUT', '/api/webcal', { as: people.student.creds, json: { webcal: { enabled: false } } });
  assert.equal(off.body, { enabled: false });
  const gone = await api(env, 'GET', `/api/webcal/${second}`);
  assert.is(gone.status, 404);
  assert.equal(gone.body, { error: 'Calendar not found' });
  // Turned on again, it has a new address; the old one stays dead.
  const third = await calendarOf(people.student);
  assert.ok(third !== first && third !== second);
  assert.is((await api(env, 'GET', `/api/webcal/${second}`)).status, 404);
});

test('the feed is read in a fixed number of statements whatever the number of units and definitions', async () => {
  const guid = await calendarOf(people.student);
  const em = env.orm.em.fork();
  const webcal = await em.findOneOrFail(Webcal, { guid });
  const fetch = () => api(env, 'GET', `/api/webcal/${webcal.guid}`);

  await addUnits(1, 2);
  const small = await countStatements(fetch);
  assert.is((await feed(guid)).events.length, 2);
  await addUnits(4, 12);
  const large = await countStatements(fetch);
  assert.is((await feed(guid)).events.length, 2 + 4 * 12);
  assert.is(large, small);
  assert.is(small, 1);
});

let unitsMade = 0;
async function addUnits(count: number, definitions: number): Promise<void> {
  for (let u = 0; u < count; u++) {
    const unit = await seedUnit(env, { code: `U${++unitsMade}` });
    const project = await enrol(env, people.student.user, unit);
    for (let d = 0; d < definitions; d++) {
      const td = await seedTaskDefinition(env, unit, `T${d}`);
      if (d % 2 === 0) await seedTask(env, project, td, { extensions: 1 });
    }
  }
}

test.run();
