// A person's change of one task (trigger word, grade, quality points, portfolio inclusion), checked
// and applied the same way wherever it comes from: PUT .../task_def_id/{td} and each row of batch
// marking. The checks here are the request's own (words, grades, what a definition demands); the
// status rules themselves are changeTask's.
import type { Em } from '../../../db/orm.ts';
import { commentLengthError } from '../../../domain/comment-attachments.ts';
import { gradeRequired, parseGrade, qualityPtsError } from '../../../domain/task-rules.ts';
import { PASSING, statusForTrigger } from '../../../domain/task-status.ts';
import { badRequest, forbidden } from '../../../lib/errors.ts';
import { changeTask, type ChangeRequest, type ChangeResult } from '../../tasks/change-task.ts';
import { ensureTask } from '../../tasks/tasks.ts';
import { loadUpdatedTask, type UpdatedTaskOut } from './load-updated-task.ts';
import { canInTask, type ProjectRole } from '../../../policy/index.ts';

export interface TaskChangeFields {
  trigger?: string;
  grade?: number | string;
  quality_pts?: number;
  include_in_portfolio?: boolean;
  /** Feedback posted with the change (required for some statuses where the unit says so). */
  comment?: string;
}

/** What of the definition the checks read. */
export interface ChangeTerms {
  uploadRequirements: readonly unknown[];
  isGraded: boolean;
  maxQualityPts: number;
  restrictStatusUpdates: boolean;
}

/**
 * The change request for these fields, or a 400/403 naming what is wrong: an unknown trigger word,
 * ready for feedback on a definition that needs uploads, a graded assessment without a grade, quality
 * points out of range, a grade on an ungraded definition or from a student.
 */
export function taskChangeRequest(
  definition: ChangeTerms,
  fields: TaskChangeFields,
  actor: { userId: number; role: ProjectRole },
  taskId: number,
): ChangeRequest {
  const staff = canInTask(actor.role, 'assess');
  const request: ChangeRequest = { actor, includeInPortfolio: fields.include_in_portfolio, comment: fields.comment };
  if (fields.comment !== undefined) {
    const error = commentLengthError(fields.comment);
    if (error) throw badRequest(error);
  }
  if (fields.trigger !== undefined) {
    const target = statusForTrigger(fields.trigger);
    if (!target) throw badRequest(`Unknown trigger '${fields.trigger}'.`);
    if (target === 'ready_for_feedback' && definition.uploadRequirements.length > 0) {
      throw forbidden('Cannot set this task status to ready to mark without uploading documents.');
    }
    if (staff && gradeRequired(target, definition) && fields.grade === undefined) {
      throw forbidden(`No grade was supplied for a graded task (task id ${taskId})`);
    }
    if (staff && fields.quality_pts !== undefined && definition.maxQualityPts > 0 && PASSING.has(target)) {
      const error = qualityPtsError(fields.quality_pts, definition.maxQualityPts);
      if (error) throw badRequest(error);
    }
    request.change = { kind: 'trigger', target, qualityPts: fields.quality_pts };
  }
  if (fields.grade !== undefined) {
    if (!definition.isGraded) throw forbidden(`Grade was supplied for a non-graded task (task id ${taskId})`);
    // The original let a student grade their own task; only staff may.
    if (!staff) throw forbidden('Only staff can grade a task.');
    const grade = parseGrade(fields.grade);
    if (!grade.ok) throw forbidden(grade.error);
    request.grade = grade.grade;
  }
  return request;
}

/**
 * Applies the request through changeTask. A status change the rules refuse is silent, as in the
 * original (the other fields still apply), except on a restricted definition (403).
 */
export async function applyTaskChange(em: Em, taskId: number, request: ChangeRequest, definition: ChangeTerms, now: Date): Promise<ChangeResult> {
  const result = await changeTask(em, taskId, request, now);
  if (result.applied) return result;
  if (definition.restrictStatusUpdates) throw forbidden('This task can only be updated by your tutor.');
  return changeTask(em, taskId, { ...request, change: undefined }, now);
}

/** PUT .../task_def_id/{task_definition_id}: the change the caller asks for, applied; answers the task after it. */
export async function updateTask(
  em: Em,
  on: { taskId: number | null; projectId: number; definition: ChangeTerms & { id: number } },
  by: { userId: number; role: ProjectRole; seesSimilarity: boolean },
  fields: TaskChangeFields,
  now: Date,
): Promise<UpdatedTaskOut> {
  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definition.id, now));
  const request = taskChangeRequest(on.definition, fields, { userId: by.userId, role: by.role }, taskId);
  const result = await applyTaskChange(em, taskId, request, on.definition, now);
  return loadUpdatedTask(em, taskId, by.userId, result.taskIds, by.seesSimilarity);
}
