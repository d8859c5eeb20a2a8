// A student's upload of their work for a task (behaviour.md §5.1, beyond-spec.md §4.1): the files
// are checked against the definition's upload requirements, the task changes through changeTask,
// the files are recorded and stored, and the PDF (and any automated assessment) is queued, all in
// the caller's transaction. docs/api/projects.md describes the refusals.
import type { IProject, ITaskDefinition, IUnit } from '../../../../../schema/index.ts';
import { queueAssessmentOfUpload } from '../../../assessment/queue.ts';
import type { Config } from '../../../../config.ts';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { refIdOrNull } from '../../../../db/refs.ts';
import { filesMatchRequirements, MISMATCH_MESSAGE } from '../../../../domain/submission-files.ts';
import type { JobQueue } from '../../../../db/jobs.ts';
import { canInTask, type ProjectRole } from '../../../../policy/index.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';
import { badRequest, forbidden } from '../../../../lib/errors.ts';
import { UploadedFile } from '../../../../lib/files.ts';
import { changeTask } from '../../../tasks/change-task.ts';
import type { Contribution } from '../../../tasks/group-submission.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { loadUpdatedTask, type UpdatedTaskOut } from '../load-updated-task.ts';
import { refuseUploadUntilPassed } from '../test_attempts/test-passed.ts';
import { refuseStudentWhileLocked } from '../../../units/task_definitions/prerequisites/unmet-prerequisites.ts';
import { checkSubmissionFile, type AcceptedFile } from './check-submission-file.ts';
import { lockGroupOf, refuseWhileAnotherMemberProcessing } from './submission-files.ts';

export type Alignment = { ilo_id: number; rating: number; rationale?: string | null };

/** The upload: the fields of the form, with one uploaded file per requirement under its key. */
export interface WorkUpload {
  trigger?: string;
  contributions?: Contribution[];
  alignment_data?: Alignment[];
  [field: string]: unknown;
}

export interface Submitter {
  userId: number;
  role: ProjectRole;
  unit: IUnit;
  project: IProject;
  definition: ITaskDefinition;
  /** The student's task, when it exists already. */
  taskId: number | null;
}

/** What an upload needs beyond the database: storing files, queueing jobs, and work after commit. */
export interface UploadServices {
  storage: Storage;
  config: Pick<Config, 'overseerEnabled'>;
  jobs: JobQueue;
  afterCommit: (fn: () => void) => void;
  now: Date;
}

