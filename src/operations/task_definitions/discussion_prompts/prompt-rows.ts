// /api/task_definitions/{td_id}/discussion_prompts (docs/discussion-prompts.md): a definition found
// by its own id, whose unit is the scope, and its prompts in the order a tutor asks them.
import { db } from '../../../db/kysely.ts';
import { couldBeRowId } from '../../../db/lookup.ts';
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../lib/errors.ts';

export const UNKNOWN_DEFINITION = 'Unable to find requested Task Definition';
export const UNKNOWN_PROMPT = 'Unable to find requested Discussion prompt';

export interface PromptRow {
  id: number;
  task_definition_id: number;
  content: string;
  priority: number;
  created_at: string;
  updated_at: string;
}

/** The definition and the unit it belongs to, for the unit scope (404 when unknown). */
export async function definitionAndUnit(em: Em, id: number): Promise<{ record: { id: number }; unitId: number }> {
  if (!couldBeRowId(id)) throw notFound(UNKNOWN_DEFINITION);
  const row = await db(em).selectFrom('task_definitions').select(['id', 'unit_id']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_DEFINITION);
  return { record: { id: row.id }, unitId: row.unit_id };
}

const iso = (value: string | Date) => new Date(value).toISOString();

export function promptRowsQuery(em: Em) {
  return db(em).selectFrom('discussion_prompts').select(['id', 'task_definition_id', 'content', 'priority', 'created_at', 'updated_at']);
}

/** A row as the driver returns it, with its times in ISO 8601. */
export function toPromptRow(r: PromptRow): PromptRow {
  return { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

/** The definitions' prompts, by priority then id: one query whatever their number. */
export async function listPrompts(em: Em, definitionIds: readonly number[]): Promise<PromptRow[]> {
  if (definitionIds.length === 0) return [];
  const rows = await promptRowsQuery(em)
    .where('task_definition_id', 'in', [...definitionIds])
    .orderBy('task_definition_id')
    .orderBy('priority')
    .orderBy('id')
    .execute();
  return rows.map(toPromptRow);
}
