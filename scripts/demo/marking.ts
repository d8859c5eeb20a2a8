// The marking tools a newcomer should see in the demo unit at once (docs/marking/): feedback templates
// to apply, a rubric on the graded task with some tasks marked against it, staff notes, a moderation
// sample and an escalation. Each piece is made by the operations the routes use, on its own fork, in
// one transaction.
import { db } from '../../src/db/kysely.ts';
import { seedTemplates } from '../../src/operations/units/feedback_templates/seed-templates.ts';
import { ROLE } from '../../src/policy/index.ts';
import type { Services } from '../../src/trpc/context.ts';
import { seedOversight } from './oversight.ts';
import { seedRubric } from './rubric.ts';

export interface MarkingSeed {
  templateGroups: number;
  rubricMarks: number;
  notes: number;
  sampled: number;
  escalations: number;
}

export async function seedMarking(services: Services, unitId: number): Promise<MarkingSeed> {
  const now = services.clock.now();
  return services.orm.em.fork().transactional(async (em) => {
    const groups = await seedTemplates(em, unitId, now);
    const k = db(em);
    // The rubric goes on a definition that has work (a graded one first), marked by the first tutor.
    const graded = await k
      .selectFrom('task_definitions as d')
      .select('d.id')
      .where('d.unit_id', '=', unitId)
      .where((eb) => eb.exists(eb.selectFrom('tasks as t').select('t.id').whereRef('t.task_definition_id', '=', 'd.id')))
      .orderBy('d.is_graded', 'desc')
      .orderBy('d.id')
      .executeTakeFirst();
    const marker = await k
      .selectFrom('unit_roles')
      .select('user_id')
      .where('unit_id', '=', unitId)
      .where('role', '=', ROLE.tutor)
      .orderBy('id')
      .executeTakeFirst();
    const rubric = graded && marker ? await seedRubric(em, unitId, graded.id, marker.user_id, 20, now) : null;
    const oversight = await seedOversight(em, unitId, now);
    return {
      templateGroups: groups.length,
      rubricMarks: rubric?.marked ?? 0,
      notes: oversight.notes,
      sampled: oversight.sampled,
      escalations: oversight.escalations,
    };
  });
}
