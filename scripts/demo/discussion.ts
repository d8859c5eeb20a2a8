// The demo seed's discussion prompts and required discussion (docs/discussion-prompts.md): the
// first definition gets three prompts for the tutor to ask, and requires a discussion before it is
// complete, made by the operation the routes use. The work seeded before stays as it was: the rule
// meets the next change to complete.
import { db } from '../../src/db/kysely.ts';
import { createPrompt } from '../../src/operations/task_definitions/discussion_prompts/save-prompt.ts';
import type { Services } from '../../src/trpc/context.ts';

const PROMPTS = [
  { content: 'Walk me through how your program reads its input.', priority: 1 },
  { content: 'Which case was hardest to get right, and how did you test it?', priority: 2 },
  { content: 'What would you change if the input could be empty?', priority: 3 },
];

/** Returns the definition given prompts (null when the unit has none) and how many. */
export async function seedDiscussion(services: Services, unitId: number): Promise<{ taskDefinitionId: number | null; prompts: number }> {
  return services.orm.em.fork().transactional(async (em) => {
    const k = db(em);
    const first = await k.selectFrom('task_definitions').select('id').where('unit_id', '=', unitId).orderBy('id').executeTakeFirst();
    if (!first) return { taskDefinitionId: null, prompts: 0 };
    await k.updateTable('task_definitions').set({ requires_discussion: true }).where('id', '=', first.id).execute();
    const now = services.clock.now();
    for (const prompt of PROMPTS) await createPrompt(em, first.id, prompt, now);
    return { taskDefinitionId: first.id, prompts: PROMPTS.length };
  });
}
