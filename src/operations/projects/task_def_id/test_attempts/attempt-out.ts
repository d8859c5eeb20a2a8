// A test attempt as every attempt route answers it: the original's TestAttemptEntity (id, task_id,
// attempted_time, terminated, success_status, score_scaled, completion_status, and cmi_datamodel
// as a JSON string), and the row it is made from, read without the ORM (lists of attempts).
import { z } from 'zod';
import { db, isoTimestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { DataModel } from '../../../../domain/scorm-datamodel.ts';

export const testAttemptOut = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  attempted_time: z.string().describe('When the attempt started (ISO 8601)'),
  terminated: z.boolean().describe('The attempt has ended; its data no longer change, except by a staff override of its result'),
  success_status: z.boolean().describe("The attempt counts as passed (the definition's scorm_trust says whose word that is)"),
  score_scaled: z.number().nullable().describe('cmi.score.scaled as the package reported it, -1 to 1'),
  completion_status: z.boolean().describe('cmi.completion_status is "completed"'),
  cmi_datamodel: z.string().describe('The SCORM 2004 run-time data model: a JSON object of element names and values, as a string'),
});
export type TestAttemptOut = z.infer<typeof testAttemptOut>;

export interface AttemptRow {
  id: number;
  task_id: number;
  attempted_time: string;
  terminated: boolean;
  terminated_at: string | null;
  completion_status: boolean;
  success_status: boolean;
  score_scaled: number | null;
  cmi_datamodel: DataModel;
  success_overridden_at: string | null;
}

export const ATTEMPT_COLUMNS = [
  'id',
  'task_id',
  'attempted_time',
  'terminated',
  'terminated_at',
  'completion_status',
  'success_status',
  'score_scaled',
  'cmi_datamodel',
  'success_overridden_at',
] as const;

/** A data model as the jsonb column takes it through the query builder (its text; the driver would send an object the same way). */
export const jsonb = (model: DataModel): DataModel => JSON.stringify(model) as unknown as DataModel;

/** The attempt as it is answered; `model` replaces the stored data model (a review's copy in review mode). */
export function attemptOut(row: AttemptRow, model: DataModel = row.cmi_datamodel): TestAttemptOut {
  return {
    id: row.id,
    task_id: row.task_id,
    attempted_time: isoTimestamp(row.attempted_time),
    terminated: row.terminated,
    success_status: row.success_status,
    score_scaled: row.score_scaled === null ? null : Number(row.score_scaled),
    completion_status: row.completion_status,
    cmi_datamodel: JSON.stringify(model),
  };
}

/** The task's attempts, newest first (the original's order, by id); one query. */
export async function attemptsOfTask(em: Em, taskId: number, options: { completedOnly?: boolean; limit?: number } = {}): Promise<AttemptRow[]> {
  let query = db(em).selectFrom('test_attempts').select(ATTEMPT_COLUMNS).where('task_id', '=', taskId);
  if (options.completedOnly) query = query.where('completion_status', '=', true);
  if (options.limit !== undefined) query = query.limit(options.limit);
  return (await query.orderBy('id', 'desc').execute()) as unknown as AttemptRow[];
}

/** One attempt, locked for the rest of the transaction when asked (a commit, an override, a deletion). */
export async function findAttempt(em: Em, id: number, lock: boolean): Promise<AttemptRow | undefined> {
  let query = db(em).selectFrom('test_attempts').select(ATTEMPT_COLUMNS).where('id', '=', id);
  if (lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) as unknown as AttemptRow | undefined;
}
