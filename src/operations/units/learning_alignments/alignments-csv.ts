// Alignments as CSV (behaviour.md §9.3): `unit_code, learning_outcome, task_abbr, rating,
// description`, outcomes and definitions named by abbreviation so a file moves between units.
import { LearningAlignment, type ILearningAlignment, type IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { missingHeaders, readCsv, writeCsv, type CsvRow } from '../../../domain/csv.ts';
import { badRequest } from '../../../lib/errors.ts';
import type { CsvImportResult as CsvImportOut } from '../../csv/csv-import-result.ts';
import { MAX_RATING, MIN_RATING } from './alignment-row.ts';

export const ALIGNMENT_CSV_COLUMNS = ['unit_code', 'learning_outcome', 'task_abbr', 'rating', 'description'] as const;
const REQUIRED = ['unit_code', 'learning_outcome', 'task_abbr', 'rating'];
const MAX_DESCRIPTION = 4095;

/** The unit's own alignments (no project), or one student's self-assessments, in the order they were made. */
export async function alignmentsCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>, projectId: number | null): Promise<string> {
  let query = db(em)
    .selectFrom('learning_alignments as a')
    .innerJoin('learning_outcomes as o', 'o.id', 'a.learning_outcome_id')
    .innerJoin('task_definitions as d', 'd.id', 'a.task_definition_id')
    .select(['o.abbreviation as outcome', 'd.abbreviation as task', 'a.rating', 'a.description'])
    .where('d.unit_id', '=', unit.id)
    .orderBy('a.id');
  query = projectId === null ? query.where('a.task_id', 'is', null) : query.innerJoin('tasks as t', 't.id', 'a.task_id').where('t.project_id', '=', projectId);
  const rows = await query.execute();
  return writeCsv(
    ALIGNMENT_CSV_COLUMNS,
    rows.map((r) => [unit.code, r.outcome, r.task, r.rating, r.description]),
  );
}

/**
 * Adds or changes alignments from a CSV file: the unit's own, or (with a project) the student's
 * self-assessments of tasks they have. A row is found by its outcome and task (definition) and
 * its rating and description set. Rows of another unit are ignored; a row naming an unknown
 * outcome, task or missing task, or with a rating outside 1..5, is an error and changes nothing.
 * Four reads and one write whatever the number of rows.
 */
export async function importAlignmentsCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>, projectId: number | null, text: string): Promise<CsvImportOut> {
  const { headers, rows } = await readCsv(text);
  const missing = missingHeaders(headers, REQUIRED);
  if (missing.length > 0) throw badRequest(`Missing headers: ${missing.join(', ')}`);

  const k = db(em);
  // The same lock as a single create takes, so the two cannot add one pair twice.
  const definitions = await k.selectFrom('task_definitions').select(['id', 'abbreviation']).where('unit_id', '=', unit.id).forUpdate().execute();
  const outcomes = await k.selectFrom('learning_outcomes').select(['id', 'abbreviation']).where('unit_id', '=', unit.id).execute();
  const tasks = projectId === null ? [] : await k.selectFrom('tasks').select(['id', 'task_definition_id']).where('project_id', '=', projectId).execute();
  const existing = (await em.find(
    LearningAlignment,
    projectId === null ? { taskDefinition: { unit: unit.id }, task: null } : { task: { project: projectId } },
  )) as ILearningAlignment[];

  const outcomeByAbbr = new Map(outcomes.map((o) => [o.abbreviation, o.id]));
  const definitionByAbbr = new Map(definitions.map((d) => [d.abbreviation, d.id]));
  const taskByDefinition = new Map(tasks.map((t) => [t.task_definition_id, t.id]));
  const key = (definitionId: number, outcomeId: number) => `${definitionId}/${outcomeId}`;
  const links = new Map(existing.map((a) => [key(refId(a.taskDefinition), refId(a.learningOutcome)), a]));
  const scope = projectId === null ? 'unit' : 'student';

  const result: CsvImportOut = { success: [], errors: [], ignored: [] };
  for (const row of rows) {
    if (row.unit_code !== unit.code) {
      result.ignored.push({ row, message: `Invalid unit code. ${row.unit_code} does not match ${unit.code}` });
      continue;
    }
    const outcomeId = outcomeByAbbr.get(row.learning_outcome);
    const definitionId = definitionByAbbr.get(row.task_abbr);
    const taskId = definitionId === undefined ? undefined : taskByDefinition.get(definitionId);
    const rating = ratingOf(row);
    const description = row.description ?? '';
    const problem =
      outcomeId === undefined
        ? `Unable to locate learning outcome with abbreviation ${row.learning_outcome}`
        : definitionId === undefined
          ? `Unable to locate task with abbreviation ${row.task_abbr}`
          : projectId !== null && taskId === undefined
            ? `Unable to locate task related to ${row.task_abbr}`
            : rating === undefined
              ? `Rating must be a whole number from ${MIN_RATING} to ${MAX_RATING}`
              : description.length > MAX_DESCRIPTION
                ? `Description is too long (maximum is ${MAX_DESCRIPTION} characters)`
                : undefined;
    if (problem) {
      result.errors.push({ row, message: problem });
      continue;
    }
    const link = links.get(key(definitionId!, outcomeId!));
    if (link) {
      link.rating = rating!;
      link.description = description;
    } else {
      const created = em.create(LearningAlignment, {
        taskDefinition: definitionId!,
        learningOutcome: outcomeId!,
        task: taskId ?? null,
        rating: rating!,
        description,
      }) as ILearningAlignment;
      links.set(key(definitionId!, outcomeId!), created);
    }
    result.success.push({
      row,
      message: `Link between task ${row.task_abbr} and outcome ${row.learning_outcome} ${link ? 'updated' : 'created'} for ${scope}`,
    });
  }
  await em.flush();
  return result;
}

function ratingOf(row: CsvRow): number | undefined {
  if (!/^\d+$/.test(row.rating)) return undefined;
  const rating = Number(row.rating);
  return rating >= MIN_RATING && rating <= MAX_RATING ? rating : undefined;
}

function refId(ref: unknown): number {
  return typeof ref === 'number' ? ref : (ref as { id: number }).id;
}
