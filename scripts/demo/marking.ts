// The marking tools a newcomer should see in the demo unit at once (docs/marking/): feedback templates
// to apply, and (as each part lands) a rubric, staff notes, a moderation sample and an escalation.
// Each piece is made by the operation the routes use, on its own fork, in one transaction.
import { seedTemplates } from '../../src/operations/units/feedback_templates/seed-templates.ts';
import type { Services } from '../../src/trpc/context.ts';

export interface MarkingSeed {
  templateGroups: number;
}

export async function seedMarking(services: Services, unitId: number): Promise<MarkingSeed> {
  const now = services.clock.now();
  const groups = await services.orm.em.fork().transactional((em) => seedTemplates(em, unitId, now));
  return { templateGroups: groups.length };
}
