// Rollover (docs/prerequisites.md): the links between copied definitions are copied with them. One
// set-based statement whatever the number of definitions and links. Copied dates keep their
// teaching week and weekday, so a link's rules still hold; a link whose copies would break one (a
// date that had to move) is left behind rather than refusing the rollover.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';

/** Copies the links among `definitionMap`'s keys (source definition ids) to its values (the copies). */
export async function copyPrerequisites(em: Em, definitionMap: ReadonlyMap<number, number>, now: Date): Promise<void> {
  if (definitionMap.size === 0) return;
  const at = now.toISOString();
  const pairs = sql.join([...definitionMap].map(([from, to]) => sql`(${from}::int, ${to}::int)`));
  await sql`with m(old_id, new_id) as (values ${pairs})
    insert into task_prerequisites (task_definition_id, prerequisite_id, task_status, created_at, updated_at)
    select md.new_id, mp.new_id, tp.task_status, ${at}::timestamptz, ${at}::timestamptz
    from task_prerequisites tp
    join m md on md.old_id = tp.task_definition_id
    join m mp on mp.old_id = tp.prerequisite_id
    join task_definitions nd on nd.id = md.new_id
    join task_definitions np on np.id = mp.new_id
    where np.target_date <= nd.target_date and np.target_grade <= nd.target_grade
    order by tp.id
    on conflict do nothing`.execute(db(em));
}
