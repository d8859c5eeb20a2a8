import { teachingPeriodWithBreaks } from '../../operations/teaching_periods/read-teaching-periods.ts';
import { route } from '../../trpc/route.ts';
import { optionalAuthProcedure } from '../../trpc/core.ts';
import { toBreak } from './breaks/schemas.ts';
import { teachingPeriodDetailOut, teachingPeriodIdInput, toTeachingPeriod } from './schemas.ts';
import { unitSummaries } from '../../operations/teaching_periods/unit-summaries.ts';

export const getTeachingPeriod = optionalAuthProcedure
  .meta(
    route('GET', '/api/teaching_periods/{id}', 'Teaching periods', 'Get a teaching period with its breaks and units', {
      protect: false,
      description:
        "Public. With valid credentials each unit carries the caller's `my_role` (Convenor, Tutor, Student or Admin); without them `my_role` is null.",
    }),
  )
  .input(teachingPeriodIdInput)
  .output(teachingPeriodDetailOut)
  .query(async ({ ctx, input }) => {
    const { period, breaks } = await teachingPeriodWithBreaks(ctx.em, input.id);
    return {
      ...toTeachingPeriod(period, ctx.clock.now()),
      breaks: breaks.map(toBreak),
      units: await unitSummaries(ctx.em, period.id, ctx.user),
    };
  });
