// The five-number summary the original's analytics use (behaviour.md §10, §4.8): not true
// quartiles but values at fixed indexes of the sorted list, so results match the original.

export interface Statistic {
  median: number;
  lower: number;
  upper: number;
  min: number;
  max: number;
}

export const EMPTY_STATISTIC: Statistic = { median: 0, lower: 0, upper: 0, min: 0, max: 0 };

// Half up at the first decimal of the number meant, not of its binary neighbour: the mean of 0.1
// and 4.6 is 2.35 but computes as 2.3499999999999996, which would round down. Twelve significant
// digits drop that last-bit error and keep every digit the values really have.
const round1 = (n: number) => Math.round(Number((n * 10).toPrecision(12))) / 10;

/** Median (mean of the middle two for even counts, to 1 decimal), ~30th and ~80th by index, min, max; all 0 without values. */
export function statistic(values: readonly number[]): Statistic {
  const n = values.length;
  if (n === 0) return { ...EMPTY_STATISTIC };
  const sorted = [...values].sort((a, b) => a - b);
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : round1((sorted[n / 2 - 1] + sorted[n / 2]) / 2);
  return {
    median,
    lower: sorted[Math.floor((n * 3) / 10)],
    upper: sorted[Math.floor((n * 8) / 10)],
    min: sorted[0],
    max: sorted[n - 1],
  };
}
