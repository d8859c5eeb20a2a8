// GET .../submission_details: whether the task's PDF is there or on its way.
import { z } from 'zod';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { Storage } from '../../../../storage/index.ts';
import { submissionState } from '../submission/submission-files.ts';

export const submissionDetailsOut = z.object({
  has_pdf: z.boolean().describe('The submission PDF exists and no newer upload waits to be processed'),
  submission_date: z.string().optional().describe('ISO 8601; absent before any submission'),
  processing_pdf: z.boolean().describe('Uploaded files wait for their PDF to be assembled'),
});
export type SubmissionDetailsOut = z.infer<typeof submissionDetailsOut>;

/** The task's submission date, and whether its PDF is stored or being built (nothing for a definition without uploads). */
export async function submissionDetails(em: Em, storage: Storage, taskId: number | null, takesUploads: boolean): Promise<SubmissionDetailsOut> {
  if (taskId === null || !takesUploads) return { has_pdf: false, processing_pdf: false };
  const state = await submissionState(em, storage, taskId);
  const task = await db(em).selectFrom('tasks').select('submission_date').where('id', '=', taskId).executeTakeFirstOrThrow();
  const out: SubmissionDetailsOut = { has_pdf: state.pdfKey !== null, processing_pdf: state.processing };
  if (task.submission_date !== null) out.submission_date = timestamp(task.submission_date).toISOString();
  return out;
}
