// A unit's feedback templates as CSV (docs/marking/templates.md): one row per template, its group
// by name and, for a definition's group, the definition's abbreviation.
import type { IUnit, TaskStatus } from '../../../../schema/index.ts';
import { TASK_STATUSES } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { MAX_COMMENT_CHARS } from '../../../domain/comment-attachments.ts';
import { missingHeaders, readCsv, writeCsv, type CsvRow } from '../../../domain/csv.ts';
import type { CsvImportResult } from '../../csv/csv-import-result.ts';

export const TEMPLATE_CSV_COLUMNS = ['group', 'task_definition', 'title', 'text', 'suggested_status'] as const;

export async function templatesCsv(em: Em, unit: Pick<IUnit, 'id'>): Promise<string> {
  const rows = await db(em)
    .selectFrom('feedback_templates as t')
    .innerJoin('feedback_template_groups as g', 'g.id', 't.group_id')
    .leftJoin('task_definitions as d', 'd.id', 'g.task_definition_id')
    .select(['g.name', 'd.abbreviation', 't.title', 't.text', 't.suggested_status'])
    .where('g.unit_id', '=', unit.id)
    .orderBy('g.id')
    .orderBy('t.id')
    .execute();
  return writeCsv(
    TEMPLATE_CSV_COLUMNS,
    rows.map((r) => [r.name, r.abbreviation ?? '', r.title, r.text, r.suggested_status ?? '']),
  );
}

/**
 * Adds the file's templates to the unit: a group is found by name and definition, or created; a
 * template whose title its group already has is left as it is (ignored). A refused row does not
 * stop the others.
 */
export async function importTemplatesCsv(em: Em, unit: Pick<IUnit, 'id'>, text: string, now: Date): Promise<CsvImportResult> {
  const { headers, rows } = await readCsv(text);
  const result: CsvImportResult = { success: [], errors: [], ignored: [] };
  const missing = missingHeaders(headers, ['group', 'title', 'text']);
  if (missing.length > 0) {
    result.errors = rows.map((row) => ({ row, message: `Missing headers: ${missing.join(', ')}` }));
    return result;
  }
  const k = db(em);
  const at = now.toISOString();
  const [definitions, groups, templates] = await Promise.all([
    k.selectFrom('task_definitions').select(['id', 'abbreviation']).where('unit_id', '=', unit.id).execute(),
    k.selectFrom('feedback_template_groups').select(['id', 'name', 'task_definition_id']).where('unit_id', '=', unit.id).execute(),
    k
      .selectFrom('feedback_templates as t')
      .innerJoin('feedback_template_groups as g', 'g.id', 't.group_id')
      .select(['t.group_id', 't.title'])
      .where('g.unit_id', '=', unit.id)
      .execute(),
  ]);
  const definitionId = new Map(definitions.map((d) => [d.abbreviation, d.id]));
  const groupKey = (name: string, definition: number | null) => `${definition ?? ''}\u0000${name}`;
  const groupId = new Map(groups.map((g) => [groupKey(g.name, g.task_definition_id), g.id]));
  const titles = new Set(templates.map((t) => `${t.group_id}\u0000${t.title}`));

  for (const row of rows) {
    const problem = rowProblem(row);
    if (problem) {
      result.errors.push({ row, message: problem });
      continue;
    }
    const abbreviation = (row.task_definition ?? '').trim();
    const definition = abbreviation === '' ? null : (definitionId.get(abbreviation) ?? undefined);
    if (definition === undefined) {
      result.errors.push({ row, message: `Unable to find task with abbreviation ${abbreviation}` });
      continue;
    }
    const key = groupKey(row.group.trim(), definition);
    let group = groupId.get(key);
    if (group === undefined) {
      const made = await k
        .insertInto('feedback_template_groups')
        .values({ unit_id: unit.id, task_definition_id: definition, name: row.group.trim(), created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      group = made.id;
      groupId.set(key, group);
    }
    const title = row.title.trim();
    if (titles.has(`${group}\u0000${title}`)) {
      result.ignored.push({ row, message: `Template ${title} already exists in group ${row.group.trim()}; it was not changed` });
      continue;
    }
    titles.add(`${group}\u0000${title}`);
    const status = (row.suggested_status ?? '').trim();
    await k
      .insertInto('feedback_templates')
      .values({ group_id: group, title, text: row.text, suggested_status: status === '' ? null : (status as TaskStatus), created_at: at, updated_at: at })
      .execute();
    result.success.push({ row, message: `Template ${title} created` });
  }
  return result;
}

function rowProblem(row: CsvRow): string | undefined {
  for (const column of ['group', 'title', 'text'] as const) if ((row[column] ?? '').trim() === '') return `Missing ${column}`;
  if (row.group.trim().length > 255) return 'Group is too long (maximum is 255 characters)';
  if (row.title.trim().length > 255) return 'Title is too long (maximum is 255 characters)';
  if ([...row.text].length > MAX_COMMENT_CHARS) return `Text is too long (maximum is ${MAX_COMMENT_CHARS} characters)`;
  const status = (row.suggested_status ?? '').trim();
  if (status !== '' && !(TASK_STATUSES as readonly string[]).includes(status)) return `Unknown suggested status ${status}`;
  return undefined;
}
