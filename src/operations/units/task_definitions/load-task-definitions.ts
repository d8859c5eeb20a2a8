// A unit's task definitions as read for the API: one query for a unit (or several), and the wire
// shape for staff or students, which the procedures, the unit detail and the CSV export share.
import { withPlayerLink } from '../../../domain/scorm-player-link.ts';
import { z } from 'zod';
import type { Em } from '../../../db/orm.ts';
import { db } from '../../../db/kysely.ts';
import { definitionFiles, type Storage } from '../../../storage/index.ts';
import type { IUnit } from '../../../../schema/index.ts';
import { SCORM_TRUST, SCORM_VERSIONS, TASK_STATUSES } from '../../../domain/vocabulary.ts';

// ---- Output: the TaskDefinition entity (beyond-spec.md §1.5, web-client.md 3.3c) ----------------

const uploadRequirementOut = z.object({
  key: z.string(),
  name: z.string(),
  type: z.string(),
  tii_check: z.boolean().optional(),
  tii_pct: z.number().optional(),
});

export const taskDefinitionOut = z.object({
  id: z.number().int(),
  abbreviation: z.string(),
  name: z.string(),
  description: z.string(),
  weighting: z.number(),
  target_grade: z.number().int(),
  target_date: z.string(),
  /** The unit's end date when the definition has none. */
  due_date: z.string(),
  start_date: z.string(),
  upload_requirements: z.array(uploadRequirementOut),
  tutorial_stream_abbr: z.string().nullable(),
  group_set_id: z.number().int().nullable(),
  has_task_sheet: z.boolean(),
  has_task_resources: z.boolean(),
  is_graded: z.boolean(),
  max_quality_pts: z.number().int(),
  // Online tests (docs/online-tests.md): the newer web client reads these as a student too.
  scorm_enabled: z.boolean(),
  /** A package is stored (its manifest was read on upload). */
  has_scorm_data: z.boolean(),
  scorm_allow_review: z.boolean(),
  scorm_bypass_test: z.boolean(),
  scorm_time_delay_enabled: z.boolean(),
  scorm_attempt_limit: z.number().int().describe('0: unlimited'),
  // Students see it too: their task cannot be signed off without a discussion (docs/discussion-prompts.md).
  requires_discussion: z.boolean(),
  // Staff only (unit Tutor, Convenor or Admin):
  plagiarism_checks: z.array(z.object({ key: z.string(), type: z.string(), pattern: z.string() })).optional(),
  plagiarism_warn_pct: z.number().int().optional(),
  restrict_status_updates: z.boolean().optional(),
  has_task_assessment_resources: z.boolean().optional(),
  overseer_image_id: z.number().int().nullable().optional(),
  assessment_enabled: z.boolean().optional(),
  moss_language: z.string().nullable().optional(),
  scorm_trust: z.enum(SCORM_TRUST).optional(),
  scorm_pass_status: z.enum(TASK_STATUSES).nullable().optional(),
  scorm_version: z.enum(SCORM_VERSIONS).nullable().optional(),
  scorm_launch_file: z.string().nullable().optional(),
});
export type TaskDefinitionOut = z.infer<typeof taskDefinitionOut>;

function definitionsQuery(em: Em) {
  return db(em)
    .selectFrom('task_definitions as d')
    .leftJoin('tutorial_streams as s', 's.id', 'd.tutorial_stream_id')
    .select([
      'd.id',
      'd.unit_id',
      'd.abbreviation',
      'd.name',
      'd.description',
      'd.weighting',
      'd.target_grade',
      'd.start_date',
      'd.target_date',
      'd.due_date',
      'd.upload_requirements',
      'd.plagiarism_checks',
      'd.plagiarism_warn_pct',
      'd.restrict_status_updates',
      'd.group_set_id',
      'd.is_graded',
      'd.max_quality_pts',
      'd.overseer_image_id',
      'd.assessment_enabled',
      'd.moss_language',
      'd.scorm_enabled',
      'd.scorm_allow_review',
      'd.scorm_bypass_test',
      'd.scorm_time_delay_enabled',
      'd.scorm_attempt_limit',
      'd.scorm_trust',
      'd.scorm_pass_status',
      'd.scorm_version',
      'd.scorm_launch_file',
      'd.requires_discussion',
      's.abbreviation as tutorial_stream_abbr',
    ]);
}

/** A definition as read by the loaders below: the row plus its stream's abbreviation. */
export type TaskDefinitionRow = Awaited<ReturnType<ReturnType<typeof definitionsQuery>['executeTakeFirstOrThrow']>>;

