import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { listTeachingPeriods as readTeachingPeriods } from '../../operations/teaching_periods/read-teaching-periods.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { teachingPeriodOut, toTeachingPeriod } from './schemas.ts';

export const listTeachingPeriods = publicProcedure
  .meta(
    route('GET', '/api/teaching_periods', 'Teaching periods', 'List teaching periods', {
      protect: false,
      description: 'Every teaching period by start date, without breaks or units. `active` means `active_until` is still ahead.',
    }),
  )
  .input(z.object({}))
  .output(z.array(teachingPeriodOut))
  .query(async ({ ctx }) => {
    const periods = await readTeachingPeriods(ctx.em);
    const now = ctx.clock.now();
    return periods.map((tp) => toTeachingPeriod(tp, now));
  });
