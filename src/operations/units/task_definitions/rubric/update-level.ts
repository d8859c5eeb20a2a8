// PATCH .../rubric/levels/{level_id}: one level's points (or title, description), then every mark
// re-scored in the same transaction (rescore-marks.ts: a fixed number of statements).
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { pointsError } from '../../../../domain/rubric-scores.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { loadDefinitionTerms, loadRubric } from './load-rubric.ts';
import { rescoreMarks } from './rescore-marks.ts';
import type { SavedRubric } from './save-rubric.ts';

export interface LevelChange {
  title?: string;
  description?: string;
  points?: number;
}

export async function updateLevel(
  em: Em,
  unitId: number,
  taskDefinitionId: number,
  levelId: number,
  change: LevelChange,
  actorId: number,
  now: Date,
): Promise<SavedRubric> {
  const terms = await loadDefinitionTerms(em, unitId, taskDefinitionId);
  const before = await loadRubric(em, taskDefinitionId);
  const criterion = before.criteria.find((c) => c.levels.some((l) => l.id === levelId));
  if (!criterion) throw notFound('Unable to find requested rubric level');
  const level = criterion.levels.find((l) => l.id === levelId)!;
  if (change.title !== undefined && change.title.trim() === '') throw badRequest('A level needs a title.');
  if (change.points !== undefined) {
    const error = pointsError(change.points);
    if (error) throw badRequest(error);
  }
  await db(em)
    .updateTable('rubric_levels')
    .set({
      ...(change.title === undefined ? {} : { title: change.title.trim() }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.points === undefined ? {} : { points: change.points }),
    })
    .where('id', '=', levelId)
    .execute();
  const rubric = await loadRubric(em, taskDefinitionId);
  if (change.points === undefined || change.points === level.points) return { ...rubric, rescore: { rescored: 0, tasks_updated: 0 } };
  const why = `level '${change.title?.trim() ?? level.title}' of '${criterion.title}' now ${change.points} points (was ${level.points})`;
  return { ...rubric, rescore: await rescoreMarks(em, rubric, terms, actorId, why, now) };
}
