// The demo unit's staff notes, a moderation sample and an escalation (docs/marking/notes-moderation-escalation.md),
// made through the same operations as a request, so a newcomer signed in as the convenor sees a
// mention and an escalation in the inbox, a sample to review and a report at once. Run after the
// class's work (scripts/demo/work.ts): the sample draws from tasks assessed as complete.
import { db } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { createStaffNote } from '../../src/operations/projects/staff_notes/staff-notes.ts';
import { escalateTask } from '../../src/operations/projects/task_def_id/escalations/escalations.ts';
import { drawSample, reviewItem } from '../../src/operations/units/moderation_samples/moderation.ts';
import { ROLE } from '../../src/policy/index.ts';

export interface OversightResult {
  notes: number;
  sampled: number;
  escalations: number;
}

/**
 * Three notes (one mentioning the main convenor), a 10% moderation sample of the first definition
 * with completed work (two items reviewed, one disagreement) and one open escalation. Call with an
 * entity manager inside a transaction, e.g. `services.orm.em.fork().transactional((em) => seedOversight(em, unitId, now))`.
 */
export async function seedOversight(em: Em, unitId: number, now: Date): Promise<OversightResult> {
  const k = db(em);
  const staff = await k.selectFrom('unit_roles').select(['user_id', 'role']).where('unit_id', '=', unitId).orderBy('id').execute();
  const convenor = staff.find((s) => s.role === ROLE.convenor)?.user_id;
  const tutors = staff.filter((s) => s.role === ROLE.tutor).map((s) => s.user_id);
  if (convenor === undefined || tutors.length === 0) return { notes: 0, sampled: 0, escalations: 0 };
  // Students with work: a mention lists the project's existing tasks in the inbox.
  const projects = await k
    .selectFrom('projects as p')
    .select('p.id')
    .where('p.unit_id', '=', unitId)
    .where('p.enrolled', '=', true)
    .where((e) => e.exists(e.selectFrom('tasks as t').select('t.id').whereRef('t.project_id', '=', 'p.id')))
    .orderBy('p.id')
    .limit(3)
    .execute();
  const texts = [
    'Asked for more time twice; check in with them at the next class.',
    'Strong work so far, consider them for the extension task.',
    'Seemed unsure about the submission process; walked them through it.',
  ];
  for (const [i, project] of projects.entries()) {
    await createStaffNote(em, { id: project.id, unitId }, tutors[i % tutors.length]!, { text: texts[i]!, mentioned_user_ids: i === 0 ? [convenor] : [] }, now);
  }

  // The first definition with assessed, completed work: a 10% sample, partly reviewed.
  const assessed = await k
    .selectFrom('tasks as t')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .innerJoin('task_submissions as s', 's.task_id', 't.id')
    .select(['t.task_definition_id', 't.id', 't.project_id'])
    .where('d.unit_id', '=', unitId)
    .where('t.status', '=', 'complete')
    .where('s.assessor_id', 'is not', null)
    .orderBy('d.target_date')
    .orderBy('t.id')
    .limit(1)
    .executeTakeFirst();
  let sampled = 0;
  let escalations = 0;
  if (assessed) {
    const sample = await drawSample(em, unitId, { task_definition_id: assessed.task_definition_id, percent: 10 }, convenor, now);
    sampled = sample.items;
    const items = await k.selectFrom('moderation_items').select(['id', 'assessor_id']).where('sample_id', '=', sample.id).orderBy('id').limit(2).execute();
    for (const [i, item] of items.entries()) {
      if (item.assessor_id === convenor) continue;
      const input =
        i === 0 ? { verdict: 'agree' as const } : { verdict: 'disagree' as const, comment: 'The tests do not cover the empty case: fix and resubmit.' };
      await reviewItem(em, unitId, { sampleId: sample.id, itemId: item.id }, { id: convenor, oversees: true }, input, now);
    }
    await escalateTask(
      em,
      { projectId: assessed.project_id, definitionId: assessed.task_definition_id, unitId },
      tutors[0]!,
      'The code is near identical to last year’s published solution.',
      now,
    );
    escalations = 1;
  }
  return { notes: projects.length, sampled, escalations };
}
