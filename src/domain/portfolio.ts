// A student's portfolio: the one rule every view of a project shares.

/**
 * A compiled portfolio exists (it has a production date) and no new compilation is pending.
 * Portfolios are produced by a later part of the service; until then this is simply false.
 */
export function portfolioAvailable(project: { portfolio_production_date: string | null; compile_portfolio: boolean }): boolean {
  return project.portfolio_production_date !== null && !project.compile_portfolio;
}
