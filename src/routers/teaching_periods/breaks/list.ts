import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { teachingPeriodWithBreaks } from '../../../operations/teaching_periods/read-teaching-periods.ts';
import { breakOut, periodBreaksInput, toBreak } from './schemas.ts';
import { systemQuery } from '../../../trpc/scopes/index.ts';

export const listBreaks = systemQuery(periodBreaksInput, { action: 'get_teaching_periods', refused: 'Not authorised to get teaching periods' })
  .meta(route('GET', '/api/teaching_periods/{teaching_period_id}/breaks', 'Teaching periods', "List a teaching period's breaks"))
  .output(z.array(breakOut))
  .query(async ({ ctx, input }) => {
    const { breaks } = await teachingPeriodWithBreaks(ctx.em, input.teaching_period_id);
    return breaks.map(toBreak);
  });
