// POST /api/projects/{id}/task_def_id/{td}/submission (behaviour.md §5.1, beyond-spec.md §4.1).
import { queueAssessmentOfUpload } from '../../../../operations/assessment/queue.ts';
import { db, timestamp } from '../../../../db/kysely.ts';
import { canInTask } from '../../../../policy/index.ts';
import type { Em } from '../../../../db/orm.ts';
import { filesMatchRequirements, MISMATCH_MESSAGE } from '../../../../domain/submission-files.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';
import { badRequest, forbidden } from '../../../../trpc/errors.ts';
import { UploadedFile } from '../../../../trpc/files.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { changeTask } from '../../../../workflow/change-task.ts';
import { ensureTask } from '../../../../workflow/tasks.ts';
import { loadUpdatedTask, updatedTaskOut } from '../updated-task.ts';
import { checkSubmissionFile, type AcceptedFile } from './file-checks.ts';
import { lockGroupOf, refuseWhileAnotherMemberProcessing } from './operations.ts';
import { SUBMISSION_UPLOAD_BYTES, uploadInput } from './schemas.ts';

type Alignment = { ilo_id: number; rating: number; rationale?: string | null };

export const uploadSubmission = taskMutation(uploadInput, {
  project: 'make_submission',
  refused: (_projectId, definition) => `Not authorised to submit task '${definition.name}'`,
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/projects/{id}/task_def_id/{task_definition_id}/submission',
      tags: ['Projects, submissions, comments'],
      summary: 'Submit work for a task: one file per upload requirement',
      description:
        "The student or the unit's staff. Multipart: one file per upload requirement of the task definition, under the requirement's `key` " +
        '(`file0`, `file1`, ...), else 403 "Upload requirements mismatch with files provided". Each file is checked by its content: a document ' +
        'is a PDF (with `%%EOF` in its last 4 KiB), an image PNG, GIF, BMP, TIFF or JPEG, code text with a known extension (`.ipynb` included); ' +
        'else 403 "\'<requirement>\' is not a valid <type> file". Each file at most 10,000,000 bytes (403 beyond). `trigger=need_help` asks for help, ' +
        'anything else hands the work in: ready for feedback, or time exceeded when late; a closed task (complete, discuss, demonstrate, ' +
        'feedback exceeded, fail) keeps its status but the files are kept. Group tasks need a group (403) and reach every member; while another ' +
        "member's upload waits for its PDF, 403. The files are stored and the PDF is queued in the same transaction; until it is built " +
        '`submission_details` says `processing_pdf`. A definition without requirements takes a submission without files. Answers 201 with the task.',
    },
    rest: { upload: { maxBytes: SUBMISSION_UPLOAD_BYTES } },
  })
  .output(updatedTaskOut)
  .mutation(async ({ ctx, input }) => {
    const { definition, project } = ctx;
    const now = ctx.clock.now();
    const groupSetId = definition.groupSet ? (definition.groupSet as unknown as { id: number }).id : null;
    if (groupSetId !== null) await lockGroupOf(ctx.em, project.id, groupSetId);

    const requirements = definition.uploadRequirements;
    const sent = Object.entries(input).filter((e): e is [string, UploadedFile] => e[1] instanceof UploadedFile);
    if (
      !filesMatchRequirements(
        requirements.map((r) => r.key),
        sent.map(([key]) => key),
      )
    )
      throw forbidden(MISMATCH_MESSAGE);

    const taskId = ctx.taskId ?? (await ensureTask(ctx.em, project.id, definition.id, now));
    if (groupSetId !== null) await refuseWhileAnotherMemberProcessing(ctx.em, taskId);

    const files: AcceptedFile[] = [];
    for (const requirement of requirements) {
      const checked = await checkSubmissionFile(requirement, input[requirement.key] as UploadedFile);
      if ('refused' in checked) throw forbidden(checked.refused);
      files.push(checked);
    }
    const alignments = input.alignment_data ? await checkedAlignments(ctx.em, ctx.unit.id, input.alignment_data) : undefined;

    const needHelp = input.trigger?.replace(/["']/g, '').trim() === 'need_help';
    const result = await changeTask(
      ctx.em,
      taskId,
      { actor: { userId: ctx.user.id, role: ctx.projectRole }, change: { kind: 'upload', needHelp, contributions: input.contributions } },
      now,
    );
    const submissionId = result.submissionId!;
    const touched = [...new Set([taskId, ...result.taskIds])];
    const k = db(ctx.em);
    // New files mean new similarity checks (as the original).
    await k.deleteFrom('task_similarities').where('task_id', 'in', touched).execute();
    if (alignments) await replaceAlignments(ctx.em, taskId, definition.id, alignments);

    let stored: { keys: string[]; replaced: string[] } | undefined;
    if (files.length > 0) {
      // An upload within the hour re-dates the same history entry: its files are replaced.
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
      await k.updateTable('tasks').set({ pdf_path: null }).where('id', 'in', touched).execute();
      await ctx.jobs.add('accept_submission', { taskId, submissionId }, { jobKey: `accept_submission:${submissionId}` });
      // Automated assessment (behaviour.md §6) of this entry, when the definition is set up for it.
      const entry = await k.selectFrom('task_submissions').select('submitted_at').where('id', '=', submissionId).executeTakeFirstOrThrow();
      await queueAssessmentOfUpload(
        ctx.em,
        ctx.storage,
        ctx.config,
        ctx.jobs,
        { taskId, taskDefinitionId: definition.id, submittedAt: timestamp(entry.submitted_at) },
        now,
      );
      stored = { keys, replaced: replaced.map((r) => r.storage_path) };
    }
    const answer = await loadUpdatedTask(ctx.em, taskId, ctx.user.id, result.taskIds, canInTask(ctx.projectRole, 'view_plagiarism', ctx.unit));
    if (stored) {
      // Last, so that nothing stored outlives a failure before; files the entry no longer names go after commit.
      const { keys, replaced } = stored;
      await storeFiles(ctx.storage, files, keys, new Set(replaced));
      const stale = replaced.filter((key) => !keys.includes(key));
      ctx.afterCommit(() => void Promise.all(stale.map((key) => ctx.storage.delete(key))).catch(() => undefined));
    }
    return answer;
  });

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
