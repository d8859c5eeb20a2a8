// The task definition CSV (beyond-spec.md §1.8): one definition per row, its dates as teaching
// week and weekday of the unit's calendar, its JSON settings as JSON text so the file re-imports.
// Pure: rows in, fields out; the unit's calendar and names are passed in.
import { parsePromptsJson, type PromptSettings } from '../../../domain/discussion-prompts.ts';
import { parseStepsJson, type StepSettings } from '../../../domain/overseer-steps.ts';
import { DefinitionError, MAX_DESCRIPTION, parsePlagiarismChecks, parseUploadRequirements } from '../../../domain/task-definitions.ts';
import { WEEKDAYS, dateForWeekAndDay, weekNumber, weekdayOf, type PeriodCalendar, type Weekday } from '../../../domain/weeks.ts';
import type { CsvRow } from '../../../domain/csv.ts';
import { parsePrerequisitesJson, type CsvPrerequisite } from '../../../domain/prerequisites.ts';
import { SCORM_TRUST, TASK_STATUSES, type ScormTrust, type TaskStatus } from '../../../domain/vocabulary.ts';
import type { TaskDefinitionFields } from '../../units/task_definitions/write-task-definition.ts';

export const TASK_DEFINITION_CSV_COLUMNS = [
  'name',
  'abbreviation',
  'description',
  'weighting',
  'target_grade',
  'restrict_status_updates',
  'max_quality_pts',
  'is_graded',
  'plagiarism_warn_pct',
  'plagiarism_checks',
  // The online-test settings, where the original puts them; the last two are this service's own.
  'scorm_enabled',
  'scorm_allow_review',
  'scorm_bypass_test',
  'scorm_time_delay_enabled',
  'scorm_attempt_limit',
  'group_set',
  'upload_requirements',
  'start_week',
  'start_day',
  'target_week',
  'target_day',
  'due_week',
  'due_day',
  'tutorial_stream',
  'scorm_trust',
  'scorm_pass_status',
  'requires_discussion',
  'discussion_prompts',
  'prerequisites',
  'overseer_steps',
] as const;

/**
 * Columns an import may lack, and what their absence means:
 * - the online-test settings (files written before online tests): the setting stays as it is (a new
 *   definition takes the default);
 * - `overseer_steps` (docs/assessment-steps.md), a JSON array of the definition's steps in run
 *   order: left out or blank, the steps stay as they are; `[]` removes them;
 * - `requires_discussion` and `discussion_prompts` (docs/discussion-prompts.md, a JSON array of
 *   `{content, priority}`), alike: left out or blank, unchanged; a list replaces the prompts.
 * - `prerequisites` (docs/prerequisites.md), a JSON array of `{abbreviation, task_status}`: left
 *   out or blank, the links stay as they are; `[]` removes them.
 * Every other column is required.
 */
export const OPTIONAL_CSV_COLUMNS: readonly string[] = [
  'scorm_enabled',
  'scorm_allow_review',
  'scorm_bypass_test',
  'scorm_time_delay_enabled',
  'scorm_attempt_limit',
  'scorm_trust',
  'scorm_pass_status',
  'overseer_steps',
  'requires_discussion',
  'discussion_prompts',
  'prerequisites',
];
export const REQUIRED_CSV_COLUMNS = TASK_DEFINITION_CSV_COLUMNS.filter((c) => !OPTIONAL_CSV_COLUMNS.includes(c));

/** What one exported row is made from. */
export interface DefinitionForCsv {
  name: string;
  abbreviation: string;
  description: string;
  weighting: number;
  targetGrade: number;
  restrictStatusUpdates: boolean;
  maxQualityPts: number;
  isGraded: boolean;
  plagiarismWarnPct: number;
  plagiarismChecks: unknown[];
  groupSetName: string | null;
  uploadRequirements: unknown[];
  startDate: string;
  targetDate: string;
  dueDate: string | null;
  streamAbbreviation: string | null;
  scormEnabled: boolean;
  scormAllowReview: boolean;
  scormBypassTest: boolean;
  scormTimeDelayEnabled: boolean;
  scormAttemptLimit: number;
  scormTrust: string;
  scormPassStatus: string | null;
  /** The definition's steps' settings, in run order. */
  overseerSteps: unknown[];
  requiresDiscussion: boolean;
  /** `{content, priority}` by priority, then id. */
  discussionPrompts: PromptSettings[];
  /** Its prerequisites, by abbreviation. */
  prerequisites: CsvPrerequisite[];
}

