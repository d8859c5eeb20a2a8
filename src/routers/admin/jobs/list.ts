import { z } from 'zod';
import { listJobs as list } from '../../../operations/admin/jobs/list-jobs.ts';
import { route } from '../../../trpc/route.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';
import { jobOut, listJobsInput } from './schemas.ts';

export const listJobs = systemQuery(listJobsInput, { action: 'admin_jobs', refused: 'Not authorised to see background jobs' })
  .meta(
    route('GET', '/api/admin/jobs', 'Background jobs', 'Background jobs failed for good or held by a dead worker, newest first (Admin)', {
      description:
        '`state` (failed, stuck, running, waiting; several comma-separated) chooses others; `limit` caps the list (default 100). See docs/operating/admin-jobs.md.',
    }),
  )
  .output(z.array(jobOut))
  .query(({ ctx, input }) => list(ctx.em, ctx.config, { states: input.state, limit: input.limit }));
