// The rubric's pure rules: validation, the maximum, and the score's mapping to a grade or quality points.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mapScore, maxScore, mappingError, pointsError, roundScore, rubricError } from '../../src/domain/rubric-scores.ts';

const graded = { isGraded: true, maxQualityPts: 5 };

test('grades start at each threshold, as fractions of the maximum', () => {
  const grade = (score: number) => mapScore(score, 20, 'grade', null, graded).grade;
  assert.equal([9.99, 10, 11.99, 12, 14, 16, 20].map(grade), [-1, 0, 0, 1, 2, 3, 3]);
  assert.is(mapScore(7, 10, 'grade', { pass: 0.4, credit: 0.5, distinction: 0.6, high_distinction: 0.7 }, graded).grade, 3);
});

test('quality points are the score scaled to the maximum, rounded; none maps nothing', () => {
  assert.equal(mapScore(15, 20, 'quality_pts', null, graded), { qualityPts: 4 });
  assert.equal(mapScore(0, 20, 'quality_pts', null, graded), { qualityPts: 0 });
  assert.equal(mapScore(15, 20, 'none', null, graded), {});
  assert.equal(mapScore(0, 0, 'grade', null, graded), { grade: -1 });
});

test('the maximum sums the best level of each criterion; sums keep two decimals', () => {
  assert.is(maxScore([{ levels: [{ points: 1 }, { points: 3.5 }] }, { levels: [{ points: 2 }] }]), 5.5);
  assert.is(roundScore(0.1 + 0.2), 0.3);
});

test('bad points, thresholds and mappings are named', () => {
  assert.ok(pointsError(-1));
  assert.ok(pointsError(Number.NaN));
  assert.ok(pointsError(1.005));
  assert.is(pointsError(2.25), undefined);
  assert.match(mappingError('grade', null, { isGraded: false, maxQualityPts: 0 })!, /graded/);
  assert.match(mappingError('quality_pts', null, { isGraded: true, maxQualityPts: 0 })!, /quality points/);
  const level = { title: 'L', points: 1, position: 1 };
  assert.match(
    rubricError(
      {
        mapping: 'none',
        criteria: [
          { id: 3, title: 'A', position: 1, levels: [level] },
          { id: 3, title: 'B', position: 2, levels: [level] },
        ],
      },
      graded,
    )!,
    /criterion id appears twice/,
  );
  assert.is(rubricError({ mapping: 'none', criteria: [{ title: 'A', position: 1, levels: [level] }] }, graded), undefined);
});

test.run();
