// Rollover (docs/marking/rubrics.md): each copied definition gets its source's rubric (criteria,
// levels, mapping, thresholds), never its marks (tasks are not copied). Three set-based statements
// whatever the number of definitions, criteria and levels: rubrics, then criteria, then levels.
// A new row finds its new parent by what is unique in the copy: a rubric by its definition, a
// criterion by (rubric, position), a level's criterion by (criterion's rubric, position), so no
// ids need to be read back in between.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';

/** Copies the rubrics of `definitionMap`'s keys (source definition ids) to its values (the copies). */
export async function copyRubrics(em: Em, definitionMap: ReadonlyMap<number, number>, now: Date): Promise<void> {
  if (definitionMap.size === 0) return;
  const k = db(em);
  const at = now.toISOString();
  const pairs = sql.join([...definitionMap].map(([from, to]) => sql`(${from}::int, ${to}::int)`));
  await sql`insert into rubrics (task_definition_id, mapping, thresholds, created_at, updated_at)
    select m.new_id, r.mapping, r.thresholds, ${at}::timestamptz, ${at}::timestamptz
    from rubrics r join (values ${pairs}) as m(old_id, new_id) on m.old_id = r.task_definition_id
    order by r.id`.execute(k);
  // From here, `r` is a source rubric and `nr` its copy, paired through the definition map.
  await sql`insert into rubric_criteria (rubric_id, title, description, position)
    select nr.id, c.title, c.description, c.position
    from rubric_criteria c
    join rubrics r on r.id = c.rubric_id
    join (values ${pairs}) as m(old_id, new_id) on m.old_id = r.task_definition_id
    join rubrics nr on nr.task_definition_id = m.new_id
    order by c.id`.execute(k);
  await sql`insert into rubric_levels (criterion_id, title, description, points, position)
    select nc.id, l.title, l.description, l.points, l.position
    from rubric_levels l
    join rubric_criteria c on c.id = l.criterion_id
    join rubrics r on r.id = c.rubric_id
    join (values ${pairs}) as m(old_id, new_id) on m.old_id = r.task_definition_id
    join rubrics nr on nr.task_definition_id = m.new_id
    join rubric_criteria nc on nc.rubric_id = nr.id and nc.position = c.position
    order by l.id`.execute(k);
}
