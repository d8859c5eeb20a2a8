// Rollover (docs/marking/templates.md): a unit's template groups and templates go with its copy;
// a definition's groups follow the copied definition. Usage counts start again at zero.
import { sql } from 'kysely';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

/** Copies every group (two statements) and template (one) of `fromUnit` into `toUnit`. */
export async function copyTemplates(em: Em, fromUnit: number, toUnit: number, definitionMap: ReadonlyMap<number, number>, now: Date): Promise<void> {
  const k = db(em);
  const groups = await k
    .selectFrom('feedback_template_groups')
    .select(['id', 'name', 'task_definition_id'])
    .where('unit_id', '=', fromUnit)
    .orderBy('id')
    .execute();
  // A group of a definition that was not copied has nothing to follow.
  const kept = groups.filter((g) => g.task_definition_id === null || definitionMap.has(g.task_definition_id));
  if (kept.length === 0) return;
  const at = now.toISOString();
  const made = await k
    .insertInto('feedback_template_groups')
    .values(
      kept.map((g) => ({
        unit_id: toUnit,
        task_definition_id: g.task_definition_id === null ? null : definitionMap.get(g.task_definition_id)!,
        name: g.name,
        created_at: at,
        updated_at: at,
      })),
    )
    .returning('id')
    .execute();
  // Rows come back in insertion order (one multi-row INSERT).
  const pairs = sql.join(kept.map((g, i) => sql`(${g.id}::int, ${made[i].id}::int)`));
  await sql`insert into feedback_templates (group_id, title, text, suggested_status, created_at, updated_at)
    select m.new_id, t.title, t.text, t.suggested_status, ${at}::timestamptz, ${at}::timestamptz
    from feedback_templates t join (values ${pairs}) as m(old_id, new_id) on m.old_id = t.group_id
    order by t.id`.execute(k);
}
