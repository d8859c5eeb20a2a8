// The alignment operations as a caller asks for them: a student's self-assessments are the
// student's or their unit staff's to see and change, the unit's own alignments its Convenor's or
// an Admin's, so which right applies depends on the alignment (or the `project_id` sent), and is
// decided here rather than by the procedure's scope (docs/authorisation.md).
import type { SystemRole } from '../../../../schema/enums.ts';
import type { IUnit } from '../../../../schema/index.ts';
import type { Em } from '../../../db/orm.ts';
import { canInUnit, type UnitRoleName } from '../../../policy/index.ts';
import { badRequest, forbidden } from '../../../lib/errors.ts';
import { csvDownload, type FileResult } from '../../../lib/files.ts';
import { importCsvFile } from '../../csv/read-csv.ts';
import type { CsvImportResult as CsvImportOut } from '../../csv/csv-import-result.ts';
import { toAlignment, type AlignmentOut, type AlignmentRow } from './alignment-row.ts';
import { alignmentsCsv, importAlignmentsCsv } from './alignments-csv.ts';
import {
  authorizeOnProject,
  createAlignment,
  deleteAlignment,
  findAlignment,
  projectAlignments,
  projectOfUnit,
  taskOfUnit,
  updateAlignment,
  type AlignmentFields,
} from './change-alignments.ts';

export const NOT_YOUR_PROJECT = 'You are not authorised to access this project.';
export const CANNOT_CREATE_UNIT_ALIGNMENT = 'You are not authorised to create task alignments in this unit.';
export const CANNOT_CREATE_TASK_ALIGNMENT = 'You are not authorised to create outcome alignments for this task.';
export const CANNOT_CHANGE_UNIT_ALIGNMENT = 'You are not authorised to update the task alignments in this unit.';
export const CANNOT_CHANGE_TASK_ALIGNMENT = 'You are not authorised to update outcome alignments for this task.';
const cannotDownloadCsv = (code: string) => `Not authorised to download CSV of task alignment in ${code}`;
const cannotUploadCsv = (code: string) => `Not authorised to upload CSV of task alignment to ${code}`;

/** Who asks: the user, the unit the scope loaded, and their role in it. */
export interface AlignmentCaller {
  user: { id: number; systemRole: SystemRole };
  unit: IUnit;
  unitRole: UnitRoleName | null;
}

/**
 * The alignment to change or delete: a student's self-assessment by that student or staff of the
 * unit, the unit's own by its Convenor or an Admin (403 otherwise; 404 for one of another unit).
 */
async function alignmentToChange(em: Em, caller: AlignmentCaller, id: number): Promise<AlignmentRow> {
  const { row, studentId } = await findAlignment(em, caller.unit.id, id);
  if (studentId === null) {
    if (!canInUnit(caller.unitRole, 'update')) throw forbidden(CANNOT_CHANGE_UNIT_ALIGNMENT);
  } else {
    await authorizeOnProject(em, caller.user, caller.unit, studentId, 'make_submission', CANNOT_CHANGE_TASK_ALIGNMENT);
  }
  return row;
}

/** A project's alignments of its tasks, for the student or staff of the unit. */
export async function listProjectAlignments(em: Em, caller: AlignmentCaller, projectId: number): Promise<AlignmentOut[]> {
  const project = await projectOfUnit(em, caller.unit.id, projectId);
  await authorizeOnProject(em, caller.user, caller.unit, project.user_id, 'get', NOT_YOUR_PROJECT);
  return (await projectAlignments(em, project.id)).map(toAlignment);
}

export interface CreateAlignmentInput {
  learning_outcome_id: number;
  task_definition_id: number;
  project_id?: number;
  task_id?: number;
  rating: number;
  description: string;
}

/**
 * With `task_id` or `project_id`, a student's self-assessment of that task (the task is made if the
 * student has not touched it yet), by the student or staff of the unit; without, the unit's own
 * alignment, by its Convenor or an Admin.
 */
export async function createAlignmentAs(em: Em, caller: AlignmentCaller, input: CreateAlignmentInput, now: Date): Promise<AlignmentOut> {
  const { unit } = caller;
  let task: AlignmentFields['task'] = null;
  if (input.task_id !== undefined) {
    const found = await taskOfUnit(em, unit.id, input.task_id);
    if (input.project_id !== undefined && input.project_id !== found.project_id) throw badRequest('task_id is not a task of project_id');
    if (input.task_definition_id !== found.task_definition_id) throw badRequest('task_id is not a task of task_definition_id');
    const project = await projectOfUnit(em, unit.id, found.project_id);
    await authorizeOnProject(em, caller.user, unit, project.user_id, 'make_submission', CANNOT_CREATE_TASK_ALIGNMENT);
    task = found.id;
  } else if (input.project_id !== undefined) {
    const project = await projectOfUnit(em, unit.id, input.project_id);
    await authorizeOnProject(em, caller.user, unit, project.user_id, 'make_submission', CANNOT_CREATE_TASK_ALIGNMENT);
    task = { projectId: project.id, now };
  } else if (!canInUnit(caller.unitRole, 'update')) {
    throw forbidden(CANNOT_CREATE_UNIT_ALIGNMENT);
  }
  const row = await createAlignment(em, unit.id, {
    outcomeId: input.learning_outcome_id,
    definitionId: input.task_definition_id,
    task,
    rating: input.rating,
    description: input.description,
  });
  return toAlignment(row);
}

export async function updateAlignmentAs(
  em: Em,
  caller: AlignmentCaller,
  id: number,
  changes: { rating?: number; description?: string },
): Promise<AlignmentOut> {
  const alignment = await alignmentToChange(em, caller, id);
  return toAlignment(await updateAlignment(em, alignment, { rating: changes.rating, description: changes.description }));
}

export async function deleteAlignmentAs(em: Em, caller: AlignmentCaller, id: number): Promise<true> {
  await deleteAlignment(em, (await alignmentToChange(em, caller, id)).id);
  return true;
}

/** The unit's own alignments (unit staff, Admins) or, with `projectId`, the student's (the student or staff). */
export async function alignmentsCsvAs(em: Em, caller: AlignmentCaller, projectId: number | undefined): Promise<FileResult> {
  const { unit } = caller;
  if (projectId === undefined) {
    if (!canInUnit(caller.unitRole, 'download_unit_csv')) throw forbidden(cannotDownloadCsv(unit.code));
    return csvDownload(`${unit.code}-Alignment.csv`, await alignmentsCsv(em, unit, null));
  }
  const project = await projectOfUnit(em, unit.id, projectId);
  await authorizeOnProject(em, caller.user, unit, project.user_id, 'get', NOT_YOUR_PROJECT);
  return csvDownload(`${unit.code}-${project.username}-Task-Alignment.csv`, await alignmentsCsv(em, unit, project.id));
}

/** Imports the file into the unit's own alignments (its Convenor, Admins) or, with `projectId`, the student's. */
export async function importAlignmentsCsvAs(em: Em, caller: AlignmentCaller, projectId: number | undefined, path: string): Promise<CsvImportOut> {
  const { unit } = caller;
  let into: number | null = null;
  if (projectId === undefined) {
    if (!canInUnit(caller.unitRole, 'upload_csv')) throw forbidden(cannotUploadCsv(unit.code));
  } else {
    const project = await projectOfUnit(em, unit.id, projectId);
    await authorizeOnProject(em, caller.user, unit, project.user_id, 'make_submission', NOT_YOUR_PROJECT);
    into = project.id;
  }
  return importCsvFile(path, (text) => importAlignmentsCsv(em, unit, into, text));
}
