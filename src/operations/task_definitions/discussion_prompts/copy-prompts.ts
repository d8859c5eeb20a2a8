// Rollover (docs/discussion-prompts.md): each copied definition gets its source's prompts, in one
// set-based statement whatever the number of definitions and prompts.
import { sql } from 'kysely';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';

/** Copies the prompts of `definitionMap`'s keys (source definition ids) to its values (the copies). */
export async function copyPrompts(em: Em, definitionMap: ReadonlyMap<number, number>, now: Date): Promise<void> {
  if (definitionMap.size === 0) return;
  const at = now.toISOString();
  const pairs = sql.join([...definitionMap].map(([from, to]) => sql`(${from}::int, ${to}::int)`));
  await sql`insert into discussion_prompts (task_definition_id, content, priority, created_at, updated_at)
    select m.new_id, p.content, p.priority, ${at}::timestamptz, ${at}::timestamptz
    from discussion_prompts p join (values ${pairs}) as m(old_id, new_id) on m.old_id = p.task_definition_id
    order by p.id`.execute(db(em));
}
