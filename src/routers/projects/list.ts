import { route } from '../../trpc/route.ts';
import { z } from 'zod';
import { db } from '../../db/kysely.ts';
import { unitRoleOf } from '../../policy/index.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { toUnitBrief } from '../unit_roles/schemas.ts';
import { portfolioAvailable } from '../../domain/portfolio.ts';
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
  .query(async ({ ctx, input }) => {
    const rows = await db(ctx.em)
      .selectFrom('projects as p')
      .innerJoin('units as u', 'u.id', 'p.unit_id')
      .leftJoin('unit_roles as r', (j) => j.onRef('r.unit_id', '=', 'p.unit_id').onRef('r.user_id', '=', 'p.user_id'))
      .select([
        'p.id as project_id',
        'p.campus_id',
        'p.user_id',
        'p.target_grade',
        'p.portfolio_production_date',
        'p.compile_portfolio',
        'r.role as staff_role',
      ])
      .select(['u.id', 'u.code', 'u.name', 'u.start_date', 'u.end_date', 'u.active', 'u.teaching_period_id'])
      .where('p.user_id', '=', ctx.user.id)
      .where('p.enrolled', '=', true)
      .$if(input.include_inactive !== true, (q) => q.where('u.active', '=', true))
      .orderBy('u.start_date', 'desc')
      .orderBy('p.id')
      .execute();
    return rows.map((row) => ({
      id: row.project_id,
      campus_id: row.campus_id,
      user_id: row.user_id,
      // my_role through the one resolution of src/policy (a student who also teaches there is staff).
      unit: toUnitBrief(row, unitRoleOf(row.staff_role, true, ctx.user.systemRole)!),
      target_grade: row.target_grade,
      portfolio_available: portfolioAvailable(row),
    }));
  });
