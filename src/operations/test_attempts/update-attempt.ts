// PATCH /api/test_attempts/{id}: staff override the result (`success_status`), the student commits
// and ends the attempt (`cmi_datamodel`, `terminated`). The scope has let the caller in for the
// fields sent; which work they ask for is decided here.
import type { Em } from '../../db/orm.ts';
import type { ProjectRole } from '../../policy/index.ts';
import { badRequest } from '../../lib/errors.ts';
import type { TestAttemptOut } from '../projects/task_def_id/test_attempts/attempt-out.ts';
import { commitAttempt } from './commit-attempt.ts';
import { overrideResult } from './override-result.ts';

export interface AttemptFields {
  cmi_datamodel?: string;
  terminated?: boolean;
  success_status?: boolean;
  comment?: string;
}

/** Does this PATCH override the result (staff) rather than commit (the student)? */
export const overrides = (fields: AttemptFields): boolean => fields.success_status !== undefined;

export async function updateAttempt(
  em: Em,
  attemptId: number,
  by: { userId: number; role: ProjectRole },
  fields: AttemptFields,
  now: Date,
): Promise<TestAttemptOut> {
  if (overrides(fields)) {
    if (fields.cmi_datamodel !== undefined || fields.terminated !== undefined) {
      throw badRequest("Send success_status alone: staff override an attempt's result, and its data model is the student's.");
    }
    return overrideResult(em, attemptId, by, { success_status: fields.success_status!, comment: fields.comment }, now);
  }
  if (fields.comment !== undefined) throw badRequest('comment goes with success_status: it is the feedback of a staff override that moves the task.');
  return commitAttempt(em, attemptId, by, fields, now);
}