/** Which stored files a definition has; every flag false until the files issue stores them. */
export interface DefinitionFiles {
  sheet: boolean;
  resources: boolean;
  assessmentResources: boolean;
}
const NO_FILES: DefinitionFiles = { sheet: false, resources: false, assessmentResources: false };

/**
 * The wire shape for one caller: staff see every field; students do not see the staff-only ones,
 * nor the similarity-check settings inside the upload requirements.
 */
export function toTaskDefinition(d: TaskDefinitionRow, opts: { staff: boolean; unitEndDate: string; files?: DefinitionFiles }): TaskDefinitionOut {
  const files = opts.files ?? NO_FILES;
  const out: TaskDefinitionOut = {
    id: d.id,
    abbreviation: d.abbreviation,
    name: d.name,
    description: withPlayerLink(d.description, d.id, d.scorm_enabled && d.scorm_version !== null),
    weighting: Number(d.weighting),
    target_grade: d.target_grade,
    target_date: day(d.target_date),
    due_date: d.due_date === null ? day(opts.unitEndDate) : day(d.due_date),
    start_date: day(d.start_date),
    upload_requirements: opts.staff ? d.upload_requirements : d.upload_requirements.map(({ key, name, type }) => ({ key, name, type })),
    tutorial_stream_abbr: d.tutorial_stream_abbr ?? null,
    group_set_id: d.group_set_id,
    has_task_sheet: files.sheet,
    has_task_resources: files.resources,
    is_graded: d.is_graded,
    max_quality_pts: d.max_quality_pts,
    scorm_enabled: d.scorm_enabled,
    has_scorm_data: d.scorm_version !== null,
    scorm_allow_review: d.scorm_allow_review,
    scorm_bypass_test: d.scorm_bypass_test,
    scorm_time_delay_enabled: d.scorm_time_delay_enabled,
    scorm_attempt_limit: d.scorm_attempt_limit,
    requires_discussion: d.requires_discussion,
  };
  if (opts.staff) {
    Object.assign(out, {
      plagiarism_checks: d.plagiarism_checks,
      plagiarism_warn_pct: d.plagiarism_warn_pct,
      restrict_status_updates: d.restrict_status_updates,
      has_task_assessment_resources: files.assessmentResources,
      overseer_image_id: d.overseer_image_id,
      assessment_enabled: d.assessment_enabled,
      moss_language: d.moss_language,
      scorm_trust: d.scorm_trust,
      scorm_pass_status: d.scorm_pass_status,
      scorm_version: d.scorm_version,
      scorm_launch_file: d.scorm_launch_file,
    });
  }
  return out;
}

/** A date column as 'YYYY-MM-DD', whether the driver gave text or a Date. */
function day(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/** A unit's definitions in the unit page's order (start date, then abbreviation): one query. */
export function loadTaskDefinitions(em: Em, unitId: number): Promise<TaskDefinitionRow[]> {
  return definitionsQuery(em).where('d.unit_id', '=', unitId).orderBy('d.start_date').orderBy('d.abbreviation').orderBy('d.id').execute();
}

/** The definitions of several units, grouped by unit id: one query. */
export async function loadTaskDefinitionsByUnit(em: Em, unitIds: readonly number[]): Promise<Map<number, TaskDefinitionRow[]>> {
  const byUnit = new Map<number, TaskDefinitionRow[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await definitionsQuery(em)
    .where('d.unit_id', 'in', [...unitIds])
    .orderBy('d.start_date')
    .orderBy('d.abbreviation')
    .orderBy('d.id')
    .execute();
  for (const row of rows) byUnit.get(row.unit_id)?.push(row);
  return byUnit;
}

export function loadTaskDefinition(em: Em, id: number): Promise<TaskDefinitionRow | undefined> {
  return definitionsQuery(em).where('d.id', '=', id).executeTakeFirst();
}

/** A definition just written, read back in the wire shape staff see. */
export async function definitionForStaff(em: Em, unit: Pick<IUnit, 'endDate'>, id: number, storage: Storage): Promise<TaskDefinitionOut> {
  const row = await loadTaskDefinition(em, id);
  if (!row) throw new Error(`task definition ${id} vanished inside its own transaction`);
  const files = (await definitionFiles(storage, [id])).get(id);
  return toTaskDefinition(row, { staff: true, unitEndDate: unit.endDate, files });
}
