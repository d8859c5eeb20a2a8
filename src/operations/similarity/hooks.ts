// Where the rest of the service hands work to the similarity checks.
import { SubmissionFile, Task } from '../../../schema/index.ts';
import type { Em } from '../../db/orm.ts';
import type { JobQueue } from '../../db/jobs.ts';
import type { Config } from '../../config.ts';
import type { Storage } from '../../storage/index.ts';
import { createAction } from './simcheck-actions.ts';
import { syncGroupAttachments } from './simcheck-attachments.ts';
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

/**
 * Called after a definition's task resources are replaced: while checks are on, each new or
 * changed Word document of the zip becomes a group attachment and its upload is queued, in the
 * caller's transaction. Returns how many were queued.
 */
export async function afterTaskResources(
  em: Em,
  jobs: JobQueue,
  services: { storage: Storage; config: Pick<Config, 'simcheckEnabled'> },
  definition: { id: number; abbreviation: string; unitId: number },
): Promise<number> {
  if (!services.config.simcheckEnabled) return 0;
  const created = await syncGroupAttachments(em, services.storage, definition.id);
  for (const attachmentId of created) {
    const action = await createAction(em, {
      action: 'upload_task_resources',
      unit: definition.unitId,
      description: `Upload assessment resources (attachment ${attachmentId}) for ${definition.abbreviation}`,
      params: { attachmentId },
    });
    await jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
  }
  return created.length;
}
