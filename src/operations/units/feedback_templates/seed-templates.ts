// A few templates for a unit, for the demo seed (and tests): one unit-wide group and, when the unit
// has a definition, a group for its first one.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { createTemplate, createTemplateGroup, listTemplateGroups, type GroupRow } from './templates.ts';

export async function seedTemplates(em: Em, unitId: number, now = new Date()): Promise<GroupRow[]> {
  const general = await createTemplateGroup(em, unitId, { name: 'General feedback' }, now);
  await createTemplate(
    em,
    unitId,
    { group_id: general.id, title: 'Well done', text: 'Well done {student_first_name}: {task_name} is complete.', suggested_status: 'complete' },
    now,
  );
  await createTemplate(
    em,
    unitId,
    {
      group_id: general.id,
      title: 'Needs fixing',
      text: 'Thanks {student_first_name}. {task_name} is nearly there; please fix the points below and resubmit by {due_date}.',
      suggested_status: 'fix_and_resubmit',
    },
    now,
  );
  await createTemplate(
    em,
    unitId,
    { group_id: general.id, title: 'Let us talk', text: "Let's discuss {task_name} in class.", suggested_status: 'discuss' },
    now,
  );
  const first = await db(em).selectFrom('task_definitions').select(['id', 'name']).where('unit_id', '=', unitId).orderBy('id').limit(1).executeTakeFirst();
  if (first) {
    const own = await createTemplateGroup(em, unitId, { name: `${first.name}: common issues`, task_definition_id: first.id }, now);
    await createTemplate(em, unitId, { group_id: own.id, title: 'Missing references', text: 'Please cite the sources you used.' }, now);
  }
  return listTemplateGroups(em, unitId);
}
