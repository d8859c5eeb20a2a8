import { retryJob as retry } from '../../../operations/admin/jobs/retry-job.ts';
import { route } from '../../../trpc/route.ts';
import { systemMutation } from '../../../trpc/scopes/index.ts';
import { jobIdInput, jobOut } from './schemas.ts';

export const retryJob = systemMutation(jobIdInput, { action: 'admin_jobs', refused: 'Not authorised to retry a background job' })
  .meta(
    route('PUT', '/api/admin/jobs/{id}/retry', 'Background jobs', 'Run a failed, stuck or waiting job again now, with all its attempts (Admin)', {
      description: 'A job a live worker is running is refused (400). See docs/operating/admin-jobs.md.',
    }),
  )
  .output(jobOut)
  .mutation(({ ctx, input }) => retry(ctx.em, ctx.config, input.id));
