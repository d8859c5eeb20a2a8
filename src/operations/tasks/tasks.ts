// Task rows: created on first touch, loaded (and locked) with what the rules need.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../schema/enums.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { TaskState, TaskTerms } from '../../domain/task-rules.ts';

/**
 * The ids of these (project, definition) tasks, creating the missing ones: two statements,
 * whatever their number. A task exists once anyone touches it, as in the original.
 */
export async function ensureTasks(em: Em, pairs: { projectId: number; taskDefinitionId: number }[], now: Date): Promise<number[]> {
  if (pairs.length === 0) return [];
  const k = db(em);
  const at = now.toISOString();
  await k
    .insertInto('tasks')
    .values(pairs.map((p) => ({ project_id: p.projectId, task_definition_id: p.taskDefinitionId, created_at: at, updated_at: at })))
    .onConflict((oc) => oc.columns(['project_id', 'task_definition_id']).doNothing())
    .execute();
  const values = sql.join(pairs.map((p) => sql`(${p.projectId}::int, ${p.taskDefinitionId}::int)`));
  const rows = await sql<{ id: number; project_id: number; task_definition_id: number }>`
    select t.id, t.project_id, t.task_definition_id from tasks t
    join (values ${values}) as v(p, d) on t.project_id = v.p and t.task_definition_id = v.d`.execute(k);
  const byPair = new Map(rows.rows.map((r) => [`${r.project_id}/${r.task_definition_id}`, r.id]));
  return pairs.map((p) => byPair.get(`${p.projectId}/${p.taskDefinitionId}`)!);
}

export async function ensureTask(em: Em, projectId: number, taskDefinitionId: number, now: Date): Promise<number> {
  const [id] = await ensureTasks(em, [{ projectId, taskDefinitionId }], now);
  return id;
}

/** A task with its definition's and unit's terms, as the workflow reads it. */
export interface LoadedTask {
  id: number;
  projectId: number;
  studentId: number;
  unitId: number;
  taskDefinitionId: number;
  groupSetId: number | null;
  groupSubmissionId: number | null;
  /** The unit's `require_feedback_comment` (policy missingFeedbackRefusal). */
  requireFeedbackComment: boolean;
  /** The definition's `requires_discussion` and the task's last entry into discuss (policy requiredDiscussionRefusal). */
  discussion: { requiresDiscussion: boolean; movedToDiscussAt: Date | null };
  state: TaskState;
  terms: TaskTerms;
}

/** Loads tasks in id order, locking them for the rest of the transaction when `lock` is set. */
export async function loadTasks(em: Em, ids: number[], lock: boolean): Promise<LoadedTask[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{
    id: number;
    project_id: number;
    user_id: number;
    unit_id: number;
    task_definition_id: number;
    group_set_id: number | null;
    group_submission_id: number | null;
    status: TaskStatus;
    extensions: number;
    times_assessed: number;
    grade: number | null;
    quality_pts: number;
    submission_date: string | null;
    assessment_date: string | null;
    completion_date: string | null;
    target_date: string;
    deadline: string;
    is_graded: boolean;
    max_quality_pts: number;
    restrict_status_updates: boolean;
    extension_weeks_on_resubmit_request: number;
    require_feedback_comment: boolean;
    requires_discussion: boolean;
    moved_to_discuss_at: string | null;
  }>`
    select t.id, t.project_id, p.user_id, p.unit_id, t.task_definition_id, d.group_set_id, t.group_submission_id,
           t.status, t.extensions, t.times_assessed, t.grade, t.quality_pts,
           t.submission_date, t.assessment_date, t.completion_date,
           d.target_date, coalesce(d.due_date, u.end_date) as deadline, d.is_graded, d.max_quality_pts,
           d.restrict_status_updates, u.extension_weeks_on_resubmit_request, u.require_feedback_comment,
           d.requires_discussion, t.moved_to_discuss_at
    from tasks t
    join projects p on p.id = t.project_id
    join units u on u.id = p.unit_id
    join task_definitions d on d.id = t.task_definition_id
    where t.id in (${sql.join(ids)})
    order by t.id
    ${lock ? sql`for update of t` : sql``}`.execute(db(em));
  return rows.rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    studentId: r.user_id,
    unitId: r.unit_id,
    taskDefinitionId: r.task_definition_id,
    groupSetId: r.group_set_id,
    groupSubmissionId: r.group_submission_id,
    requireFeedbackComment: r.require_feedback_comment,
    discussion: {
      requiresDiscussion: r.requires_discussion,
      movedToDiscussAt: timestamp(r.moved_to_discuss_at),
    },
    state: {
      status: r.status,
      extensions: r.extensions,
      timesAssessed: r.times_assessed,
      grade: r.grade,
      qualityPts: r.quality_pts,
      submissionDate: timestamp(r.submission_date),
      assessmentDate: timestamp(r.assessment_date),
      completionDate: r.completion_date === null ? null : String(r.completion_date).slice(0, 10),
    },
    terms: {
      targetDate: String(r.target_date).slice(0, 10),
      deadline: String(r.deadline).slice(0, 10),
      isGraded: r.is_graded,
      maxQualityPts: r.max_quality_pts,
      restrictStatusUpdates: r.restrict_status_updates,
      extensionWeeksOnResubmit: r.extension_weeks_on_resubmit_request,
    },
  }));
}
