// The portfolio compile job's reads and outcome (workers/tasks/compile-portfolio.ts).
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { queuePortfolioMail } from '../../../../mail/queue.ts';
import { portfolioJobKey } from '../../../../pdf/portfolio-queue.ts';

/** Does the project still ask for its portfolio to be compiled? */
export async function portfolioRequested(em: Em, projectId: number): Promise<boolean> {
  const requested = await db(em).selectFrom('projects').select('compile_portfolio').where('id', '=', projectId).executeTakeFirst();
  return requested?.compile_portfolio === true;
}

/**
 * Records the outcome: the production date when a portfolio was stored, and the request cleared,
 * unless the student asked again while this compile ran (a newer job now holds the project's
 * key); then the request stays and that job compiles again. The project row is locked first, so a
 * request committing meanwhile is either seen here or comes after.
 */
export async function recordPortfolioCompile(em: Em, projectId: number, jobId: string, producedAt: Date | null): Promise<void> {
  await em.transactional(async (tx) => {
    const k = db(tx as Em);
    await sql`select id from projects where id = ${projectId} for update`.execute(k);
    const newer = await sql<{ id: string }>`
      select id from graphile_worker._private_jobs where key = ${portfolioJobKey(projectId)} and id <> ${jobId}::bigint`.execute(k);
    // The student hears of it (portfolio_ready or portfolio_failed) only if this outcome commits.
    await queuePortfolioMail(tx as Em, { projectId, ok: producedAt !== null });
    await k
      .updateTable('projects')
      .set({
        compile_portfolio: newer.rows.length > 0,
        ...(producedAt ? { portfolio_production_date: producedAt.toISOString() } : {}),
      })
      .where('id', '=', projectId)
      .execute();
  });
}
