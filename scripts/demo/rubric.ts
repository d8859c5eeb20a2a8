// The demo seed's rubric (issue 18 §2): a four-criterion rubric on a graded definition, mapped to
// grades, and marks for the first students' tasks, so a newcomer sees marks, the CSV and a re-score.
import { db } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { markTask } from '../../src/operations/projects/task_def_id/rubric_marks/mark-task.ts';
import { saveRubric } from '../../src/operations/units/task_definitions/rubric/save-rubric.ts';
import { ROLE } from '../../src/policy/index.ts';

const LEVELS = [
  { title: 'Not shown', description: 'Missing or off topic.', points: 0, position: 1 },
  { title: 'Developing', description: 'Present, with gaps a reader notices.', points: 2, position: 2 },
  { title: 'Proficient', description: 'Complete and correct.', points: 4, position: 3 },
  { title: 'Exemplary', description: 'Complete, correct and insightful.', points: 5, position: 4 },
];

const CRITERIA = ['Problem analysis', 'Design', 'Testing', 'Communication'];

/**
 * Creates the rubric on `taskDefinitionId` (a definition of `unitId`; mapped to its grade, quality points or nothing) and marks up to
 * `marks` of its tasks as `markerId` (a tutor or convenor of the unit), levels varying by student.
 * Call inside the seed's transaction; returns the rubric id and how many tasks were marked.
 */
export async function seedRubric(em: Em, unitId: number, taskDefinitionId: number, markerId: number, marks = 20, now = new Date()) {
  const kind = await db(em)
    .selectFrom('task_definitions')
    .select(['is_graded', 'max_quality_pts'])
    .where('id', '=', taskDefinitionId)
    .executeTakeFirstOrThrow();
  // The score sets what the definition records: its grade, else its quality points, else nothing.
  const mapping = kind.is_graded ? 'grade' : kind.max_quality_pts > 0 ? 'quality_pts' : 'none';
  const rubric = await saveRubric(
    em,
    unitId,
    taskDefinitionId,
    {
      mapping,
      thresholds: { pass: 0.5, credit: 0.65, distinction: 0.75, high_distinction: 0.85 },
      criteria: CRITERIA.map((title, i) => ({ title, description: `How well the work shows ${title.toLowerCase()}.`, position: i + 1, levels: LEVELS })),
    },
    markerId,
    now,
  );
  const definition = await db(em)
    .selectFrom('task_definitions')
    .select(['is_graded', 'max_quality_pts'])
    .where('id', '=', taskDefinitionId)
    .executeTakeFirstOrThrow();
  const tasks = await db(em)
    .selectFrom('tasks')
    .select(['id', 'project_id'])
    .where('task_definition_id', '=', taskDefinitionId)
    .orderBy('id')
    .limit(marks)
    .execute();
  for (const [n, task] of tasks.entries()) {
    const choices = rubric.criteria.map((c, i) => ({ criterion_id: c.id, level_id: c.levels[1 + ((n + i) % 3)].id }));
    await markTask(
      em,
      {
        taskId: task.id,
        projectId: task.project_id,
        definition: { id: taskDefinitionId, isGraded: definition.is_graded, maxQualityPts: definition.max_quality_pts },
      },
      { userId: markerId, role: ROLE.tutor },
      { choices },
      now,
    );
  }
  return { rubricId: rubric.id, marked: tasks.length };
}
