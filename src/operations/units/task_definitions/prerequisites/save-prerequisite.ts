// POST and DELETE /api/units/{unit_id}/task_definitions/{task_def_id}/prerequisites[/{id}], the
// CSV's replacement of a definition's links, and the check that a changed definition keeps its
// links' rules (docs/prerequisites.md). All in the caller's transaction.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { linkProblem, pairProblem, type LinkPair } from '../../../../domain/prerequisites.ts';
import type { TaskStatus } from '../../../../domain/vocabulary.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { linkEnds, PREREQUISITE_COLUMNS, type PrerequisiteRow, UNKNOWN_DEFINITION, unitLinks } from './prerequisite-rows.ts';

export const UNKNOWN_PREREQUISITE = 'Unable to find requested Task Prerequisite';

/**
 * Writers of one unit's links take turns: a cycle is a property of all the links together, so two
 * links added at once (A needs B, B needs A) must not both be checked against the links before
 * either. A transaction-scoped advisory lock, so nothing else of the unit waits.
 */
async function lockUnitLinks(em: Em, unitId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('task_prerequisites'), ${unitId})`.execute(db(em));
}

export interface NewLink {
  prerequisiteId: number;
  taskStatus: TaskStatus;
}

/**
 * Checks and inserts links of `taskDefinitionId` (a definition of `unitId`; 404 otherwise), each
 * against the unit's links and the ones before it. An unknown prerequisite is a 404, a link of
 * another unit's definition or one that breaks a rule a 400, as is a pair that exists already.
 */
async function addLinks(em: Em, unitId: number, taskDefinitionId: number, wanted: NewLink[]): Promise<PrerequisiteRow[]> {
  await lockUnitLinks(em, unitId);
  // Shared row locks: a concurrent change of either definition's dates or grade waits for this
  // transaction, and then checks its links with this one among them (refuseBrokenLinks).
  const ends = await linkEnds(em, [taskDefinitionId, ...wanted.map((w) => w.prerequisiteId)], true);
  const dependent = ends.get(taskDefinitionId);
  if (!dependent || dependent.unitId !== unitId) throw notFound(UNKNOWN_DEFINITION);
  const { links, abbreviationOf } = await unitLinks(em, unitId);
  const pairs: LinkPair[] = [...links];
  for (const w of wanted) {
    const prerequisite = ends.get(w.prerequisiteId);
    if (!prerequisite) throw notFound(`${UNKNOWN_DEFINITION} (prerequisite ${w.prerequisiteId})`);
    if (pairs.some((l) => l.task_definition_id === taskDefinitionId && l.prerequisite_id === w.prerequisiteId)) {
      throw badRequest(`${prerequisite.abbreviation} is already a prerequisite of ${dependent.abbreviation}`);
    }
    const problem = linkProblem(dependent, prerequisite, pairs, abbreviationOf);
    if (problem) throw badRequest(problem);
    pairs.push({ task_definition_id: taskDefinitionId, prerequisite_id: w.prerequisiteId });
  }
  if (wanted.length === 0) return [];
  const now = new Date().toISOString();
  return db(em)
    .insertInto('task_prerequisites')
    .values(
      wanted.map((w) => ({
        task_definition_id: taskDefinitionId,
        prerequisite_id: w.prerequisiteId,
        task_status: w.taskStatus,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning(PREREQUISITE_COLUMNS)
    .execute() as Promise<PrerequisiteRow[]>;
}

export async function createPrerequisite(em: Em, unitId: number, taskDefinitionId: number, link: NewLink): Promise<PrerequisiteRow> {
  const [row] = await addLinks(em, unitId, taskDefinitionId, [link]);
  return row!;
}

export async function deletePrerequisite(em: Em, unitId: number, taskDefinitionId: number, id: number): Promise<PrerequisiteRow> {
  const row = await db(em)
    .deleteFrom('task_prerequisites')
    .where('id', '=', id)
    .where('task_definition_id', '=', taskDefinitionId)
    .where('task_definition_id', 'in', (eb) => eb.selectFrom('task_definitions').select('id').where('unit_id', '=', unitId))
    .returning(PREREQUISITE_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_PREREQUISITE);
  return row as PrerequisiteRow;
}

/** The task-definition CSV's `prerequisites` cell: the definition's links become exactly these (checked as new ones). */
export async function replacePrerequisites(em: Em, unitId: number, taskDefinitionId: number, wanted: NewLink[]): Promise<void> {
  await lockUnitLinks(em, unitId);
  await db(em).deleteFrom('task_prerequisites').where('task_definition_id', '=', taskDefinitionId).execute();
  await addLinks(em, unitId, taskDefinitionId, wanted);
}

/**
 * After a definition's target date or grade changed (PUT, the CSV import): 400 when one of its
 * links, as dependent or as prerequisite, no longer keeps the rules. Called once the change is
 * written, so a link being added at the same time either waited for it or is seen here.
 */
export async function refuseBrokenLinks(em: Em, taskDefinitionId: number): Promise<void> {
  const links = await db(em)
    .selectFrom('task_prerequisites')
    .select(['task_definition_id', 'prerequisite_id'])
    .where((eb) => eb.or([eb('task_definition_id', '=', taskDefinitionId), eb('prerequisite_id', '=', taskDefinitionId)]))
    .orderBy('id')
    .execute();
  if (links.length === 0) return;
  const ends = await linkEnds(em, [...new Set(links.flatMap((l) => [l.task_definition_id, l.prerequisite_id]))]);
  for (const l of links) {
    const problem = pairProblem(ends.get(l.task_definition_id)!, ends.get(l.prerequisite_id)!);
    if (problem) throw badRequest(`Validation failed: the change would break a prerequisite link: ${problem}`);
  }
}
