// A definition's rubric as the routes answer it: criteria and levels in position order, the
// mapping and the maximum score. Two statements whatever its size.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { DEFAULT_THRESHOLDS, type GradeThresholds, maxScore, type RubricMapping } from '../../../../domain/rubric-scores.ts';
import { notFound } from '../../../../lib/errors.ts';

export interface LevelOut {
  id: number;
  title: string;
  description: string;
  points: number;
  position: number;
}

export interface CriterionOut {
  id: number;
  title: string;
  description: string;
  position: number;
  levels: LevelOut[];
}

export interface RubricOut {
  id: number;
  task_definition_id: number;
  mapping: RubricMapping;
  /** The grade thresholds in use (the defaults when none were set); null unless the mapping is `grade`. */
  thresholds: GradeThresholds | null;
  max_score: number;
  criteria: CriterionOut[];
}

export const NO_RUBRIC = 'This task definition has no rubric.';

/** The definition's rubric, or null. */
export async function findRubric(em: Em, taskDefinitionId: number): Promise<RubricOut | null> {
  const k = db(em);
  const rubric = await k.selectFrom('rubrics').select(['id', 'mapping', 'thresholds']).where('task_definition_id', '=', taskDefinitionId).executeTakeFirst();
  if (!rubric) return null;
  const rows = await k
    .selectFrom('rubric_criteria as c')
    .leftJoin('rubric_levels as l', 'l.criterion_id', 'c.id')
    .select(['c.id as c_id', 'c.title as c_title', 'c.description as c_description', 'c.position as c_position'])
    .select(['l.id as l_id', 'l.title as l_title', 'l.description as l_description', 'l.points as l_points', 'l.position as l_position'])
    .where('c.rubric_id', '=', rubric.id)
    .orderBy('c.position')
    .orderBy('l.position')
    .execute();
  const criteria = new Map<number, CriterionOut>();
  for (const r of rows) {
    let c = criteria.get(r.c_id);
    if (!c) {
      c = { id: r.c_id, title: r.c_title, description: r.c_description, position: r.c_position, levels: [] };
      criteria.set(r.c_id, c);
    }
    if (r.l_id !== null) {
      c.levels.push({ id: r.l_id, title: r.l_title!, description: r.l_description!, points: Number(r.l_points), position: r.l_position! });
    }
  }
  const list = [...criteria.values()];
  const mapping = rubric.mapping as RubricMapping;
  const thresholds = mapping === 'grade' ? ((rubric.thresholds as GradeThresholds | null) ?? DEFAULT_THRESHOLDS) : null;
  return { id: rubric.id, task_definition_id: taskDefinitionId, mapping, thresholds, max_score: maxScore(list), criteria: list };
}

/** The definition's rubric, or 404. */
export async function loadRubric(em: Em, taskDefinitionId: number): Promise<RubricOut> {
  const rubric = await findRubric(em, taskDefinitionId);
  if (!rubric) throw notFound(NO_RUBRIC);
  return rubric;
}

/** The definition of this unit the rubric belongs to, with what its mapping depends on; 404 when not the unit's. */
export async function loadDefinitionTerms(em: Em, unitId: number, taskDefinitionId: number) {
  const row = await db(em)
    .selectFrom('task_definitions')
    .select(['id', 'name', 'is_graded', 'max_quality_pts'])
    .where('id', '=', taskDefinitionId)
    .where('unit_id', '=', unitId)
    .executeTakeFirst();
  if (!row) throw notFound('Unable to find requested Task definition');
  return { id: row.id, name: row.name, isGraded: row.is_graded, maxQualityPts: row.max_quality_pts };
}

/** GET .../task_definitions/{td}/rubric: the rubric of this unit's definition (404 for another unit's, or none). */
export async function unitRubric(em: Em, unitId: number, taskDefinitionId: number): Promise<RubricOut> {
  await loadDefinitionTerms(em, unitId, taskDefinitionId);
  return loadRubric(em, taskDefinitionId);
}
