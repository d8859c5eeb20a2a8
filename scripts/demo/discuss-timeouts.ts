// The demo seed's discuss timeouts (docs/discuss-timeouts.md): the unit is created with them on (7
// and 14 teaching days), and the first task the tutors left in discuss has waited one teaching day
// past the warning, so the next daily run (06:00 UTC) warns its student. The seed sends nothing itself.
import { db } from '../../src/db/kysely.ts';
import { toDay } from '../../src/domain/dates.ts';
import { dayAfterTeachingDays } from '../../src/domain/discuss-timeouts.ts';
import { periodCalendar } from '../../src/operations/units/rollover-unit.ts';
import type { Services } from '../../src/trpc/context.ts';

/** Returns the task whose stay was moved back (null when the seed made no work). */
export async function seedDiscussTimeouts(services: Services, unitId: number): Promise<{ taskId: number | null }> {
  return services.orm.em.fork().transactional(async (em) => {
    const k = db(em);
    const unit = await k.selectFrom('units').select(['teaching_period_id', 'discuss_timeout_warning_days']).where('id', '=', unitId).executeTakeFirstOrThrow();
    const task = await k
      .selectFrom('tasks as t')
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .select('t.id')
      .where('p.unit_id', '=', unitId)
      .where('t.status', '=', 'discuss')
      .orderBy('t.id')
      .executeTakeFirst();
    if (!task) return { taskId: null };
    const calendar = unit.teaching_period_id === null ? null : (await periodCalendar(em, unit.teaching_period_id)).calendar;
    const movedOn = dayAfterTeachingDays(calendar, toDay(services.clock.now()), -(unit.discuss_timeout_warning_days + 1));
    await k
      .updateTable('tasks')
      .set({ moved_to_discuss_at: `${movedOn}T09:00:00.000Z` })
      .where('id', '=', task.id)
      .execute();
    return { taskId: task.id };
  });
}
