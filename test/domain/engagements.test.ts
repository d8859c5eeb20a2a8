import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  deleteRefusal,
  engagementReport,
  evidenceConflict,
  evidenceUrlProblem,
  occurredAtProblem,
  reencodedImageType,
  type ReportStudent,
} from '../../src/domain/engagements.ts';

const test = suite('check-in rules');

test('evidence URLs: http and https with a host only', () => {
  assert.equal(['https://example.edu/a?b=c', 'http://10.0.0.1:8080/x'].map(evidenceUrlProblem), [null, null]);
  for (const bad of [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'ftp://example.edu',
    'data:text/html,x',
    'file:///etc/passwd',
    'mailto:a@b.c',
    'example.edu',
    '',
  ])
    assert.ok(evidenceUrlProblem(bad), bad);
  assert.match(evidenceUrlProblem(`https://example.edu/${'a'.repeat(2048)}`)!, /too long/);
});

test('occurred_at: not before 2000, at most a day ahead', () => {
  const now = new Date('2026-03-02T00:00:00Z');
  assert.is(occurredAtProblem(new Date('2026-03-02T23:59:00Z'), now), null);
  assert.is(occurredAtProblem(new Date('2000-01-01T00:00:00Z'), now), null);
  assert.match(occurredAtProblem(new Date('2026-03-03T00:01:00Z'), now)!, /future/);
  assert.match(occurredAtProblem(new Date('1999-12-31T23:59:59Z'), now)!, /2000/);
});

test('evidence: a URL or a file, never both; removing is not sent with new evidence', () => {
  assert.is(evidenceConflict({ hasAttachment: false }), null);
  assert.is(evidenceConflict({ evidence_url: 'https://x', hasAttachment: false }), null);
  assert.ok(evidenceConflict({ evidence_url: 'https://x', hasAttachment: true }));
  assert.ok(evidenceConflict({ hasAttachment: true, remove_evidence: true }));
  assert.is(evidenceConflict({ hasAttachment: false, remove_evidence: true }), null);
});

test('delete windows: the author an hour, the convenor a week, anyone else never', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const H = 3_600_000;
  assert.is(deleteRefusal({ createdAt: ago(H), isAuthor: true, mayDeleteOthers: false }, now), null);
  assert.ok(deleteRefusal({ createdAt: ago(H + 1), isAuthor: true, mayDeleteOthers: false }, now));
  assert.ok(deleteRefusal({ createdAt: ago(0), isAuthor: false, mayDeleteOthers: false }, now));
  assert.is(deleteRefusal({ createdAt: ago(7 * 24 * H), isAuthor: false, mayDeleteOthers: true }, now), null);
  assert.ok(deleteRefusal({ createdAt: ago(7 * 24 * H + 1), isAuthor: true, mayDeleteOthers: true }, now));
});

test('images keep JPEG and WebP, become PNG otherwise; other types are not images we take', () => {
  assert.equal(
    ['image/jpeg', 'image/webp', 'image/png', 'image/gif', 'image/tiff', 'image/avif'].map((m) => reencodedImageType(m)?.format),
    ['jpeg', 'webp', 'png', 'png', 'png', 'png'],
  );
  for (const m of ['image/svg+xml', 'image/bmp', 'application/pdf', 'application/zip', 'application/x-msdownload']) assert.is(reencodedImageType(m), null, m);
});

test('the report: weeks pause over a break, early and late check-ins count in totals only, weeks quiet from the last', () => {
  // Week 1 from Monday 2 March; a one-week break from Monday 16 March (after week 2).
  const cal = { startDate: '2026-03-02', breaks: [{ startDate: '2026-03-16', numberOfWeeks: 1 }] };
  const students: ReportStudent[] = [
    { project_id: 1, tutorial_id: 10, tutorial: 'LA1', tutor_name: 'T', username: 'a', name: 'A' },
    { project_id: 2, tutorial_id: 10, tutorial: 'LA1', tutor_name: 'T', username: 'b', name: 'B' },
    { project_id: 2, tutorial_id: 20, tutorial: 'LB1', tutor_name: 'U', username: 'b', name: 'B' },
    { project_id: 3, tutorial_id: null, tutorial: null, tutor_name: null, username: 'c', name: 'C' },
  ];
  const days = [
    { project_id: 1, day: '2026-03-03', count: 1 }, // week 1
    { project_id: 1, day: '2026-03-18', count: 2 }, // in the break: week 2
    { project_id: 1, day: '2026-03-24', count: 1 }, // week 3 (the week after the break)
    { project_id: 2, day: '2026-02-20', count: 4 }, // before week 1: the total only
  ];
  const last = new Map([
    [1, '2026-03-24T10:00:00.000Z'],
    [2, '2026-02-20T10:00:00.000Z'],
  ]);
  // 1 April is in week 4 (the break paused the count for a week).
  const rows = engagementReport(cal, 4, students, days, last);
  assert.equal(
    rows.map((r) => [r.abbreviation, r.weeks, r.total, r.quiet_students, r.students.map((s) => [s.username, s.weeks_quiet])]),
    [
      [
        'LA1',
        [1, 2, 1, 0],
        8,
        1,
        [
          ['a', 1],
          ['b', 4],
        ],
      ],
      ['LB1', [0, 0, 0, 0], 4, 1, [['b', 4]]],
      [null, [0, 0, 0, 0], 0, 1, [['c', 4]]],
    ],
  );
  // Before the unit starts there are no week columns and nobody is quiet.
  const before = engagementReport(cal, 0, students.slice(0, 1), [], new Map());
  assert.equal([before[0]!.weeks, before[0]!.students[0]!.weeks_quiet, before[0]!.quiet_students], [[], 0, 0]);
});

test.run();
