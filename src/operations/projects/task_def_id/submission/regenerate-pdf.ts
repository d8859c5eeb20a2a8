// PUT .../submission (beyond-spec.md §4.3): build the PDF of the latest upload again.
import { z } from 'zod';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { JobQueue } from '../../../../db/jobs.ts';
import { filesEntries, sharingTaskIds } from './submission-files.ts';

export const regenerateOut = z.object({ result: z.enum(['done', 'false']) });
export type RegenerateOut = z.infer<typeof regenerateOut>;

/** Queues the latest upload (the group's, for group work) for PDF assembly again; `false` when nothing was uploaded. */
export async function regenerateSubmissionPdf(em: Em, jobs: JobQueue, taskId: number | null): Promise<RegenerateOut> {
  if (taskId === null) return { result: 'false' };
  const [entry] = await filesEntries(em, await sharingTaskIds(em, taskId), 1);
  if (!entry) return { result: 'false' };
  await db(em).updateTable('task_submissions').set({ processing: true }).where('id', '=', entry.id).execute();
  await jobs.add('accept_submission', { taskId: entry.taskId, submissionId: entry.id }, { jobKey: `accept_submission:${entry.id}` });
  return { result: 'done' };
}
