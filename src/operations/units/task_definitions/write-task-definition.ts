// Creating, changing and deleting task definitions. Each takes the entity manager and
// plain input, so the procedures, rollover, the CSV import and the demo seed share one set of rules.
import { withoutPlayerLink } from '../../../domain/scorm-player-link.ts';
import { TaskDefinition, type ITaskDefinition, type IUnit } from '../../../../schema/index.ts';
import type { PlagiarismCheck, UploadRequirement } from '../../../../schema/units.ts';
import type { Em } from '../../../db/orm.ts';
import { db } from '../../../db/kysely.ts';
import { refIdOrNull } from '../../../db/refs.ts';
import { definitionProblem, isSingleDocument } from '../../../domain/task-definitions.ts';
import type { ScormTrust, TaskStatus } from '../../../domain/vocabulary.ts';
import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';
import { refuseBrokenLinks } from './prerequisites/save-prerequisite.ts';

export interface TaskDefinitionFields {
  name: string;
  abbreviation: string;
  description: string;
  weighting: number;
  targetGrade: number;
  /** Days, 'YYYY-MM-DD'. */
  startDate: string;
  targetDate: string;
  /** Null: the unit's end date. */
  dueDate?: string | null;
  restrictStatusUpdates: boolean;
  uploadRequirements?: UploadRequirement[];
  plagiarismChecks?: PlagiarismCheck[];
  plagiarismWarnPct: number;
  isGraded: boolean;
  maxQualityPts: number;
  /** A group set of this unit; null or negative for none; a set of another unit is ignored. */
  groupSetId?: number | null;
  /** A stream of this unit by abbreviation (404 when unknown); null for none. */
  tutorialStreamAbbr?: string | null;
  assessmentEnabled?: boolean;
  /** Null or negative for none. */
  overseerImageId?: number | null;
  // Online tests (docs/online-tests.md, "Settings"); absent on create: the column's default.
  scormEnabled?: boolean;
  scormAllowReview?: boolean;
  scormBypassTest?: boolean;
  scormTimeDelayEnabled?: boolean;
  /** 0: unlimited. */
  scormAttemptLimit?: number;
  scormTrust?: ScormTrust;
  /** Null: a passed attempt changes no status. */
  scormPassStatus?: TaskStatus | null;
  /** Absent on create: false (docs/discussion-prompts.md). */
  requiresDiscussion?: boolean;
}

/** The online-test settings as the entity names them, absent ones left out. */
function scormSettings(fields: Partial<TaskDefinitionFields>) {
  const settings = {
    scormEnabled: fields.scormEnabled,
    scormAllowReview: fields.scormAllowReview,
    scormBypassTest: fields.scormBypassTest,
    scormTimeDelayEnabled: fields.scormTimeDelayEnabled,
    scormAttemptLimit: fields.scormAttemptLimit,
    scormTrust: fields.scormTrust,
    scormPassStatus: fields.scormPassStatus,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)) as Partial<typeof settings>;
}

export const DRAFT_NOT_SINGLE_DOCUMENT =
  'Task is marked as the draft learning summary task definition. A draft learning summary task can only contain a single document upload.';

async function streamId(em: Em, unitId: number, abbreviation: string): Promise<number> {
  const row = await db(em)
    .selectFrom('tutorial_streams')
    .select('id')
    .where('unit_id', '=', unitId)
    .where('abbreviation', '=', abbreviation)
    .executeTakeFirst();
  if (!row) throw notFound('Unable to find requested Tutorial Stream');
  return row.id;
}

async function unitHasStreams(em: Em, unitId: number): Promise<boolean> {
  return (await db(em).selectFrom('tutorial_streams').select('id').where('unit_id', '=', unitId).limit(1).executeTakeFirst()) !== undefined;
}

/** The group set if it is one of the unit's; undefined (leave as is) when it belongs elsewhere. */
async function groupSetOfUnit(em: Em, unitId: number, id: number): Promise<number | undefined> {
  const row = await db(em).selectFrom('group_sets').select('id').where('id', '=', id).where('unit_id', '=', unitId).executeTakeFirst();
  return row?.id;
}

async function overseerImage(em: Em, id: number | null | undefined): Promise<number | null | undefined> {
  if (id === undefined) return undefined;
  if (id === null || id < 0) return null;
  const row = await db(em).selectFrom('overseer_images').select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Unable to find requested Overseer Image');
  return row.id;
}

/** Checks the values a definition will have once saved; a broken rule is a 400. */
async function validate(em: Em, unitId: number, td: ITaskDefinition): Promise<void> {
  const problem = definitionProblem({
    targetGrade: td.targetGrade,
    maxQualityPts: td.maxQualityPts,
    startDate: td.startDate,
    targetDate: td.targetDate,
    dueDate: td.dueDate ?? null,
  });
  if (problem) throw badRequest(`Validation failed: ${problem}`);
  // The CSV import and rollover reach here without the API's schema.
  const limit = td.scormAttemptLimit as number | undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw badRequest('Validation failed: Scorm attempt limit must be 0 (unlimited) or more');
  }
  if (!td.tutorialStream && (await unitHasStreams(em, unitId))) {
    throw badRequest('Validation failed: Tutorial stream must be one of the tutorial streams in the unit');
  }
}

