// PUT .../task_def_id/{td}/rubric_marks: a tutor marks a task against its definition's rubric, one
// level per criterion. The choices and the score are stored, and the score's mapped grade or
// quality points go to the task through changeTask, in the request's one transaction.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { mapScore, roundScore } from '../../../../domain/rubric-scores.ts';
import type { TaskActor } from '../../../../policy/index.ts';
import { badRequest } from '../../../../lib/errors.ts';
import { changeTask } from '../../../tasks/change-task.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { loadRubric } from '../../../units/task_definitions/rubric/load-rubric.ts';
import { type MarkOut, readMarks } from './read-marks.ts';

export interface MarkInput {
  choices: { criterion_id: number; level_id: number }[];
}

export async function markTask(
  em: Em,
  on: { taskId: number | null; projectId: number; definition: { id: number; isGraded: boolean; maxQualityPts: number } },
  actor: { userId: number; role: TaskActor },
  input: MarkInput,
  now: Date,
): Promise<MarkOut> {
  // The rubric's row, shared for the transaction: a concurrent DELETE of the rubric (or a PUT)
  // waits for this mark, and one done first leaves no rubric here (404, not a broken reference).
  await sql`select id from rubrics where task_definition_id = ${on.definition.id} for share`.execute(db(em));
  const rubric = await loadRubric(em, on.definition.id);
  // One level per criterion, every criterion, each level its own criterion's.
  const byCriterion = new Map<number, number>();
  for (const choice of input.choices) {
    const criterion = rubric.criteria.find((c) => c.id === choice.criterion_id);
    if (!criterion) throw badRequest(`Criterion ${choice.criterion_id} is not part of this rubric.`);
    if (byCriterion.has(criterion.id)) throw badRequest(`Criterion ${criterion.id} is chosen twice.`);
    if (!criterion.levels.some((l) => l.id === choice.level_id)) throw badRequest(`Level ${choice.level_id} is not a level of criterion ${criterion.id}.`);
    byCriterion.set(criterion.id, choice.level_id);
  }
  const missing = rubric.criteria.find((c) => !byCriterion.has(c.id));
  if (missing) throw badRequest(`Choose a level for criterion '${missing.title}'.`);

  const points = new Map(rubric.criteria.flatMap((c) => c.levels.map((l) => [l.id, l.points] as const)));
  const score = roundScore([...byCriterion.values()].reduce((sum, level) => sum + points.get(level)!, 0));
  const result = mapScore(score, rubric.max_score, rubric.mapping, rubric.thresholds, on.definition);

  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definition.id, now));
  const at = now.toISOString();
  const k = db(em);
  const mark = await sql<{ id: number }>`
    insert into rubric_marks (task_id, rubric_id, score, marker_id, created_at, updated_at)
    values (${taskId}, ${rubric.id}, ${score}, ${actor.userId}, ${at}, ${at})
    on conflict (task_id) do update set rubric_id = excluded.rubric_id, score = excluded.score, marker_id = excluded.marker_id, updated_at = excluded.updated_at
    returning id`.execute(k);
  const markId = mark.rows[0]!.id;
  await k.deleteFrom('rubric_mark_choices').where('mark_id', '=', markId).execute();
  await k
    .insertInto('rubric_mark_choices')
    .values([...byCriterion].map(([criterion, level]) => ({ mark_id: markId, criterion_id: criterion, level_id: level })))
    .execute();
  if (result.grade !== undefined || result.qualityPts !== undefined) {
    await changeTask(em, taskId, { actor, grade: result.grade, qualityPts: result.qualityPts }, now);
  }
  return readMarks(em, taskId, on.definition.id);
}
