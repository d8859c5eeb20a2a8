// GET .../task_def_id/{td}/rubric_marks: a task's rubric mark as the student and staff see it,
// each criterion with the chosen level's title, description and points.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { notFound } from '../../../../lib/errors.ts';
import { loadRubric } from '../../../units/task_definitions/rubric/load-rubric.ts';

export interface MarkOut {
  task_id: number;
  task_definition_id: number;
  score: number;
  max_score: number;
  grade: number | null;
  quality_pts: number;
  marker: { id: number; name: string } | null;
  marked_at: string;
  criteria: {
    criterion_id: number;
    title: string;
    description: string;
    level: { id: number; title: string; description: string; points: number } | null;
  }[];
}

export const NOT_MARKED = 'This task has not been marked against the rubric.';

export async function readMarks(em: Em, taskId: number | null, taskDefinitionId: number): Promise<MarkOut> {
  const rubric = await loadRubric(em, taskDefinitionId);
  if (taskId === null) throw notFound(NOT_MARKED);
  const k = db(em);
  const mark = await sql<{
    id: number;
    score: number;
    updated_at: string;
    marker_id: number | null;
    marker_name: string | null;
    grade: number | null;
    quality_pts: number;
  }>`
    select m.id, m.score, m.updated_at, m.marker_id, u.first_name || ' ' || u.last_name as marker_name, t.grade, t.quality_pts
      from rubric_marks m join tasks t on t.id = m.task_id left join users u on u.id = m.marker_id
     where m.task_id = ${taskId} and m.rubric_id = ${rubric.id}`.execute(k);
  const row = mark.rows[0];
  if (!row) throw notFound(NOT_MARKED);
  const choices = await k.selectFrom('rubric_mark_choices').select(['criterion_id', 'level_id']).where('mark_id', '=', row.id).execute();
  const chosen = new Map(choices.map((c) => [c.criterion_id, c.level_id]));
  return {
    task_id: taskId,
    task_definition_id: taskDefinitionId,
    score: Number(row.score),
    max_score: rubric.max_score,
    grade: row.grade,
    quality_pts: row.quality_pts,
    marker: row.marker_id === null ? null : { id: row.marker_id, name: row.marker_name ?? '' },
    marked_at: new Date(row.updated_at).toISOString(),
    criteria: rubric.criteria.map((c) => {
      const level = c.levels.find((l) => l.id === chosen.get(c.id));
      return {
        criterion_id: c.id,
        title: c.title,
        description: c.description,
        level: level ? { id: level.id, title: level.title, description: level.description, points: level.points } : null,
      };
    }),
  };
}
