// Export and import of a unit's task definitions as CSV (beyond-spec.md §1.8). The import goes
// through the same create and update operations as the API, one row at a time, each in its own
// savepoint: a refused row leaves nothing behind and does not stop the rows after it.
import type { IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import { readFile } from 'node:fs/promises';
import type { Em } from '../../../db/orm.ts';
import { CsvError, decodeCsv, missingHeaders, readCsv, writeCsv, type CsvRow } from '../../../domain/csv.ts';
import { checkCsv, notOfKindMessage } from '../../../lib/file-kinds.ts';
import { AppError, badRequest, forbidden } from '../../../lib/errors.ts';
import { unitCalendar } from '../../units/rollover-unit.ts';
import {
  REQUIRED_CSV_COLUMNS,
  TASK_DEFINITION_CSV_COLUMNS,
  RowError,
  definitionCsvRow,
  definitionFromCsvRow,
  isHeaderRow,
  prerequisitesFromCsvRow,
  promptsFromCsvRow,
  stepsFromCsvRow,
} from './csv-rows.ts';
import { listPrompts } from '../../task_definitions/discussion_prompts/prompt-rows.ts';
import { replacePrompts } from '../../task_definitions/discussion_prompts/save-prompt.ts';
import { importPrerequisites, prerequisitesForCsv, type RowPrerequisites } from './csv-prerequisites.ts';
import { replaceSteps } from '../../units/task_definitions/overseer_steps/save-step.ts';
import { stepRows } from '../../units/task_definitions/overseer_steps/step-rows.ts';
import { findTaskDefinition } from '../../units/task_definitions/find-task-definition.ts';
import { loadTaskDefinitions } from '../../units/task_definitions/load-task-definitions.ts';
import { createTaskDefinition, updateTaskDefinition } from '../../units/task_definitions/write-task-definition.ts';

/** What a CSV import answers: each data row lands in exactly one list. */
export interface CsvImportResult {
  success: { row: CsvRow; message: string }[];
  errors: { row: CsvRow; message: string }[];
  ignored: { row: CsvRow; message: string }[];
}

const day = (value: string | Date): string => (typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10));

/** The unit's definitions as CSV text, in the unit page's order. */
export async function taskDefinitionsCsv(em: Em, unit: IUnit): Promise<string> {
  const [calendar, definitions, groupSets] = await Promise.all([
    unitCalendar(em, unit),
    loadTaskDefinitions(em, unit.id),
    db(em).selectFrom('group_sets').select(['id', 'name']).where('unit_id', '=', unit.id).execute(),
  ]);
  const setName = new Map(groupSets.map((g) => [g.id, g.name]));
  const prerequisites = await prerequisitesForCsv(em, definitions);
  const steps = new Map<number, unknown[]>();
  for (const { id: _id, task_definition_id, ...settings } of await stepRows(
    em,
    definitions.map((d) => d.id),
  )) {
    steps.set(task_definition_id, [...(steps.get(task_definition_id) ?? []), settings]);
  }
  const prompts = new Map<number, { content: string; priority: number }[]>();
  for (const p of await listPrompts(
    em,
    definitions.map((d) => d.id),
  )) {
    prompts.set(p.task_definition_id, [...(prompts.get(p.task_definition_id) ?? []), { content: p.content, priority: p.priority }]);
  }
  return writeCsv(
    TASK_DEFINITION_CSV_COLUMNS,
    definitions.map((d) =>
      definitionCsvRow(calendar, {
        name: d.name,
        abbreviation: d.abbreviation,
        description: d.description,
        weighting: Number(d.weighting),
        targetGrade: d.target_grade,
        restrictStatusUpdates: d.restrict_status_updates,
        maxQualityPts: d.max_quality_pts,
        isGraded: d.is_graded,
        plagiarismWarnPct: d.plagiarism_warn_pct,
        plagiarismChecks: d.plagiarism_checks,
        groupSetName: d.group_set_id === null ? null : (setName.get(d.group_set_id) ?? null),
        uploadRequirements: d.upload_requirements,
        startDate: day(d.start_date),
        targetDate: day(d.target_date),
        dueDate: d.due_date === null ? null : day(d.due_date),
        streamAbbreviation: d.tutorial_stream_abbr ?? null,
        scormEnabled: d.scorm_enabled,
        scormAllowReview: d.scorm_allow_review,
        scormBypassTest: d.scorm_bypass_test,
        scormTimeDelayEnabled: d.scorm_time_delay_enabled,
        scormAttemptLimit: d.scorm_attempt_limit,
        scormTrust: d.scorm_trust,
        scormPassStatus: d.scorm_pass_status,
        overseerSteps: steps.get(d.id) ?? [],
        requiresDiscussion: d.requires_discussion,
        discussionPrompts: prompts.get(d.id) ?? [],
        prerequisites: prerequisites.get(d.id) ?? [],
      }),
    ),
  );
}

