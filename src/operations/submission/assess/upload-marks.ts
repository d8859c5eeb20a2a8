// POST /api/submission/assess: the marking package back, applied as one batch of marking.
import { join } from 'node:path';
import type { Config } from '../../../config.ts';
import type { Em } from '../../../db/orm.ts';
import type { JobQueue } from '../../../db/jobs.ts';
import { queueFeedbackMails } from '../../mail/queue-task-mails.ts';
import type { UnitRoleName } from '../../../policy/index.ts';
import type { Storage } from '../../../storage/index.ts';
import { applyMarks } from './apply-marks.ts';
import { markerFor } from './marker-for.ts';
import type { AssessUploadOut } from './marks-report.ts';

export const UPLOAD_REFUSED = 'Not authorised to batch upload marks';

export interface MarkingServices {
  storage: Storage;
  jobs: JobQueue;
  config: Pick<Config, 'dataDir' | 'maxUploadBytes'>;
  now: Date;
}

/** Applies the package at `path` for the caller (or `tutorUserId`); the students whose work got feedback are e-mailed. */
export async function uploadMarks(
  em: Em,
  services: MarkingServices,
  unitId: number,
  caller: { id: number; unitRole: UnitRoleName | null },
  tutorUserId: number | undefined,
  path: string,
): Promise<AssessUploadOut> {
  await markerFor(em, unitId, caller, tutorUserId, UPLOAD_REFUSED);
  // As in the original, batch marking is the one kind of marking that e-mails students.
  const feedback = new Set<number>();
  const result = await applyMarks(
    {
      em,
      storage: services.storage,
      unitId,
      markerId: caller.id,
      now: services.now,
      workDir: join(services.config.dataDir, 'incoming'),
      maxEntryBytes: services.config.maxUploadBytes,
      feedback,
    },
    path,
  );
  await queueFeedbackMails(em, services.jobs, { taskIds: feedback, markerId: caller.id });
  return result;
}
