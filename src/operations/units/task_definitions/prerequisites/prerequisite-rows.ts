// A task definition's prerequisites as the API answers them, and the definitions the link rules
// read (docs/prerequisites.md). Shared by the routes, the CSV, the task-definition update and rollover.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { LinkEnd } from '../../../../domain/prerequisites.ts';
import type { TaskStatus } from '../../../../domain/vocabulary.ts';
import { notFound } from '../../../../lib/errors.ts';

export interface PrerequisiteRow {
  id: number;
  task_definition_id: number;
  prerequisite_id: number;
  task_status: TaskStatus;
}

export const PREREQUISITE_COLUMNS = ['id', 'task_definition_id', 'prerequisite_id', 'task_status'] as const;

export const UNKNOWN_DEFINITION = 'Unable to find requested Task Definition';

/** The links of these definitions (as dependents), by definition then id. */
export async function prerequisiteRows(em: Em, taskDefinitionIds: number[]): Promise<PrerequisiteRow[]> {
  if (taskDefinitionIds.length === 0) return [];
  return db(em)
    .selectFrom('task_prerequisites')
    .select(PREREQUISITE_COLUMNS)
    .where('task_definition_id', 'in', taskDefinitionIds)
    .orderBy('task_definition_id')
    .orderBy('id')
    .execute() as Promise<PrerequisiteRow[]>;
}

/** GET .../task_definitions/{task_def_id}/prerequisites: 404 when the definition is not the unit's. */
export async function listPrerequisites(em: Em, unitId: number, taskDefinitionId: number): Promise<PrerequisiteRow[]> {
  const found = await db(em).selectFrom('task_definitions').select('id').where('id', '=', taskDefinitionId).where('unit_id', '=', unitId).executeTakeFirst();
  if (!found) throw notFound(UNKNOWN_DEFINITION);
  return prerequisiteRows(em, [taskDefinitionId]);
}

/** Definitions by id as the link rules read them; `share` locks them against a concurrent change of dates or grades. */
export async function linkEnds(em: Em, ids: number[], share = false): Promise<Map<number, LinkEnd>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<{ id: number; unit_id: number; abbreviation: string; target_date: string; target_grade: number }>`
    select id, unit_id, abbreviation, to_char(target_date, 'YYYY-MM-DD') as target_date, target_grade
    from task_definitions where id in (${sql.join(ids)}) order by id ${share ? sql`for share` : sql``}`.execute(db(em));
  return new Map(
    rows.rows.map((r) => [r.id, { id: r.id, unitId: r.unit_id, abbreviation: r.abbreviation, targetDate: r.target_date, targetGrade: r.target_grade }]),
  );
}

/** Every link between the unit's definitions, with each definition's abbreviation (cycle checks name the path). */
export async function unitLinks(em: Em, unitId: number) {
  const [links, definitions] = await Promise.all([
    db(em)
      .selectFrom('task_prerequisites as tp')
      .innerJoin('task_definitions as d', 'd.id', 'tp.task_definition_id')
      .select(['tp.id', 'tp.task_definition_id', 'tp.prerequisite_id', 'tp.task_status'])
      .where('d.unit_id', '=', unitId)
      .orderBy('tp.id')
      .execute(),
    db(em).selectFrom('task_definitions').select(['id', 'abbreviation']).where('unit_id', '=', unitId).execute(),
  ]);
  const abbreviation = new Map(definitions.map((d) => [d.id, d.abbreviation]));
  return {
    links: links as PrerequisiteRow[],
    abbreviationOf: (id: number) => abbreviation.get(id) ?? String(id),
    byAbbreviation: new Map(definitions.map((d) => [d.abbreviation, d.id])),
  };
}
