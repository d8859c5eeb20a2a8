import { z } from 'zod';
import { formBool } from '../../trpc/fields.ts';
import { unitBriefOut } from '../unit_roles/schemas.ts';

/**
 * A compiled portfolio exists (it has a production date) and no new compilation is pending.
 * Portfolios are produced by a later part of the service; until then this is simply false.
 */
export function portfolioAvailable(project: { portfolio_production_date: string | null; compile_portfolio: boolean }): boolean {
  return project.portfolio_production_date !== null && !project.compile_portfolio;
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

export const listProjectsInput = z.object({
  include_inactive: formBool().optional(),
});