const weekAndDay = (cal: PeriodCalendar, day: string): [number, Weekday] => [weekNumber(cal, day), WEEKDAYS[weekdayOf(day)]!];

export function definitionCsvRow(cal: PeriodCalendar, d: DefinitionForCsv): (string | number | boolean)[] {
  const due = d.dueDate === null ? ['', ''] : weekAndDay(cal, d.dueDate);
  return [
    d.name,
    d.abbreviation,
    d.description,
    d.weighting,
    d.targetGrade,
    d.restrictStatusUpdates,
    d.maxQualityPts,
    d.isGraded,
    d.plagiarismWarnPct,
    JSON.stringify(d.plagiarismChecks),
    d.scormEnabled,
    d.scormAllowReview,
    d.scormBypassTest,
    d.scormTimeDelayEnabled,
    d.scormAttemptLimit,
    d.groupSetName ?? '',
    JSON.stringify(d.uploadRequirements),
    ...weekAndDay(cal, d.startDate),
    ...weekAndDay(cal, d.targetDate),
    ...due,
    d.streamAbbreviation ?? '',
    d.scormTrust,
    d.scormPassStatus ?? '',
    d.requiresDiscussion,
    JSON.stringify(d.discussionPrompts),
    JSON.stringify(d.prerequisites),
    JSON.stringify(d.overseerSteps),
  ];
}

/** A refused row: the message goes to the answer's `errors`. */
export class RowError extends Error {}

const TRUE = new Set(['yes', 'y', 'true', '1']);
const bool = (value: string) => TRUE.has(value.trim().toLowerCase());

function whole(row: CsvRow, column: string, fallback: number): number {
  const text = row[column] ?? '';
  if (text === '') return fallback;
  // Spreadsheets write whole numbers as "4.0" too.
  const n = Number(text);
  if (!Number.isInteger(n) || Math.abs(n) > 2 ** 31 - 1) throw new RowError(`${column} is not a whole number: ${text}`);
  return n;
}

function dayOf(cal: PeriodCalendar, row: CsvRow, which: 'start' | 'target' | 'due'): string | null {
  const week = row[`${which}_week`] ?? '';
  const day = row[`${which}_day`] ?? '';
  if (which === 'due' && week === '' && day === '') return null;
  const weekday = WEEKDAYS.find((w) => w.toLowerCase() === day.slice(0, 3).toLowerCase() && day.length >= 3);
  const n = Number(week);
  if (week === '' || !Number.isInteger(n) || !weekday) {
    throw new RowError(`Unable to determine ${which} date for ${row.abbreviation} -- need week number, and day short text eg. 'Wed'`);
  }
  return dateForWeekAndDay(cal, n, weekday);
}

function json<T>(parse: (v: unknown) => T, value: string): T {
  try {
    return parse(value);
  } catch (error) {
    if (error instanceof DefinitionError) throw new RowError(`Validation failed: ${error.message}`);
    throw error;
  }
}

/** A column of `values`; absent: undefined; empty: `empty`. */
function choice<T extends string, E>(row: CsvRow, column: string, values: readonly T[], empty: E): T | E | undefined {
  const text = row[column];
  if (text === undefined) return undefined;
  const value = text.trim();
  if (value === '') return empty;
  if (!(values as readonly string[]).includes(value)) throw new RowError(`Validation failed: ${column} must be one of ${values.join(', ')}: ${value}`);
  return value as T;
}

/** The online-test settings of a row; a column the file lacks stays undefined (unchanged). */
function scormFromCsvRow(row: CsvRow): Partial<TaskDefinitionFields> {
  const flag = (column: string) => (row[column] === undefined ? undefined : bool(row[column]));
  let scormAttemptLimit: number | undefined;
  if (row.scorm_attempt_limit !== undefined) {
    scormAttemptLimit = whole(row, 'scorm_attempt_limit', 0);
    if (scormAttemptLimit < 0) throw new RowError('Validation failed: scorm_attempt_limit must be 0 (unlimited) or more');
  }
  return {
    scormEnabled: flag('scorm_enabled'),
    scormAllowReview: flag('scorm_allow_review'),
    scormBypassTest: flag('scorm_bypass_test'),
    scormTimeDelayEnabled: flag('scorm_time_delay_enabled'),
    scormAttemptLimit,
    scormTrust: choice<ScormTrust, ScormTrust>(row, 'scorm_trust', SCORM_TRUST, 'package'),
    scormPassStatus: choice<TaskStatus, null>(row, 'scorm_pass_status', TASK_STATUSES, null),
  };
}

