import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compare, quantile, report, type Target } from '../../scripts/bench/support.ts';

const test = suite('npm run bench: paired rounds and the median ratio with its spread');

test('quartiles interpolate between neighbours', () => {
  assert.is(quantile([4, 1, 3, 2], 0.5), 2.5);
  assert.is(quantile([1, 2, 3, 4, 5], 0.25), 2);
  assert.is(quantile([1, 2, 3, 4, 5], 0.75), 4);
  assert.is(quantile([7], 0.25), 7);
});

test('each round pairs service and baseline windows in ABBA order, alternating which goes first', async () => {
  const order: string[] = [];
  // The machine slows down steadily, window after window; ABBA pairs cancel that drift exactly.
  const load = {
    async rps(target: Target) {
      order.push(target.url);
      return (target.url === 'service' ? 500 : 1000) * (1 - order.length / 50);
    },
  };
  const [result] = await compare(load, [{ name: 'probe', service: { url: 'service', durationMs: 400 }, baseline: { url: 'baseline', durationMs: 400 } }], 4);
  // Two unmeasured warm-up windows, then S B B S, B S S B, S B B S, B S S B.
  assert.equal(
    order.slice(2).join(' '),
    'service baseline baseline service baseline service service baseline service baseline baseline service baseline service service baseline',
  );
  assert.equal(
    result!.ratios.map((r) => r.toFixed(2)),
    ['0.50', '0.50', '0.50', '0.50'],
  );
  assert.is(report(result!).split('\n')[0], 'probe ratio 0.50 (p25 0.50, p75 0.50, n=4)');
});

test.run();
