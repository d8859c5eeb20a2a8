// Where the rest of the service hands work to the similarity checks.
import { SubmissionFile, Task } from '../../schema/index.ts';
import type { Em } from '../db/orm.ts';
import type { JobQueue } from '../lib/jobs.ts';
import { isChecked } from './simcheck-submission.ts';

/**
 * Called by the submission-PDF job once a submission's PDF is written: when one of its files is a
 * document whose upload requirement asks for a check (`tii_check`), queue its sending to the
 * similarity service (once per submission). Enqueue inside the PDF job's transaction, so the two
 * commit together. The job itself does nothing while checks are off.
 */
export async function afterSubmissionPdf(em: Em, jobs: JobQueue, ids: { taskId: number; submissionId: number }): Promise<boolean> {
  const task = await em.findOne(Task, { id: ids.taskId }, { populate: ['taskDefinition'] });
  if (!task) return false;
  const requirements = task.taskDefinition.uploadRequirements ?? [];
  const files = await em.find(SubmissionFile, { submission: ids.submissionId }, { fields: ['idx'] });
  if (!files.some((f) => isChecked(requirements[f.idx]))) return false;
  await jobs.add('simcheck_submit', ids, { jobKey: `simcheck_submit:${ids.submissionId}` });
  return true;
}
