// Writing a definition's discussion prompts (docs/discussion-prompts.md): one at a time through the
// API, or all of them at once from the task-definition CSV (an import replaces them).
import { db } from '../../../db/kysely.ts';
import { couldBeRowId } from '../../../db/lookup.ts';
import type { Em } from '../../../db/orm.ts';
import { PROMPT_PRIORITY, promptProblem, type PromptSettings } from '../../../domain/discussion-prompts.ts';
import { badRequest, notFound } from '../../../lib/errors.ts';
import { promptRowsQuery, toPromptRow, UNKNOWN_PROMPT, type PromptRow } from './prompt-rows.ts';

/** Trimmed and checked (400 naming the problem). */
function checked(prompt: PromptSettings): PromptSettings {
  const settings = { content: prompt.content.trim(), priority: prompt.priority };
  const problem = promptProblem(settings);
  if (problem) throw badRequest(`Validation failed: ${problem}`);
  return settings;
}

export async function createPrompt(em: Em, definitionId: number, input: { content: string; priority?: number }, now: Date): Promise<PromptRow> {
  const prompt = checked({ content: input.content, priority: input.priority ?? PROMPT_PRIORITY.default });
  const at = now.toISOString();
  const row = await db(em)
    .insertInto('discussion_prompts')
    .values({ task_definition_id: definitionId, ...prompt, created_at: at, updated_at: at })
    .returning(['id', 'task_definition_id', 'content', 'priority', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
  return toPromptRow(row);
}

/** A prompt of this definition (404 for another definition's): the fields given change, the others stay. */
export async function updatePrompt(em: Em, definitionId: number, id: number, input: { content?: string; priority?: number }, now: Date): Promise<PromptRow> {
  const current = await promptOf(em, definitionId, id);
  const prompt = checked({ content: input.content ?? current.content, priority: input.priority ?? current.priority });
  const row = await db(em)
    .updateTable('discussion_prompts')
    .set({ ...prompt, updated_at: now.toISOString() })
    .where('id', '=', id)
    .returning(['id', 'task_definition_id', 'content', 'priority', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
  return toPromptRow(row);
}

export async function deletePrompt(em: Em, definitionId: number, id: number): Promise<{ id: number; deleted: true }> {
  await promptOf(em, definitionId, id);
  await db(em).deleteFrom('discussion_prompts').where('id', '=', id).execute();
  return { id, deleted: true };
}

/** The prompt, locked for the change; 404 when unknown or another definition's. */
async function promptOf(em: Em, definitionId: number, id: number) {
  if (!couldBeRowId(id)) throw notFound(UNKNOWN_PROMPT);
  const row = await promptRowsQuery(em).where('id', '=', id).where('task_definition_id', '=', definitionId).forUpdate().executeTakeFirst();
  if (!row) throw notFound(UNKNOWN_PROMPT);
  return row;
}

/** The CSV import: the definition's prompts become these (checked), in two statements. */
export async function replacePrompts(em: Em, definitionId: number, prompts: PromptSettings[], now: Date): Promise<void> {
  const rows = prompts.map(checked);
  const k = db(em);
  await k.deleteFrom('discussion_prompts').where('task_definition_id', '=', definitionId).execute();
  if (rows.length === 0) return;
  const at = now.toISOString();
  await k
    .insertInto('discussion_prompts')
    .values(rows.map((p) => ({ task_definition_id: definitionId, ...p, created_at: at, updated_at: at })))
    .execute();
}
