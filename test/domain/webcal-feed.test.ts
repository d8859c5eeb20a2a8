import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as nodeIcal from 'node-ical';
import { renderCalendar } from '../../src/domain/webcal-calendar.ts';
import { feedEvents, reminderSeconds, type FeedDefinition } from '../../src/domain/webcal-events.ts';

const test = suite('domain: webcal feed events and their iCalendar');

const P1: FeedDefinition = {
  id: 7,
  unitId: 3,
  unitCode: 'SIT101',
  abbreviation: 'P1',
  name: 'Hello, world; again',
  startDate: '2026-03-02',
  targetDate: '2026-03-16',
  deadline: '2026-03-27',
  extensions: null,
};
const NO_EXTRAS = { includeStartDates: false, reminder: null };

test('one end event per definition on its target date when the student has no task, titled unit: abbreviation: name', () => {
  assert.equal(feedEvents([P1], NO_EXTRAS), [
    { uid: 'E-7', day: '2026-03-16', summary: 'SIT101: P1: Hello, world; again', unitId: 3, taskDefinitionId: 7, alarmSecondsBefore: null },
  ]);
});

test('granted weeks move the end event, never past the deadline', () => {
  assert.is(feedEvents([{ ...P1, extensions: 0 }], NO_EXTRAS)[0]!.day, '2026-03-16');
  assert.is(feedEvents([{ ...P1, extensions: 1 }], NO_EXTRAS)[0]!.day, '2026-03-23');
  assert.is(feedEvents([{ ...P1, extensions: 2 }], NO_EXTRAS)[0]!.day, '2026-03-27');
});

test('with start dates: a start event (S-) on the start date before the end event, both named for what they mark', () => {
  const events = feedEvents([P1], { includeStartDates: true, reminder: null });
  assert.equal(
    events.map((e) => [e.uid, e.day, e.summary]),
    [
      ['S-7', '2026-03-02', 'Start: SIT101: P1: Hello, world; again'],
      ['E-7', '2026-03-16', 'End: SIT101: P1: Hello, world; again'],
    ],
  );
});

test('reminders in weeks, days, hours and minutes become seconds before the event', () => {
  assert.is(reminderSeconds(null), null);
  assert.is(reminderSeconds({ time: 2, unit: 'w' }), 2 * 7 * 86_400);
  assert.is(reminderSeconds({ time: 3, unit: 'd' }), 3 * 86_400);
  assert.is(reminderSeconds({ time: 4, unit: 'h' }), 4 * 3_600);
  assert.is(reminderSeconds({ time: 15, unit: 'm' }), 15 * 60);
  const events = feedEvents([P1], { includeStartDates: true, reminder: { time: 1, unit: 'd' } });
  assert.equal(
    events.map((e) => e.alarmSecondsBefore),
    [86_400, 86_400],
  );
});

test('the calendar: PRODID, METHOD, refresh daily, all-day events with status, custom properties and alarms; parsed back by node-ical', () => {
  const events = feedEvents([P1], { includeStartDates: true, reminder: { time: 2, unit: 'h' } });
  const text = renderCalendar(events, 'Course Service', new Date('2026-03-02T00:00:00Z'));
  assert.ok(text.startsWith('BEGIN:VCALENDAR\r\n'));
  assert.ok(text.endsWith('\r\nEND:VCALENDAR\r\n'));
  assert.match(text, /\r\nPRODID:-\/\/Course Service\/\/Task calendar\/\/EN\r\n/);
  assert.match(text, /\r\nMETHOD:PUBLISH\r\n/);
  assert.match(text, /\r\nX-PUBLISHED-TTL:P1D\r\n/);
  assert.match(text, /\r\nREFRESH-INTERVAL;VALUE=DURATION:P1D\r\n/);
  assert.match(text, /\r\nDTSTART;VALUE=DATE:20260316\r\nDTEND;VALUE=DATE:20260317\r\n/);
  assert.match(text, /\r\nTRIGGER:-PT2H\r\n/);

  const parsed = nodeIcal.sync.parseICS(text);
  const end = parsed['E-7'] as nodeIcal.VEvent;
  assert.is(end.type, 'VEVENT');
  assert.is(end.summary, 'End: SIT101: P1: Hello, world; again');
  assert.is(end.status, 'CONFIRMED');
  assert.is(end.datetype, 'date');
  assert.is(localDay(end.start), '2026-03-16');
  assert.is(localDay(end.end), '2026-03-17');
  const custom = end as unknown as Record<string, string>;
  assert.is(custom['DOUBTFIRE-UNIT'], '3');
  assert.is(custom['DOUBTFIRE-TASK'], '7');
  assert.is(end.alarms?.length, 1);
  assert.is(end.alarms?.[0]?.action, 'DISPLAY');
  assert.is(end.alarms?.[0]?.description, end.summary);
  assert.is(localDay((parsed['S-7'] as nodeIcal.VEvent).start), '2026-03-02');
});

test('weeks and days of warning are written as durations (-P14D, -P3D)', () => {
  const at = (unit: 'w' | 'd' | 'm', time: number) =>
    renderCalendar(feedEvents([P1], { includeStartDates: false, reminder: { time, unit } }), 'X', new Date(0)).match(/TRIGGER:(.*)\r\n/)![1];
  assert.is(at('w', 2), '-P14D');
  assert.is(at('d', 3), '-P3D');
  assert.is(at('m', 90), '-PT1H30M');
});

test('a product name with a line break or "//" cannot break the PRODID line; no events makes an empty calendar', () => {
  const text = renderCalendar([], 'Evil\r\nX-INJECTED:1//Name', new Date(0));
  assert.not.match(text, /\r\nX-INJECTED/);
  assert.match(text, /\r\nPRODID:-\/\/Evil {2}X-INJECTED:1 Name\/\/Task calendar\/\/EN\r\n/);
  assert.not.match(text, /BEGIN:VEVENT/);
  assert.equal(
    Object.values(nodeIcal.sync.parseICS(text)).filter((c) => c?.type === 'VEVENT'),
    [],
  );
});

/** node-ical gives all-day dates as local midnight. */
function localDay(d: Date | undefined): string {
  if (!d) return 'none';
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

test.run();
