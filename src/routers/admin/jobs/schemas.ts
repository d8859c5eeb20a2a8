import { z } from 'zod';
import { formInt, idField, preprocess } from '../../../trpc/fields.ts';
import { JOB_STATES } from '../../../operations/admin/jobs/job-rows.ts';

// The output shape is written beside the operations that produce it.
export { jobOut } from '../../../operations/admin/jobs/job-rows.ts';

// `state=failed`, `state=failed,stuck` or `state[]=failed&state[]=stuck`; none: failed and stuck.
const stateList = preprocess((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : v), z.array(z.enum(JOB_STATES)).min(1));

export const listJobsInput = z.object({
  state: stateList.optional(),
  limit: formInt().pipe(z.number().int().min(1).max(1000)).default(100),
});

export const jobIdInput = z.object({ id: idField() });
