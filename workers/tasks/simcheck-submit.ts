import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { SimcheckAction, SimcheckSubmission, SubmissionFile, Task as TaskEntity } from '../../schema/index.ts';
import { actionRun, createAction } from '../../src/operations/similarity/simcheck-actions.ts';
import { runAction } from '../../src/operations/similarity/simcheck.ts';
import { isChecked } from '../../src/operations/similarity/simcheck-submission.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ taskId: z.number().int().positive(), submissionId: z.number().int().positive() });

/**
 * Sends each document of a converted submission whose upload requirement asks for a check to the
 * similarity service: one simcheck submission and one upload action per document, then its first
 * steps at once (the webhook and the poll cron do the rest). Idempotent: a document already
 * recorded for this submission is not sent again, only moved on.
 */
export function simcheckSubmit(services: WorkerServices): Task {
  return async (rawPayload) => {
    const { taskId, submissionId } = payloadSchema.parse(rawPayload);
    const em = services.orm.em.fork();
    const run = actionRun(em, services);
    if (!run) return;
    const task = await em.findOne(TaskEntity, { id: taskId }, { populate: ['taskDefinition', 'project'] });
    if (!task) return;
    const requirements = task.taskDefinition.uploadRequirements ?? [];
    const unitId = (task.project.unit as unknown as { id: number }).id;
    const files = await em.find(SubmissionFile, { submission: submissionId }, { orderBy: { idx: 'asc' } });
    for (const file of files) {
      if (!isChecked(requirements[file.idx])) continue;
      let [action] = await em.find(SimcheckAction, { action: 'upload_submission', params: { taskSubmissionId: submissionId, idx: file.idx } });
      if (!action) {
        const doc = em.create(SimcheckSubmission, { task: taskId, idx: file.idx, filename: file.originalFilename, status: 'created' } as never) as unknown as {
          id: number;
        };
        await em.flush();
        action = await createAction(em, {
          action: 'upload_submission',
          unit: unitId,
          description: `Upload ${file.originalFilename} for ${task.taskDefinition.abbreviation} (task ${taskId})`,
          params: { submissionId: doc.id, taskSubmissionId: submissionId, idx: file.idx, storagePath: file.storagePath },
        });
      }
      if (!action.complete && !action.errorCode) await runAction(run, action);
    }
  };
}
