import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { Break, TeachingPeriod } from '../../../../schema/index.ts';
import { findOr404 } from '../../../trpc/lookup.ts';
import { breakOut, periodBreaksInput, toBreak } from './schemas.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';

export const listBreaks = systemQuery(periodBreaksInput, { action: 'get_teaching_periods', refused: 'Not authorised to get teaching periods' })
  .meta(route('GET', '/api/teaching_periods/{teaching_period_id}/breaks', 'Teaching periods', "List a teaching period's breaks"))
  .output(z.array(breakOut))
  .query(async ({ ctx, input }) => {
    const period = await findOr404(ctx.em, TeachingPeriod, input.teaching_period_id);
    const breaks = await ctx.em.find(Break, { teachingPeriod: period.id }, { orderBy: { startDate: 'asc', id: 'asc' } });
    return breaks.map(toBreak);
  });
