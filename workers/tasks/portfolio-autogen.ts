import type { Task } from 'graphile-worker';
import { sql } from 'kysely';
import { db } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { queuePortfolioCompile } from '../../src/pdf/portfolio-queue.ts';
import type { WorkerServices } from '../index.ts';

/**
 * The daily portfolio auto-generation (behaviour.md §5.4; cron, 08:00): every enrolled project of an
 * active unit that has not ended, whose auto-generation date is before today, with no portfolio,
 * no compile pending and a learning summary report, is asked to compile, submitting its target
 * grade; and its compile is queued in the same transaction. "Today" is the UTC date of the clock.
 * graphile-worker runs a cron item once per schedule however many workers run; the update only
 * takes projects not yet asking, so a second run the same day changes nothing.
 */
export function portfolioAutogen(services: WorkerServices): Task {
  return async (_payload, helpers) => {
    const today = services.clock.now().toISOString().slice(0, 10);
    const ids = await services.orm.em.fork().transactional(async (tx) => {
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
      const jobs = jobQueue(em);
      for (const { id } of flagged.rows) await queuePortfolioCompile(jobs, id);
      return flagged.rows.map((r) => r.id);
    });
    if (ids.length > 0) helpers.logger.info(`portfolio auto-generation queued ${ids.length} compiles`);
  };
}
