// Rubric rules (docs/marking/rubrics.md), pure: what a valid rubric is, a mark's score, and how a
// score maps to the task's grade or quality points. Marking and re-scoring both ask these, so a
// re-scored task gets exactly what marking it again would give.
import { GRADE_LETTERS } from './task-rules.ts';

export const RUBRIC_MAPPINGS = ['none', 'grade', 'quality_pts'] as const;
export type RubricMapping = (typeof RUBRIC_MAPPINGS)[number];

/** Fractions of the maximum score at which each grade starts (below `pass` is F). */
export interface GradeThresholds {
  pass: number;
  credit: number;
  distinction: number;
  high_distinction: number;
}

export const DEFAULT_THRESHOLDS: GradeThresholds = { pass: 0.5, credit: 0.6, distinction: 0.7, high_distinction: 0.8 };

export interface LevelInput {
  id?: number;
  title: string;
  description?: string;
  points: number;
  position: number;
}

export interface CriterionInput {
  id?: number;
  title: string;
  description?: string;
  position: number;
  levels: LevelInput[];
}

export interface RubricInput {
  mapping: RubricMapping;
  thresholds?: GradeThresholds | null;
  criteria: CriterionInput[];
}

/** What of the definition the mapping depends on. */
export interface MappingTerms {
  isGraded: boolean;
  maxQualityPts: number;
}

/** Points: finite, 0..10,000, at most two decimals (so sums compare exactly enough). */
export function pointsError(points: number): string | undefined {
  if (!Number.isFinite(points) || points < 0 || points > 10_000) return 'Level points must be between 0 and 10000.';
  if (Math.abs(points * 100 - Math.round(points * 100)) > 1e-9) return 'Level points may have at most two decimals.';
  return undefined;
}

const duplicate = (values: number[]) => values.find((v, i) => values.indexOf(v) !== i);

/** The first thing wrong with a rubric, or undefined. */
export function rubricError(input: RubricInput, terms: MappingTerms): string | undefined {
  if (input.criteria.length === 0) return 'A rubric needs at least one criterion.';
  const position = duplicate(input.criteria.map((c) => c.position));
  if (position !== undefined) return `Two criteria have position ${position}.`;
  for (const criterion of input.criteria) {
    if (criterion.title.trim() === '') return 'A criterion needs a title.';
    if (criterion.levels.length === 0) return `Criterion '${criterion.title}' needs at least one level.`;
    const levelPosition = duplicate(criterion.levels.map((l) => l.position));
    if (levelPosition !== undefined) return `Two levels of criterion '${criterion.title}' have position ${levelPosition}.`;
    for (const level of criterion.levels) {
      if (level.title.trim() === '') return `A level of criterion '${criterion.title}' needs a title.`;
      const error = pointsError(level.points);
      if (error) return error;
    }
  }
  const levelIds = input.criteria.flatMap((c) => c.levels.map((l) => l.id)).filter((id) => id !== undefined);
  if (duplicate(levelIds) !== undefined) return 'A level id appears twice.';
  const criterionIds = input.criteria.map((c) => c.id).filter((id) => id !== undefined);
  if (duplicate(criterionIds) !== undefined) return 'A criterion id appears twice.';
  return mappingError(input.mapping, input.thresholds ?? null, terms);
}

export function mappingError(mapping: RubricMapping, thresholds: GradeThresholds | null, terms: MappingTerms): string | undefined {
  if (mapping === 'grade') {
    if (!terms.isGraded) return 'The grade mapping needs a graded task definition.';
    const t = thresholds ?? DEFAULT_THRESHOLDS;
    const order = [t.pass, t.credit, t.distinction, t.high_distinction];
    if (order.some((f) => !Number.isFinite(f) || f < 0 || f > 1)) return 'Grade thresholds are fractions between 0 and 1.';
    if (order.some((f, i) => i > 0 && f < order[i - 1])) return 'Grade thresholds must not decrease from pass to high distinction.';
  }
  if (mapping === 'quality_pts' && terms.maxQualityPts <= 0) return 'The quality points mapping needs a task definition with quality points.';
  return undefined;
}

/** The highest score: the best level of each criterion. */
export const maxScore = (criteria: readonly { levels: readonly { points: number }[] }[]): number =>
  roundScore(criteria.reduce((sum, c) => sum + Math.max(0, ...c.levels.map((l) => l.points)), 0));

/** Sums to two decimals, so 0.1 + 0.2 is 0.3. */
export const roundScore = (score: number): number => Math.round(score * 100) / 100;

/** What the score gives the task: a grade (-1..3), quality points, or nothing. */
export type MappedResult = { grade?: number; qualityPts?: number };

export function mapScore(score: number, max: number, mapping: RubricMapping, thresholds: GradeThresholds | null, terms: MappingTerms): MappedResult {
  if (mapping === 'none') return {};
  const fraction = max > 0 ? score / max : 0;
  if (mapping === 'quality_pts') return { qualityPts: Math.min(terms.maxQualityPts, Math.max(0, Math.round(fraction * terms.maxQualityPts))) };
  const t = thresholds ?? DEFAULT_THRESHOLDS;
  // A small tolerance: 14/20 is 0.7 even where the division is not exact.
  const reaches = (f: number) => fraction + 1e-9 >= f;
  const grade = reaches(t.high_distinction) ? 3 : reaches(t.distinction) ? 2 : reaches(t.credit) ? 1 : reaches(t.pass) ? 0 : -1;
  return { grade };
}

/** "grade C", "3 quality points" or "" (for history text and the CSV). */
export function describeResult(result: MappedResult): string {
  if (result.grade !== undefined) return `grade ${GRADE_LETTERS[result.grade]}`;
  if (result.qualityPts !== undefined) return `${result.qualityPts} quality points`;
  return '';
}
