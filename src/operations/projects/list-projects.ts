// GET /api/projects: the caller's own enrolments, newest unit first.
import { z } from 'zod';
import type { SystemRole } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { portfolioAvailable } from '../../domain/portfolio.ts';
import { unitRoleOf } from '../../policy/index.ts';
import { toUnitBrief, unitBriefOut } from '../unit_roles/unit-brief.ts';

/** A project as its student sees it in their list of enrolments. */
export const projectListedOut = z.object({
  id: z.number().int(),
  campus_id: z.number().int().nullable(),
  user_id: z.number().int(),
  unit: unitBriefOut,
  target_grade: z.number().int(),
  portfolio_available: z.boolean(),
});
export type ProjectListedOut = z.infer<typeof projectListedOut>;

/** The user's enrolled projects; those in inactive units only when `includeInactive`. */
export async function listProjects(em: Em, user: { id: number; systemRole: SystemRole }, includeInactive: boolean): Promise<ProjectListedOut[]> {
  const rows = await db(em)
    .selectFrom('projects as p')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .leftJoin('unit_roles as r', (j) => j.onRef('r.unit_id', '=', 'p.unit_id').onRef('r.user_id', '=', 'p.user_id'))
    .select(['p.id as project_id', 'p.campus_id', 'p.user_id', 'p.target_grade', 'p.portfolio_production_date', 'p.compile_portfolio', 'r.role as staff_role'])
    .select(['u.id', 'u.code', 'u.name', 'u.start_date', 'u.end_date', 'u.active', 'u.teaching_period_id'])
    .where('p.user_id', '=', user.id)
    .where('p.enrolled', '=', true)
    .$if(!includeInactive, (q) => q.where('u.active', '=', true))
    .orderBy('u.start_date', 'desc')
    .orderBy('p.id')
    .execute();
  return rows.map((row) => ({
    id: row.project_id,
    campus_id: row.campus_id,
    user_id: row.user_id,
    // my_role through the one resolution of src/policy (a student who also teaches there is staff).
    unit: toUnitBrief(row, unitRoleOf(row.staff_role, true, user.systemRole)!),
    target_grade: row.target_grade,
    portfolio_available: portfolioAvailable(row),
  }));
}