/** A new definition of `unit`. Names and abbreviations are unique in the unit (400 otherwise). */
export async function createTaskDefinition(em: Em, unit: Pick<IUnit, 'id'>, fields: TaskDefinitionFields): Promise<ITaskDefinition> {
  const groupSet = fields.groupSetId != null && fields.groupSetId >= 0 ? ((await groupSetOfUnit(em, unit.id, fields.groupSetId)) ?? null) : null;
  const td = em.create(TaskDefinition, {
    unit: unit.id,
    name: fields.name,
    abbreviation: fields.abbreviation,
    description: withoutPlayerLink(fields.description),
    weighting: fields.weighting,
    targetGrade: fields.targetGrade,
    startDate: fields.startDate,
    targetDate: fields.targetDate,
    dueDate: fields.dueDate ?? null,
    restrictStatusUpdates: fields.restrictStatusUpdates,
    uploadRequirements: fields.uploadRequirements ?? [],
    plagiarismChecks: fields.plagiarismChecks ?? [],
    plagiarismWarnPct: fields.plagiarismWarnPct,
    isGraded: fields.isGraded,
    maxQualityPts: fields.maxQualityPts,
    assessmentEnabled: fields.assessmentEnabled ?? false,
    groupSet,
    tutorialStream: fields.tutorialStreamAbbr ? await streamId(em, unit.id, fields.tutorialStreamAbbr) : null,
    overseerImage: (await overseerImage(em, fields.overseerImageId)) ?? null,
    requiresDiscussion: fields.requiresDiscussion ?? false,
    ...scormSettings(fields),
  }) as ITaskDefinition;
  await validate(em, unit.id, td);
  await em.flush();
  return td;
}

/** Applies the fields given (absent ones stay as they are). */
export async function updateTaskDefinition(
  em: Em,
  unit: Pick<IUnit, 'id' | 'draftTaskDefinition'>,
  td: ITaskDefinition,
  changes: Partial<TaskDefinitionFields>,
): Promise<ITaskDefinition> {
  if (changes.uploadRequirements !== undefined && refIdOrNull(unit.draftTaskDefinition) === td.id && !isSingleDocument(changes.uploadRequirements)) {
    throw forbidden(DRAFT_NOT_SINGLE_DOCUMENT);
  }
  const simple = {
    name: changes.name,
    abbreviation: changes.abbreviation,
    description: changes.description === undefined ? undefined : withoutPlayerLink(changes.description),
    weighting: changes.weighting,
    targetGrade: changes.targetGrade,
    startDate: changes.startDate,
    targetDate: changes.targetDate,
    dueDate: changes.dueDate,
    restrictStatusUpdates: changes.restrictStatusUpdates,
    uploadRequirements: changes.uploadRequirements,
    plagiarismChecks: changes.plagiarismChecks,
    plagiarismWarnPct: changes.plagiarismWarnPct,
    isGraded: changes.isGraded,
    maxQualityPts: changes.maxQualityPts,
    assessmentEnabled: changes.assessmentEnabled,
    requiresDiscussion: changes.requiresDiscussion,
    ...scormSettings(changes),
  };
  for (const [key, value] of Object.entries(simple)) {
    if (value !== undefined) (td as unknown as Record<string, unknown>)[key] = value;
  }
  if (changes.tutorialStreamAbbr !== undefined) {
    td.tutorialStream = (changes.tutorialStreamAbbr ? await streamId(em, unit.id, changes.tutorialStreamAbbr) : null) as never;
  }
  const image = await overseerImage(em, changes.overseerImageId);
  if (image !== undefined) td.overseerImage = image as never;
  if (changes.groupSetId !== undefined) await changeGroupSet(em, unit.id, td, changes.groupSetId);
  await validate(em, unit.id, td);
  await em.flush();
  // Once written, so a link added meanwhile has waited for this change (docs/prerequisites.md).
  if (changes.targetDate !== undefined || changes.targetGrade !== undefined) await refuseBrokenLinks(em, td.id);
  return td;
}

/**
 * Moves a definition to another group set, or to none. Refused once a student has submitted
 * (their work would change hands); leaving group work behind removes its group submissions.
 */
async function changeGroupSet(em: Em, unitId: number, td: ITaskDefinition, requested: number | null): Promise<void> {
  const wanted = requested === null || requested < 0 ? null : await groupSetOfUnit(em, unitId, requested);
  if (wanted === undefined) return; // a set of another unit: ignored, as the original does
  const current = refIdOrNull(td.groupSet);
  if (wanted === current) return;
  const submitted = await db(em)
    .selectFrom('tasks')
    .select('id')
    .where('task_definition_id', '=', td.id)
    .where('submission_date', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  if (submitted) throw badRequest('Validation failed: Group set Unable to change group status of task as submissions exist');
  if (wanted === null) await db(em).deleteFrom('group_submissions').where('task_definition_id', '=', td.id).execute();
  td.groupSet = wanted as never;
}

/**
 * Deletes a definition with everything that hangs on it: its students' tasks (with their
 * comments and submissions), group submissions and outcome alignments go by cascade. A unit that
 * used it as its draft learning summary no longer has one.
 */
export async function deleteTaskDefinition(em: Em, td: ITaskDefinition): Promise<void> {
  em.remove(td);
  await em.flush();
}
