import type { JobQueue } from '../db/jobs.ts';

/** One pending compile per project: a second request before the worker starts replaces the first. */
export const portfolioJobKey = (projectId: number): string => `compile_portfolio:${projectId}`;

/** Queues the compile of a project's portfolio in the caller's transaction. */
export function queuePortfolioCompile(jobs: JobQueue, projectId: number): Promise<void> {
  return jobs.add('compile_portfolio', { projectId }, { jobKey: portfolioJobKey(projectId), maxAttempts: 5 });
}

/** Queues the compiles of many projects' portfolios in the caller's transaction, in a fixed number of statements. */
export function queuePortfolioCompiles(jobs: JobQueue, projectIds: readonly number[]): Promise<void> {
  return jobs.addMany(
    'compile_portfolio',
    projectIds.map((projectId) => ({ payload: { projectId }, jobKey: portfolioJobKey(projectId), maxAttempts: 5 })),
  );
}
