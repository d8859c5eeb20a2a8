import type { Task } from 'graphile-worker';
import { autogeneratePortfolios } from '../../src/operations/submission/project/portfolio/autogenerate-portfolios.ts';
import type { WorkerServices } from '../services.ts';

/**
 * The daily portfolio auto-generation (behaviour.md §5.4; cron, 08:00): every enrolled project of an
 * active unit that has not ended, whose auto-generation date is before today, with no portfolio,
 * no compile pending and a learning summary report, is asked to compile, submitting its target
 * grade; and its compile is queued in the same transaction. "Today" is the UTC date of the clock.
 * graphile-worker runs a cron item once per schedule however many workers run; the statement only
 * takes projects not yet asking, so a second run the same day changes nothing.
 */
export function portfolioAutogen(services: WorkerServices): Task {
  return async (_payload, helpers) => {
    const today = services.clock.now().toISOString().slice(0, 10);
    const ids = await autogeneratePortfolios(services.orm.em.fork(), today);
    if (ids.length > 0) helpers.logger.info(`portfolio auto-generation queued ${ids.length} compiles`);
  };
}
