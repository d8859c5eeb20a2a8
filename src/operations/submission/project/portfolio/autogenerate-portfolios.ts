// The daily portfolio auto-generation (behaviour.md §5.4), run by workers/tasks/portfolio-autogen.ts.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { jobQueue } from '../../../../db/jobs.ts';
import { queuePortfolioCompiles } from '../../../../pdf/portfolio-queue.ts';

/**
 * Every enrolled project of an active unit that has not ended by `today` (YYYY-MM-DD), whose
 * auto-generation date is before it, with no portfolio, no compile pending and a learning summary
 * report, is asked to compile, submitting its target grade, and its compile is queued (one
 * statement per batch of jobs, not one per project), all in one transaction. Only projects not
 * yet asking are taken, so a second run the same day changes nothing. The projects asked.
 */
export async function autogeneratePortfolios(em: Em, today: string): Promise<number[]> {
  return em.transactional(async (tx) => {
    const em = tx as Em;
    const flagged = await sql<{ id: number }>`
      update projects p
         set compile_portfolio = true, submitted_grade = p.target_grade, portfolio_auto_generated = true, updated_at = now()
        from units u
       where u.id = p.unit_id
         and u.active and u.end_date >= ${today}::date
         and u.portfolio_auto_generation_date < ${today}::date
         and p.enrolled and p.portfolio_production_date is null and not p.compile_portfolio
         and exists (select 1 from portfolio_parts s where s.project_id = p.id and s.idx = 0 and s.kind = 'document')
      returning p.id`.execute(db(em));
    // UPDATE ... RETURNING gives no order; the jobs (and the answer) go in project order.
    const ids = flagged.rows.map((r) => r.id).sort((a, b) => a - b);
    await queuePortfolioCompiles(jobQueue(em), ids);
    return ids;
  });
}
