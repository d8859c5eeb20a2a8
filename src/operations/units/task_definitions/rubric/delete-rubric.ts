// DELETE .../task_definitions/{td}/rubric (docs/marking/rubrics.md). A rubric nobody was marked
// with simply goes. One with marks is refused (400) unless forced: then the marks go with it, the
// tasks keep the grade or quality points they have (nothing is re-scored or re-mapped, so no task
// row is written and the LMS hears of nothing new), and each marked task's history gets a comment
// saying so, through insertComments as re-scoring does. A fixed number of statements whatever the
// number of marks.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { describeResult, type RubricMapping } from '../../../../domain/rubric-scores.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { insertComments, type NewComment } from '../../../tasks/comments.ts';
import { loadDefinitionTerms, NO_RUBRIC } from './load-rubric.ts';

export interface DeletedRubric {
  /** Marks deleted with the rubric (each recorded in its task's comments). */
  marks_deleted: number;
}

interface MarkRow {
  task_id: number;
  score: number;
  max_score: number;
  student_id: number;
  grade: number | null;
  quality_pts: number;
}

/** The 400 for a rubric with marks, deleted without `force`. */
export function markedRefusal(count: number): string {
  const tasks = count === 1 ? '1 task is' : `${count} tasks are`;
  return `${tasks} marked with this rubric; delete it with force=true to delete their marks too (the tasks keep their grades and quality points).`;
}

export async function deleteRubric(em: Em, unitId: number, taskDefinitionId: number, force: boolean, actorId: number, now: Date): Promise<DeletedRubric> {
  await loadDefinitionTerms(em, unitId, taskDefinitionId);
  const k = db(em);
  // Locked, so a concurrent change of the rubric (a PUT, a level's points) waits for the delete.
  const rubric = (
    await sql<{ id: number; mapping: RubricMapping }>`select id, mapping from rubrics where task_definition_id = ${taskDefinitionId} for update`.execute(k)
  ).rows[0];
  if (!rubric) throw notFound(NO_RUBRIC);
  const marks = (
    await sql<MarkRow>`select m.task_id, m.score, p.user_id as student_id, t.grade, t.quality_pts,
         (select coalesce(sum(b.points), 0) from (select max(l.points) as points from rubric_criteria c join rubric_levels l on l.criterion_id = c.id
           where c.rubric_id = ${rubric.id} group by c.id) b) as max_score
       from rubric_marks m join tasks t on t.id = m.task_id join projects p on p.id = t.project_id
      where m.rubric_id = ${rubric.id} order by m.task_id`.execute(k)
  ).rows;
  if (marks.length > 0 && !force) throw badRequest(markedRefusal(marks.length));

  if (marks.length > 0) {
    // The marks first: a chosen level can not be deleted (rubric_mark_choices.level_id is `restrict`).
    await k.deleteFrom('rubric_marks').where('rubric_id', '=', rubric.id).execute();
    const comments: NewComment[] = marks.map((m) => ({
      taskId: m.task_id,
      authorId: actorId,
      recipientId: m.student_id,
      kind: 'text',
      comment: historyText(rubric.mapping, m),
    }));
    await insertComments(em, comments, now);
  }
  // Criteria and levels go with it (on delete cascade).
  await k.deleteFrom('rubrics').where('id', '=', rubric.id).execute();
  return { marks_deleted: marks.length };
}

function historyText(mapping: RubricMapping, task: MarkRow): string {
  const kept =
    mapping === 'grade' && task.grade !== null
      ? describeResult({ grade: task.grade })
      : mapping === 'quality_pts'
        ? describeResult({ qualityPts: task.quality_pts })
        : '';
  const parts = [`Rubric removed: the task's rubric mark (${Number(task.score)} of ${Number(task.max_score)}) was deleted with the rubric.`];
  if (kept !== '') parts.push(`The task keeps ${kept}.`);
  return parts.join(' ');
}