/** Group sets and streams are named in the file; the unit's ids for those names. */
export interface UnitNames {
  groupSetId(name: string): number | undefined;
}

/**
 * The fields of one row, for a new definition or for one being updated (every column but the
 * optional ones is required, so every other field is set). Throws RowError with the reason a row cannot be used.
 */
export function definitionFromCsvRow(cal: PeriodCalendar, names: UnitNames, row: CsvRow): TaskDefinitionFields {
  if (!row.abbreviation || !row.name) throw new RowError('Abbreviation and name cannot be empty.');
  for (const [column, max] of [
    ['name', 255],
    ['abbreviation', 255],
    ['description', MAX_DESCRIPTION],
  ] as const) {
    if ((row[column] ?? '').length > max) throw new RowError(`Validation failed: ${column} is too long (maximum is ${max} characters)`);
  }
  const weighting = whole(row, 'weighting', 0);
  if (weighting < 0) throw new RowError('Validation failed: weighting is negative');
  let groupSetId: number | null = null;
  if (row.group_set) {
    const id = names.groupSetId(row.group_set);
    if (id === undefined) throw new RowError(`Unable to find groupset with name ${row.group_set} in unit.`);
    groupSetId = id;
  }
  const targetDate = dayOf(cal, row, 'target')!;
  const startDate = dayOf(cal, row, 'start')!;
  return {
    name: row.name,
    abbreviation: row.abbreviation,
    description: row.description ?? '',
    weighting,
    targetGrade: whole(row, 'target_grade', 0),
    restrictStatusUpdates: bool(row.restrict_status_updates ?? ''),
    maxQualityPts: whole(row, 'max_quality_pts', 0),
    isGraded: bool(row.is_graded ?? ''),
    plagiarismWarnPct: whole(row, 'plagiarism_warn_pct', 50),
    plagiarismChecks: json(parsePlagiarismChecks, row.plagiarism_checks ?? ''),
    uploadRequirements: json(parseUploadRequirements, row.upload_requirements ?? ''),
    groupSetId,
    startDate,
    targetDate,
    dueDate: dayOf(cal, row, 'due'),
    tutorialStreamAbbr: row.tutorial_stream || null,
    requiresDiscussion: (row.requires_discussion ?? '').trim() === '' ? undefined : bool(row.requires_discussion!),
    ...scormFromCsvRow(row),
  };
}

/** A data row that repeats the header (files pasted together): skipped. */
export function isHeaderRow(row: CsvRow): boolean {
  return row.name?.trim().toLowerCase() === 'name' && row.abbreviation?.trim().toLowerCase() === 'abbreviation';
}

/** A JSON list column: undefined when absent or blank (left as it is), else the checked list (a RowError naming the problem). */
function jsonListCell<T>(row: CsvRow, column: string, parse: (text: string) => T[]): T[] | undefined {
  const text = (row[column] ?? '').trim();
  if (text === '') return undefined;
  try {
    return parse(text);
  } catch (error) {
    throw new RowError(`Validation failed: ${(error as Error).message}`);
  }
}

/** The row's steps (docs/assessment-steps.md). */
export const stepsFromCsvRow = (row: CsvRow): StepSettings[] | undefined => jsonListCell(row, 'overseer_steps', parseStepsJson);

/** The row's discussion prompts (docs/discussion-prompts.md). */
export const promptsFromCsvRow = (row: CsvRow): PromptSettings[] | undefined => jsonListCell(row, 'discussion_prompts', parsePromptsJson);

/** The row's prerequisites (docs/prerequisites.md). */
export const prerequisitesFromCsvRow = (row: CsvRow): CsvPrerequisite[] | undefined =>
  jsonListCell(row, 'prerequisites', (text) => {
    try {
      return parsePrerequisitesJson(text);
    } catch (error) {
      throw new Error(`prerequisites ${(error as Error).message}`);
    }
  });