/** Records and stores the upload, changes the task, and answers the task after the update. */
export async function submitWork(em: Em, services: UploadServices, by: Submitter, upload: WorkUpload): Promise<UpdatedTaskOut> {
  const { definition, project, unit } = by;
  const { storage, now } = services;
  if (!canInTask(by.role, 'assess')) await refuseUploadUntilPassed(em, definition, by.taskId);
  // Before any file is stored: a locked task takes no upload from its student (docs/prerequisites.md).
  await refuseStudentWhileLocked(em, by.role, project.id, definition.id);
  const groupSetId = refIdOrNull(definition.groupSet);
  if (groupSetId !== null) await lockGroupOf(em, project.id, groupSetId);

  const requirements = definition.uploadRequirements;
  const sent = Object.keys(upload).filter((key) => upload[key] instanceof UploadedFile);
  if (
    !filesMatchRequirements(
      requirements.map((r) => r.key),
      sent,
    )
  )
    throw forbidden(MISMATCH_MESSAGE);

  const taskId = by.taskId ?? (await ensureTask(em, project.id, definition.id, now));
  if (groupSetId !== null) await refuseWhileAnotherMemberProcessing(em, taskId);

  const files: AcceptedFile[] = [];
  for (const requirement of requirements) {
    const checked = await checkSubmissionFile(requirement, upload[requirement.key] as UploadedFile);
    if ('refused' in checked) throw forbidden(checked.refused);
    files.push(checked);
  }
  const alignments = upload.alignment_data ? await checkedAlignments(em, unit.id, upload.alignment_data) : undefined;

  const needHelp = upload.trigger?.replace(/["']/g, '').trim() === 'need_help';
  const result = await changeTask(
    em,
    taskId,
    { actor: { userId: by.userId, role: by.role }, change: { kind: 'upload', needHelp, contributions: upload.contributions } },
    now,
  );
  const submissionId = result.submissionId!;
  const touched = [...new Set([taskId, ...result.taskIds])];
  // New files mean new similarity checks (as the original).
  await db(em).deleteFrom('task_similarities').where('task_id', 'in', touched).execute();
  if (alignments) await replaceAlignments(em, taskId, definition.id, alignments);

  const stored = files.length > 0 ? await recordFiles(em, services, { taskId, definitionId: definition.id, submissionId, touched }, files) : undefined;
  const answer = await loadUpdatedTask(em, taskId, by.userId, result.taskIds, canInTask(by.role, 'view_plagiarism', unit));
  if (stored) {
    // Last, so that nothing stored outlives a failure before; files the entry no longer names go after commit.
    const { keys, replaced } = stored;
    await storeFiles(storage, files, keys, new Set(replaced));
    const stale = replaced.filter((key) => !keys.includes(key));
    services.afterCommit(() => void Promise.all(stale.map((key) => storage.delete(key))).catch(() => undefined));
  }
  return answer;
}

/**
 * Names the files in the history entry (an upload within the hour re-dates the same entry: its
 * files are replaced), marks it as waiting for its PDF, and queues the PDF and any automated
 * assessment (behaviour.md §6). Returns the storage keys to write and the ones the entry named before.
 */
async function recordFiles(
  em: Em,
  services: UploadServices,
  at: { taskId: number; definitionId: number; submissionId: number; touched: number[] },
  files: AcceptedFile[],
): Promise<{ keys: string[]; replaced: string[] }> {
  const { taskId, submissionId } = at;
  const k = db(em);
  const replaced = await k.deleteFrom('submission_files').where('submission_id', '=', submissionId).returning('storage_path').execute();
  const keys = files.map((f, idx) => storageKeys.submissionFile(submissionId, idx, f.requirement.type, f.extension));
  await k
    .insertInto('submission_files')
    .values(
      files.map((f, idx) => ({
        submission_id: submissionId,
        idx,
        key: f.requirement.key.slice(0, 64),
        name: f.requirement.name.slice(0, 255),
        kind: f.requirement.type,
        original_filename: f.file.filename.slice(0, 255),
        content_type: f.contentType,
        size_bytes: f.file.size,
        storage_path: keys[idx],
      })),
    )
    .execute();
  await k.updateTable('task_submissions').set({ processing: true }).where('id', '=', submissionId).execute();
  await k.updateTable('tasks').set({ pdf_path: null }).where('id', 'in', at.touched).execute();
  await services.jobs.add('accept_submission', { taskId, submissionId }, { jobKey: `accept_submission:${submissionId}` });
  const entry = await k.selectFrom('task_submissions').select('submitted_at').where('id', '=', submissionId).executeTakeFirstOrThrow();
  await queueAssessmentOfUpload(
    em,
    services.storage,
    services.config,
    services.jobs,
    { taskId, taskDefinitionId: at.definitionId, submittedAt: timestamp(entry.submitted_at) },
    services.now,
  );
  return { keys, replaced: replaced.map((r) => r.storage_path) };
}

/** Stores each file; if one fails, the ones this upload added are removed again before the error goes on. */
async function storeFiles(storage: Storage, files: AcceptedFile[], keys: string[], existing: Set<string>): Promise<void> {
  const added: string[] = [];
  try {
    for (const [idx, f] of files.entries()) {
      await storage.put(keys[idx], { path: f.file.path });
      if (!existing.has(keys[idx])) added.push(keys[idx]);
    }
  } catch (error) {
    await Promise.all(added.map((key) => storage.delete(key).catch(() => undefined)));
    throw error;
  }
}

/** The alignments, each to a learning outcome of the unit (400 naming any other), one per outcome. */
async function checkedAlignments(em: Em, unitId: number, given: Alignment[]): Promise<Alignment[]> {
  const ids = [...new Set(given.map((a) => a.ilo_id))];
  if (ids.length === 0) return [];
  const found = await db(em).selectFrom('learning_outcomes').select('id').where('unit_id', '=', unitId).where('id', 'in', ids).execute();
  const known = new Set(found.map((r) => r.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw badRequest(`alignment_data: ${unknown} is not a learning outcome of this unit`);
  return [...new Map(given.map((a) => [a.ilo_id, a])).values()];
}

/** The student's own alignment of the task replaces the previous one, on every task of its group submission. */
async function replaceAlignments(em: Em, taskId: number, definitionId: number, alignments: Alignment[]): Promise<void> {
  const k = db(em);
  const task = await k.selectFrom('tasks').select('group_submission_id').where('id', '=', taskId).executeTakeFirstOrThrow();
  const taskIds =
    task.group_submission_id === null
      ? [taskId]
      : (await k.selectFrom('tasks').select('id').where('group_submission_id', '=', task.group_submission_id).execute()).map((r) => r.id);
  await k.deleteFrom('learning_alignments').where('task_id', 'in', taskIds).execute();
  if (alignments.length === 0) return;
  await k
    .insertInto('learning_alignments')
    .values(
      taskIds.flatMap((id) =>
        alignments.map((a) => ({
          task_definition_id: definitionId,
          learning_outcome_id: a.ilo_id,
          task_id: id,
          rating: a.rating,
          description: a.rationale ?? null,
        })),
      ),
    )
    .execute();
}
