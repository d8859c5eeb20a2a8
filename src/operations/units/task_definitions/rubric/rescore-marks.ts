// Re-scoring every task marked against a rubric after its points or mapping changed, in the
// caller's one transaction and a fixed number of statements whatever the number of tasks.
//
// changeTask works on one task (it loads, locks and writes one task and its group). A grade or
// quality-points change without a status change does only this there: lock the task and its
// group's tasks, write the grade/quality points to them all, and queue the LMS grade passback; no
// status comment, no submission history, no progress stats (they depend on statuses only). This
// path does the same for all the marked tasks at once: one locking read in id order (the order
// changeTask locks in), one read of the new sums, one write of the marks, one write of the tasks
// (and their group submission's other members, as changeTask gives a grade to the group), the
// history comments through insertComments (two statements), and one passback statement.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { describeResult, type MappedResult, mapScore, type MappingTerms, roundScore } from '../../../../domain/rubric-scores.ts';
import { queueScorePassbacks } from '../../../lti/score-passback.ts';
import { insertComments, type NewComment } from '../../../tasks/comments.ts';
import type { RubricOut } from './load-rubric.ts';

export interface RescoreSummary {
  /** Marks whose score or mapped result changed (each recorded in its task's comments). */
  rescored: number;
  /** Tasks written: the marked ones and their group members. */
  tasks_updated: number;
}

interface MarkRow {
  task_id: number;
  score: number;
  new_score: number;
  grade: number | null;
  quality_pts: number;
  group_submission_id: number | null;
  student_id: number;
}

/**
 * Re-scores the rubric's marks from its current levels and maps each score again. `why` starts
 * the history comment ("Level 'Good' of 'Structure' now 4 points (was 3)").
 */
export async function rescoreMarks(em: Em, rubric: RubricOut, terms: MappingTerms, actorId: number, why: string, now: Date): Promise<RescoreSummary> {
  const k = db(em);
  // 1. Lock the marked tasks and their group members, by id as changeTask does, before reading them.
  await sql`select t.id from tasks t
     where t.id in (select m.task_id from rubric_marks m where m.rubric_id = ${rubric.id})
        or t.group_submission_id in (select mt.group_submission_id from rubric_marks m join tasks mt on mt.id = m.task_id where m.rubric_id = ${rubric.id})
     order by t.id for update of t`.execute(k);
  // 2. Each mark's new sum from its chosen levels, beside the task's grade and quality points now.
  const marks = (
    await sql<MarkRow>`select m.task_id, m.score, coalesce(sum(l.points), 0) as new_score, t.grade, t.quality_pts, t.group_submission_id, p.user_id as student_id
       from rubric_marks m
       join tasks t on t.id = m.task_id
       join projects p on p.id = t.project_id
       left join rubric_mark_choices c on c.mark_id = m.id
       left join rubric_levels l on l.id = c.level_id
      where m.rubric_id = ${rubric.id}
      group by m.id, t.id, p.user_id`.execute(k)
  ).rows;

  const changed: { mark: MarkRow; score: number; result: MappedResult }[] = [];
  for (const mark of marks) {
    const score = roundScore(Number(mark.new_score));
    const result = mapScore(score, rubric.max_score, rubric.mapping, rubric.thresholds, terms);
    const moved =
      score !== Number(mark.score) ||
      (result.grade !== undefined && result.grade !== mark.grade) ||
      (result.qualityPts !== undefined && result.qualityPts !== mark.quality_pts);
    if (moved) changed.push({ mark, score, result });
  }
  if (changed.length === 0) return { rescored: 0, tasks_updated: 0 };

  // 3. The marks' scores.
  const scores = sql.join(changed.map((c) => sql`(${c.mark.task_id}::int, ${c.score}::float8)`));
  await sql`update rubric_marks m set score = v.score, updated_at = ${now.toISOString()}
     from (values ${scores}) as v(task_id, score) where m.task_id = v.task_id`.execute(k);

  // 4. The tasks' grade or quality points, and their group members' (members with a mark of their own get their own).
  let updated: number[] = [];
  if (rubric.mapping !== 'none') {
    const values = sql.join(
      changed.map(
        (c) => sql`(${c.mark.task_id}::int, ${c.mark.group_submission_id}::int, ${c.result.grade ?? null}::int, ${c.result.qualityPts ?? null}::int)`,
      ),
    );
    const rows = await sql<{ id: number }>`update tasks t
         set grade = coalesce(v.grade, t.grade), quality_pts = coalesce(v.quality_pts, t.quality_pts), updated_at = ${now.toISOString()}
        from (values ${values}) as v(task_id, group_submission_id, grade, quality_pts)
       where t.id = v.task_id
          or (v.group_submission_id is not null and t.group_submission_id = v.group_submission_id
              and not exists (select 1 from rubric_marks own where own.task_id = t.id and own.rubric_id = ${rubric.id}))
       returning t.id`.execute(k);
    updated = rows.rows.map((r) => r.id);
  }

  // 5. The history: a comment on each re-scored task, through the one comment writer.
  const comments: NewComment[] = changed.map(({ mark, score, result }) => ({
    taskId: mark.task_id,
    authorId: actorId,
    recipientId: mark.student_id,
    kind: 'text',
    comment: historyText(why, Number(mark.score), score, rubric.max_score, result, mark),
  }));
  await insertComments(em, comments, now);

  // 6. The LMS gradebook hears of the new grades, as after changeTask.
  if (updated.length > 0) await queueScorePassbacks(em, { taskDefinitionId: rubric.task_definition_id, taskIds: updated }, now);
  return { rescored: changed.length, tasks_updated: updated.length };
}

function historyText(why: string, before: number, after: number, max: number, result: MappedResult, was: MarkRow): string {
  const parts = [`Rubric re-scored: ${why}.`, `Score ${before} → ${after} of ${max}.`];
  const previous = describeResult(
    result.grade !== undefined ? { grade: was.grade ?? undefined } : result.qualityPts !== undefined ? { qualityPts: was.quality_pts } : {},
  );
  const next = describeResult(result);
  if (next !== '') parts.push(previous !== '' && previous !== next ? `Now ${next} (was ${previous}).` : `Now ${next}.`);
  return parts.join(' ');
}
