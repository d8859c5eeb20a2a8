// The rules of online-test attempts (src/domain/test-attempts.ts): whose word a pass is, when an
// attempt may start, the time delay, and the result's sentence.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  attemptDelayMs,
  attemptLimit,
  countedPass,
  DELAY_CAP_MS,
  mayStartAttempt,
  passBlocksNewAttempt,
  resultDescription,
  type StartState,
} from '../../src/domain/test-attempts.ts';

const MIN = 60_000;
const now = new Date('2026-03-10T09:00:00Z');
const state = (extra: Partial<StartState> = {}): StartState => ({ count: 0, last: null, limit: 0, extraAttempts: 0, timeDelay: false, ...extra });
const ended = (minutesAgo: number, blocksNew = false) => ({ terminated: true, blocksNew, endedAt: new Date(now.getTime() - minutesAgo * MIN) });

test("a pass counts on the package's word under package trust, only by staff under staff trust; an override decides either way", () => {
  assert.is(countedPass('package', true, null), true);
  assert.is(countedPass('package', false, null), false);
  assert.is(countedPass('staff', true, null), false);
  assert.is(countedPass('staff', false, true), true);
  assert.is(countedPass('package', true, false), false);
});

test('a reported pass staff have not decided stops new attempts; a decided one as decided', () => {
  assert.is(passBlocksNewAttempt({ successStatus: false, overridden: false, reportedPass: true }), true);
  assert.is(passBlocksNewAttempt({ successStatus: false, overridden: true, reportedPass: true }), false);
  assert.is(passBlocksNewAttempt({ successStatus: true, overridden: true, reportedPass: false }), true);
  assert.is(passBlocksNewAttempt({ successStatus: false, overridden: false, reportedPass: false }), false);
});

test("the limit is the definition's plus the extra attempts granted; 0 is unlimited", () => {
  assert.is(attemptLimit(0, 5), null);
  assert.is(attemptLimit(2, 0), 2);
  assert.is(attemptLimit(2, 4), 6);
});

test('starting: refused while the last is open, after a pass, and at the limit, in that order', () => {
  assert.equal(mayStartAttempt(state(), now), { ok: true });
  assert.match((mayStartAttempt(state({ count: 1, last: { ...ended(0), terminated: false }, limit: 1 }), now) as { error: string }).error, 'ongoing');
  assert.match((mayStartAttempt(state({ count: 1, last: ended(0, true), limit: 1 }), now) as { error: string }).error, 'passed');
  assert.match((mayStartAttempt(state({ count: 2, last: ended(0), limit: 2 }), now) as { error: string }).error, 'limit');
  assert.equal(mayStartAttempt(state({ count: 2, last: ended(0), limit: 1, extraAttempts: 2 }), now), { ok: true });
});

test('the time delay: none before the second, then 5 minutes doubling per attempt, capped at a day', () => {
  assert.equal(
    [1, 2, 3, 4, 5, 6].map((n) => attemptDelayMs(n) / MIN),
    [0, 0, 5, 10, 20, 40],
  );
  assert.is(attemptDelayMs(12), DELAY_CAP_MS);
  assert.is(attemptDelayMs(1000), DELAY_CAP_MS);
  assert.equal(mayStartAttempt(state({ count: 1, last: ended(0), timeDelay: true }), now), { ok: true });
  const early = mayStartAttempt(state({ count: 2, last: ended(4), timeDelay: true }), now);
  assert.equal(early, {
    ok: false,
    error: 'The next attempt may start at 2026-03-10T09:01:00.000Z: each further attempt waits longer after the last one ended.',
    retryAt: new Date('2026-03-10T09:01:00Z'),
  });
  assert.equal(mayStartAttempt(state({ count: 2, last: ended(5), timeDelay: true }), now), { ok: true });
  assert.equal(mayStartAttempt(state({ count: 2, last: ended(0), timeDelay: false }), now), { ok: true });
});

test("the result's sentence, as the original's, and a pass awaiting staff", () => {
  const facts = (scoreScaled: number | null, interactions = 0, wrongInteractions = 0) => ({ scoreScaled, interactions, wrongInteractions });
  assert.is(resultDescription(true, false, facts(1)), 'Passed without mistakes');
  assert.is(resultDescription(true, false, facts(0.9)), 'Passed');
  assert.is(resultDescription(true, false, facts(null, 3, 0)), 'Passed without mistakes');
  assert.is(resultDescription(true, false, facts(null, 3, 1)), 'Passed');
  assert.is(resultDescription(true, false, facts(null)), 'Passed');
  assert.is(resultDescription(false, false, facts(1)), 'Unsuccessful');
  assert.is(resultDescription(false, true, facts(1)), 'Passed, as reported by the test: awaiting staff confirmation');
});

test.run();
