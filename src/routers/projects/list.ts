import { z } from 'zod';
import { Project } from '../../../schema/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { listProjectsInput, projectListedOut, toProjectListed } from './schemas.ts';

export const listProjects = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/projects',
      tags: ['Projects'],
      summary: "The caller's own enrolments",
      description:
        'Projects the caller is enrolled in (withdrawn ones are left out), newest unit first. Projects in inactive units are left out unless `include_inactive=true`.',
    },
  })
  .input(listProjectsInput)
  .output(z.array(projectListedOut))
  .query(async ({ ctx, input }) => {
    const projects = await ctx.em.find(
      Project,
      { user: ctx.user.id, enrolled: true, ...(input.include_inactive ? {} : { unit: { active: true } }) },
      { populate: ['unit'], orderBy: [{ unit: { startDate: 'desc' } }, { id: 'asc' }] },
    );
    return projects.map(toProjectListed);
  });
