import { z } from 'zod';
import { Break, TeachingPeriod } from '../../../../schema/index.ts';
import { authorize } from '../../../policy/index.ts';
import { authedProcedure } from '../../../trpc/core.ts';
import { findOr404 } from '../../lookup.ts';
import { breakOut, periodBreaksInput, toBreak } from './schemas.ts';

export const listBreaks = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/teaching_periods/{teaching_period_id}/breaks',
      tags: ['Teaching periods'],
      summary: "List a teaching period's breaks",
    },
  })
  .input(periodBreaksInput)
  .output(z.array(breakOut))
  .query(async ({ ctx, input }) => {
    authorize(ctx.user, 'get_teaching_periods', 'Not authorised to get teaching periods');
    const period = await findOr404(ctx.em, TeachingPeriod, input.teaching_period_id);
    const breaks = await ctx.em.find(Break, { teachingPeriod: period.id }, { orderBy: { startDate: 'asc', id: 'asc' } });
    return breaks.map(toBreak);
  });
