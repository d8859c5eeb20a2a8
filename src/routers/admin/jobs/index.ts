import { router } from '../../../trpc/core.ts';
import { listJobs } from './list.ts';
import { retryJob } from './retry.ts';

export const jobsRouter = router({
  list: listJobs,
  retry: retryJob,
});