/**
 * Creates or updates the unit's definitions from CSV text. A row names its definition by
 * abbreviation, else by name; a definition no row names is left alone. Every column but the
 * online-test settings is required (400 "Missing headers: ..." otherwise).
 */
export async function importTaskDefinitionsCsv(em: Em, unit: IUnit, text: string): Promise<CsvImportResult> {
  const { headers, rows } = await readCsv(text);
  const missing = missingHeaders(headers, REQUIRED_CSV_COLUMNS);
  if (missing.length > 0) throw badRequest(`Missing headers: ${missing.join(', ')}`);

  const [calendar, groupSets, existing] = await Promise.all([
    unitCalendar(em, unit),
    db(em).selectFrom('group_sets').select(['id', 'name']).where('unit_id', '=', unit.id).execute(),
    db(em).selectFrom('task_definitions').select(['id', 'name', 'abbreviation']).where('unit_id', '=', unit.id).execute(),
  ]);
  const names = { groupSetId: (name: string) => groupSets.find((g) => g.name === name)?.id };
  // Kept current as rows are applied, so a later row finds a definition an earlier one made or renamed.
  const byAbbreviation = new Map(existing.map((d) => [d.abbreviation, d.id]));
  const byName = new Map(existing.map((d) => [d.name, d.id]));

  const result: CsvImportResult = { success: [], errors: [], ignored: [] };
  // Links name definitions by abbreviation, which a later row may create: applied once every row is.
  const links: RowPrerequisites[] = [];
  for (const row of rows) {
    if (isHeaderRow(row)) {
      result.ignored.push({ row, message: 'Header row skipped.' });
      continue;
    }
    try {
      const fields = definitionFromCsvRow(calendar, names, row);
      const steps = stepsFromCsvRow(row);
      const prompts = promptsFromCsvRow(row);
      const prerequisites = prerequisitesFromCsvRow(row);
      const id = byAbbreviation.get(fields.abbreviation) ?? byName.get(fields.name);
      // Names and abbreviations are unique in a unit: a clash is this row's error, caught before
      // the database would refuse it (and abort the whole import's transaction).
      const nameOwner = byName.get(fields.name);
      const abbreviationOwner = byAbbreviation.get(fields.abbreviation);
      if (nameOwner !== undefined && nameOwner !== id) throw new RowError(`Validation failed: Name has already been taken`);
      if (abbreviationOwner !== undefined && abbreviationOwner !== id) throw new RowError(`Validation failed: Abbreviation has already been taken`);

      const saved = await em.transactional(async (inner) => {
        const written =
          id === undefined
            ? await createTaskDefinition(inner, unit, fields)
            : await updateTaskDefinition(inner, unit, await findTaskDefinition(inner, unit.id, id), fields);
        if (steps) await replaceSteps(inner, written.id, steps);
        if (prompts) await replacePrompts(inner, written.id, prompts, new Date());
        return written;
      });
      if (id !== undefined) {
        for (const map of [byAbbreviation, byName]) for (const [key, value] of map) if (value === id) map.delete(key);
      }
      byAbbreviation.set(saved.abbreviation, saved.id);
      byName.set(saved.name, saved.id);
      const success = {
        row,
        message: id === undefined ? `Added new task definition ${saved.abbreviation}.` : `Updated existing task ${saved.abbreviation}`,
      };
      result.success.push(success);
      if (prerequisites) links.push({ success, taskDefinitionId: saved.id, prerequisites });
    } catch (error) {
      if (error instanceof RowError || error instanceof AppError) result.errors.push({ row, message: error.message });
      else throw error;
    }
  }
  await importPrerequisites(em, unit.id, links, result);
  return result;
}

/** POST /api/csv/task_definitions: the uploaded file at `path`, a CSV by its content (403 otherwise), imported into `unit`. */
export async function importTaskDefinitionsCsvFile(em: Em, unit: IUnit, path: string): Promise<CsvImportResult> {
  const kind = await checkCsv(path);
  if (!kind.ok) throw forbidden(notOfKindMessage('csv', kind.detected));
  try {
    return await importTaskDefinitionsCsv(em, unit, decodeCsv(await readFile(path)));
  } catch (error) {
    if (error instanceof CsvError) throw badRequest(error.message);
    throw error;
  }
}
