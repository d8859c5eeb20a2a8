// The demo seed's task prerequisites (docs/prerequisites.md): the unit's second task (by target
// date) needs the first to be complete, and the third needs the second handed in (ready for
// feedback), made by the operation the routes use. Added after the students' work, so the demo's
// uploads are not held back; students whose first task is not complete see the second locked.
import { db } from '../../src/db/kysely.ts';
import { createPrerequisite } from '../../src/operations/units/task_definitions/prerequisites/save-prerequisite.ts';
import type { Services } from '../../src/trpc/context.ts';

/** Returns how many links were made (fewer than two definitions: none). */
export async function seedPrerequisites(services: Services, unitId: number): Promise<number> {
  return services.orm.em.fork().transactional(async (em) => {
    const definitions = await db(em)
      .selectFrom('task_definitions')
      .select('id')
      .where('unit_id', '=', unitId)
      .orderBy('target_date')
      .orderBy('id')
      .limit(3)
      .execute();
    const [first, second, third] = definitions;
    if (!first || !second) return 0;
    await createPrerequisite(em, unitId, second.id, { prerequisiteId: first.id, taskStatus: 'complete' });
    if (!third) return 1;
    await createPrerequisite(em, unitId, third.id, { prerequisiteId: second.id, taskStatus: 'ready_for_feedback' });
    return 2;
  });
}
