import { z } from 'zod';
import type { IProject, IUnit } from '../../../schema/index.ts';
import { formBool } from '../../trpc/fields.ts';
import { toUnitBrief, unitBriefOut } from '../unit_roles/schemas.ts';

/**
 * A compiled portfolio exists (it has a production date) and no new compilation is pending.
 * Portfolios are produced by a later part of the service; until then this is simply false.
 */
export function portfolioAvailable(project: Pick<IProject, 'portfolioProductionDate' | 'compilePortfolio'>): boolean {
  return project.portfolioProductionDate != null && !project.compilePortfolio;
}

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

/** Needs `unit` loaded. */
export function toProjectListed(project: IProject): ProjectListedOut {
  return {
    id: project.id,
    campus_id: project.campus?.id ?? null,
    user_id: project.user.id,
    unit: toUnitBrief(project.unit as IUnit, 'Student'),
    target_grade: project.targetGrade,
    portfolio_available: portfolioAvailable(project),
  };
}

export const listProjectsInput = z.object({
  include_inactive: formBool().optional(),
});
