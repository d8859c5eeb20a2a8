// The data behind class_stats and class_details: three reads whatever the unit's size.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { classDetails, classStats, type AlignedWork } from '../../../domain/alignment-progress.ts';
import { taskTutorialJoin } from '../../../db/task-list.ts';

export interface ProgressData {
  outcomeIds: number[];
  tutorialIds: number[];
  work: AlignedWork[];
}

/**
 * The unit's outcomes and tutorials, and the aligned work of its enrolled students: their tasks
 * of definitions with a unit-level alignment, grouped by student, tutorial (the one of the
 * definition's stream, as the unit stats place a task), outcome, status and target grade, with
 * the alignments' ratings summed. Weighing is the domain's.
 */
export async function progressData(em: Em, unitId: number): Promise<ProgressData> {
  const q = db(em);
  const [outcomes, tutorials, work] = await Promise.all([
    q.selectFrom('learning_outcomes').select('id').where('unit_id', '=', unitId).orderBy('ilo_number').orderBy('id').execute(),
    q.selectFrom('tutorials').select('id').where('unit_id', '=', unitId).orderBy('id').execute(),
    // taskTutorialJoin reads the project as p and the definition as d.
    sql<{ tutorial_id: number | null; project_id: number; outcome_id: number; status: TaskStatus; target_grade: number; rating_sum: number }>`
      select tf.tutorial_id, p.id as project_id, a.learning_outcome_id as outcome_id, k.status, d.target_grade,
             sum(a.rating)::int as rating_sum
      from tasks k
      join projects p on p.id = k.project_id and p.enrolled and p.unit_id = ${unitId}
      join task_definitions d on d.id = k.task_definition_id
      join learning_alignments a on a.task_definition_id = d.id and a.task_id is null
      ${taskTutorialJoin('tf')}
      group by 1, 2, 3, 4, 5`.execute(q),
  ]);
  return {
    outcomeIds: outcomes.map((o) => o.id),
    tutorialIds: tutorials.map((t) => t.id),
    work: work.rows.map((r) => ({
      tutorialId: r.tutorial_id,
      projectId: r.project_id,
      outcomeId: r.outcome_id,
      status: r.status,
      targetGrade: r.target_grade,
      ratingSum: r.rating_sum,
    })),
  };
}

/** The class's progress on each of the unit's outcomes (class_stats). */
export async function unitClassStats(em: Em, unitId: number) {
  const data = await progressData(em, unitId);
  return classStats(data.outcomeIds, data.work);
}

/** Each tutorial's progress on each of the unit's outcomes, and `all` (class_details). */
export async function unitClassDetails(em: Em, unitId: number) {
  const data = await progressData(em, unitId);
  return classDetails(data.outcomeIds, data.tutorialIds, data.work);
}
