import { route } from '../../trpc/route.ts';
import { z } from 'zod';
import { authedProcedure } from '../../trpc/core.ts';
import { listProjects as list } from '../../operations/projects/list-projects.ts';
import { listProjectsInput, projectListedOut } from './schemas.ts';

export const listProjects = authedProcedure
  .meta(
    route('GET', '/api/projects', 'Projects', "The caller's own enrolments", {
      description:
        'Projects the caller is enrolled in (withdrawn ones are left out), newest unit first. Projects in inactive ' +
        'units are left out unless `include_inactive=true`.',
    }),
  )
  .input(listProjectsInput)
  .output(z.array(projectListedOut))
  .query(({ ctx, input }) => list(ctx.em, ctx.user, input.include_inactive === true));
