// PUT .../task_definitions/{td}/rubric: the whole rubric. Criteria and levels sent with their id
// are kept (so marks that chose them stay), those without are added, those left out are removed
// unless a mark chose them (400). Afterwards every mark is scored and mapped again, in the same
// transaction (rescore-marks.ts), since points, the maximum or the mapping may have moved.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { type LevelInput, type RubricInput, rubricError } from '../../../../domain/rubric-scores.ts';
import { badRequest } from '../../../../lib/errors.ts';
import { findRubric, loadDefinitionTerms, loadRubric, type RubricOut } from './load-rubric.ts';
import { type RescoreSummary, rescoreMarks } from './rescore-marks.ts';

export type SavedRubric = RubricOut & { rescore: RescoreSummary };

export async function saveRubric(em: Em, unitId: number, taskDefinitionId: number, input: RubricInput, actorId: number, now: Date): Promise<SavedRubric> {
  const terms = await loadDefinitionTerms(em, unitId, taskDefinitionId);
  const error = rubricError(input, terms);
  if (error) throw badRequest(error);
  const k = db(em);
  const at = now.toISOString();
  const before = await findRubric(em, taskDefinitionId);

  // Ids sent must be this rubric's, each level under its own criterion.
  const known = new Map((before?.criteria ?? []).map((c) => [c.id, new Set(c.levels.map((l) => l.id))]));
  for (const c of input.criteria) {
    if (c.id !== undefined && !known.has(c.id)) throw badRequest(`Criterion ${c.id} is not part of this rubric.`);
    for (const l of c.levels) {
      if (l.id !== undefined && (c.id === undefined || !known.get(c.id)!.has(l.id)))
        throw badRequest(`Level ${l.id} is not part of criterion ${c.id ?? `'${c.title}'`}.`);
    }
  }
  const keptLevels = new Set(input.criteria.flatMap((c) => c.levels.map((l) => l.id)).filter((id) => id !== undefined));
  const removedLevels = (before?.criteria ?? []).flatMap((c) => c.levels.map((l) => l.id)).filter((id) => !keptLevels.has(id));
  if (removedLevels.length > 0) {
    const used = await k.selectFrom('rubric_mark_choices').select('level_id').where('level_id', 'in', removedLevels).limit(1).executeTakeFirst();
    if (used) throw badRequest(`Level ${used.level_id} was chosen in a mark and can not be removed; change its points or description instead.`);
  }

  const rubricId =
    before?.id ??
    (
      await k
        .insertInto('rubrics')
        .values({ task_definition_id: taskDefinitionId, mapping: input.mapping, thresholds: null, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const thresholds = input.mapping === 'grade' && input.thresholds ? JSON.stringify(input.thresholds) : null;
  await sql`update rubrics set mapping = ${input.mapping}, thresholds = ${thresholds}::jsonb, updated_at = ${at} where id = ${rubricId}`.execute(k);

  // Positions are unique per rubric and per criterion: move the kept rows out of the way first.
  const keptCriteria = input.criteria.map((c) => c.id).filter((id) => id !== undefined);
  const removedCriteria = (before?.criteria ?? []).map((c) => c.id).filter((id) => !keptCriteria.includes(id));
  if (removedLevels.length > 0) await k.deleteFrom('rubric_levels').where('id', 'in', removedLevels).execute();
  if (removedCriteria.length > 0) await k.deleteFrom('rubric_criteria').where('id', 'in', removedCriteria).execute();
  await sql`update rubric_criteria set position = -1 - position where rubric_id = ${rubricId}`.execute(k);
  await sql`update rubric_levels l set position = -1 - l.position from rubric_criteria c where c.id = l.criterion_id and c.rubric_id = ${rubricId}`.execute(k);

  const oldPoints = new Map(
    (before?.criteria ?? []).flatMap((c) => c.levels.map((l) => [l.id, { points: l.points, title: l.title, criterion: c.title }] as const)),
  );
  const changes: string[] = [];
  for (const c of input.criteria) {
    const fields = { title: c.title.trim(), description: c.description ?? '', position: c.position };
    const criterionId =
      c.id !== undefined
        ? (await k.updateTable('rubric_criteria').set(fields).where('id', '=', c.id).returning('id').executeTakeFirstOrThrow()).id
        : (
            await k
              .insertInto('rubric_criteria')
              .values({ ...fields, rubric_id: rubricId })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id;
    for (const l of c.levels) {
      await saveLevel(em, criterionId, l);
      const old = l.id !== undefined ? oldPoints.get(l.id) : undefined;
      if (old && old.points !== l.points) changes.push(`level '${l.title.trim()}' of '${fields.title}' now ${l.points} points (was ${old.points})`);
    }
  }
  const rubric = await loadRubric(em, taskDefinitionId);
  const why = changes.length > 0 ? changes.join('; ') : 'the rubric was changed';
  const rescore = before ? await rescoreMarks(em, rubric, terms, actorId, why, now) : { rescored: 0, tasks_updated: 0 };
  return { ...rubric, rescore };
}

async function saveLevel(em: Em, criterionId: number, l: LevelInput): Promise<void> {
  const fields = { title: l.title.trim(), description: l.description ?? '', points: l.points, position: l.position };
  const k = db(em);
  if (l.id !== undefined) await k.updateTable('rubric_levels').set(fields).where('id', '=', l.id).execute();
  else
    await k
      .insertInto('rubric_levels')
      .values({ ...fields, criterion_id: criterionId })
      .execute();
}
