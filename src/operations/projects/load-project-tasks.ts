// A student's tasks as the project page and the answers of task changes show them (reference
// §3.3 "tasks", spec §2 "Task (after update)"): one query for any number of tasks.
import { z } from 'zod';
import { timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { similarityFlag, tasksWithUnit, unreadComments } from '../../db/task-list.ts';
import { dueDay } from '../../domain/task-rules.ts';
import { unmetPrerequisiteOut } from '../units/task_definitions/prerequisites/prerequisite-out.ts';
import { unmetPrerequisitesJson } from '../units/task_definitions/prerequisites/unmet-prerequisites.ts';

/** A task as the project page lists it (and as the task after an update starts). */
export const projectTaskOut = z.object({
  id: z.number().int(),
  task_definition_id: z.number().int(),
  status: z.string(),
  due_date: z.string(),
  submission_date: z.string().optional(),
  completion_date: z.string().optional(),
  extensions: z.number().int(),
  /** Granted blocks of extra online-test attempts (docs/online-tests.md). */
  scorm_extensions: z.number().int(),
  times_assessed: z.number().int(),
  grade: z.number().int().optional(),
  quality_pts: z.number().int().describe('-1 until rated'),
  include_in_portfolio: z.boolean(),
  similarity_flag: z.boolean(),
  num_new_comments: z.number().int(),
  /** docs/prerequisites.md: the student may not upload or hand in while `locked`. */
  locked: z.boolean().describe('Some prerequisite of the task is unmet (docs/prerequisites.md)'),
  prerequisites_unmet: z.array(unmetPrerequisiteOut),
});
export type ProjectTaskOut = z.infer<typeof projectTaskOut>;

export interface ProjectTaskRow extends ProjectTaskOut {
  project_id: number;
  group_submission_id: number | null;
  /** The project's stored progress stats. */
  task_stats: unknown;
}

/**
 * The tasks of one project, or the tasks with these ids, as `viewerId` sees them (unread
 * comments are theirs; similarity flags only when `seesSimilarity`). Empty dates, grades and
 * quality points are left out, as the original does.
 */
export async function loadProjectTasks(
  em: Em,
  which: { projectId: number } | { taskIds: number[] },
  viewer: { userId: number; seesSimilarity: boolean },
): Promise<ProjectTaskRow[]> {
  if ('taskIds' in which && which.taskIds.length === 0) return [];
  const rows = await tasksWithUnit(em)
    .select([
      't.id',
      't.project_id',
      't.task_definition_id',
      't.group_submission_id',
      't.status',
      't.extensions',
      't.scorm_extensions',
      't.submission_date',
      't.completion_date',
      't.times_assessed',
      't.grade',
      't.quality_pts',
      't.include_in_portfolio',
      'd.target_date',
      'd.due_date',
      'u.end_date',
      'p.task_stats',
    ])
    .select(similarityFlag.as('flagged'))
    .select(unreadComments(viewer.userId).as('num_new_comments'))
    .select(unmetPrerequisitesJson.as('prerequisites_unmet'))
    .$call((q) => ('projectId' in which ? q.where('t.project_id', '=', which.projectId) : q.where('t.id', 'in', which.taskIds)))
    .orderBy('t.task_definition_id')
    .orderBy('t.id')
    .execute();
  return rows.map((t) => {
    const out: ProjectTaskRow = {
      id: t.id,
      project_id: t.project_id,
      group_submission_id: t.group_submission_id,
      task_stats: t.task_stats,
      task_definition_id: t.task_definition_id,
      status: t.status,
      due_date: dueDay({ targetDate: String(t.target_date).slice(0, 10), deadline: String(t.due_date ?? t.end_date).slice(0, 10) }, t.extensions),
      extensions: t.extensions,
      scorm_extensions: t.scorm_extensions,
      times_assessed: t.times_assessed,
      include_in_portfolio: t.include_in_portfolio,
      similarity_flag: viewer.seesSimilarity && Boolean(t.flagged),
      quality_pts: t.quality_pts,
      num_new_comments: t.num_new_comments,
      locked: t.prerequisites_unmet.length > 0,
      prerequisites_unmet: t.prerequisites_unmet,
    };
    if (t.submission_date !== null) out.submission_date = timestamp(t.submission_date).toISOString();
    if (t.completion_date !== null) out.completion_date = String(t.completion_date).slice(0, 10);
    if (t.grade !== null) out.grade = t.grade;
    return out;
  });
}

/** The stored stats as the JSON string the update answers carry (`new_stats`). */
export const statsText = (stats: unknown): string => (typeof stats === 'string' ? stats : JSON.stringify(stats));
