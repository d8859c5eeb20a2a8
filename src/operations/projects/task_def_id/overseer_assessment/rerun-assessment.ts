// PUT .../overseer_assessment/{oa_id}/trigger (behaviour.md §6 "Re-run"): runs an existing assessment of the task again.
import type { Config } from '../../../../config.ts';
import { assessmentSetup, queueRun } from '../../../assessment/queue.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { JobQueue } from '../../../../db/jobs.ts';
import type { Storage } from '../../../../storage/index.ts';
import { forbidden, notFound } from '../../../../lib/errors.ts';
import { sharingTaskIds } from '../submission/submission-files.ts';

const INT32_MAX = 2_147_483_647;

const ALREADY_QUEUED = 'Your task is already queued for processing. Please wait until you receive a response before you resubmit.';

export interface RerunServices {
  storage: Storage;
  config: Pick<Config, 'overseerEnabled'>;
  jobs: JobQueue;
  now: Date;
}

/** Queues assessment `assessmentId` of the task (or its group's) again, unless assessment is off or it already waits. */
export async function rerunAssessment(
  em: Em,
  services: RerunServices,
  task: { taskId: number | null; definitionId: number },
  assessmentId: number,
): Promise<{ message: string }> {
  // An id beyond the column's range names no record (and must not reach the database as one).
  if (task.taskId === null || assessmentId > INT32_MAX) throw notFound('Unable to find requested automated assessment');
  const record = await db(em)
    .selectFrom('overseer_assessments')
    .select(['id', 'status'])
    .where('id', '=', assessmentId)
    .where('task_id', 'in', await sharingTaskIds(em, task.taskId))
    .forUpdate()
    .executeTakeFirst();
  if (!record) throw notFound('Unable to find requested automated assessment');
  const setup = await assessmentSetup(em, services.storage, services.config, task.definitionId);
  if ('off' in setup) throw forbidden(setup.off);
  if (record.status === 'queued' || record.status === 'pre_queued') throw forbidden(ALREADY_QUEUED);
  await queueRun(em, services.jobs, record.id, services.now);
  return { message: 'Automated assessment queued' };
}
