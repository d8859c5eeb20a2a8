import { Readable } from 'node:stream';
import type { Task } from 'graphile-worker';
import { sql } from 'kysely';
import { z } from 'zod';
import { db, timestamp } from '../../src/db/kysely.ts';
import type { Em } from '../../src/db/orm.ts';
import { tasksWithUnit } from '../../src/db/task-list.ts';
import type { SubmittedFile } from '../../src/pdf/submission.ts';
import type { CoverInfo } from '../../src/pdf/cover.ts';
import { readWhole, textReadLimits } from '../../src/pdf/limits.ts';
import { isOutOfMemory } from '../../src/threads/pool.ts';
import { transferable } from '../../src/threads/moving.ts';
import type { RenderSubmissionOutcome } from '../../src/threads/render-submission.ts';
import { renderSubmissionInThread } from '../../src/threads/tasks.ts';
import { filesEntries, sharingTaskIds } from '../../src/operations/projects/task_def_id/submission/submission-files.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { LEARNING_SUMMARY_REPORT } from '../../src/operations/submission/project/portfolio/portfolio-parts.ts';
import { afterSubmissionPdf } from '../../src/operations/similarity/hooks.ts';
import { readAll, readHead, StoredFileTooLarge, storageKeys, type Storage } from '../../src/storage/index.ts';
import { MAX_SUBMISSION_FILE_BYTES } from '../../src/domain/submission-files.ts';
import { changeTask } from '../../src/operations/tasks/change-task.ts';
import { insertComments } from '../../src/operations/tasks/comments.ts';
import { publishTaskEvent } from '../../src/operations/live/publish-task-event.ts';
import { queuePdfFailedMail } from '../../src/mail/queue.ts';
import { tutorFor } from '../../src/operations/tasks/people.ts';
import type { WorkerServices } from '../index.ts';
import { ROLE } from '../../src/policy/index.ts';

const payloadSchema = z.object({ taskId: z.number().int().positive(), submissionId: z.number().int().positive() });

/** The original's automated comment (behaviour.md §5.2 point 5), followed by what was wrong. */
export const failureComment = (reason: string) =>
  `**Automated Comment**: Something went wrong with your submission. Check the files and resubmit this task. ${reason}`;

/**
 * Builds a submission's PDF (beyond-spec.md §8.2) from its stored files, stores it atomically
 * under the submission's key and points every task of the submission (the group's, for group
 * work) at it. Idempotent: a rerun rebuilds the same bytes; a submission a newer upload replaced,
 * or one already gone, is skipped. A file the PDF cannot be made from moves the task to fix and
 * resubmit with an automated comment and completes the job; anything else throws, and
 * graphile-worker retries.
 */
export function acceptSubmission(services: WorkerServices): Task {
  return async (rawPayload, helpers) => {
    const { submissionId } = payloadSchema.parse(rawPayload);
    const em = services.orm.em.fork();
    const k = db(em);
    const entry = await k
      .selectFrom('task_submissions')
      .select(['id', 'task_id', 'submitted_at', 'submitted_by_id'])
      .where('id', '=', submissionId)
      .executeTakeFirst();
    if (!entry) {
      helpers.logger.info(`submission ${submissionId} no longer exists; no PDF to build`);
      return;
    }
    if (await superseded(em, entry.task_id, submissionId)) {
      await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
      helpers.logger.info(`submission ${submissionId} was replaced by a newer upload; skipped`);
      return;
    }
    const files = await k
      .selectFrom('submission_files')
      .select(['idx', 'name', 'kind', 'original_filename', 'storage_path'])
      .where('submission_id', '=', submissionId)
      .orderBy('idx')
      .execute();
    const cover = await coverInfo(em, services, entry.task_id, entry.submitted_by_id, timestamp(entry.submitted_at));

    const { threads, pdfMaxPagesPerFile: maxPagesPerFile, pdfFallbackFont: fallbackFontPath } = services.config;
    let submitted: SubmittedFile[];
    try {
      submitted = await readFiles(services.storage, files, maxPagesPerFile);
    } catch (error) {
      if (!(error instanceof StoredFileTooLarge)) throw error;
      // Only if the per-file limit was lowered since the upload: no retry would read it either.
      const reason = `A file is larger than the ${MAX_SUBMISSION_FILE_BYTES / 1_000_000} MB a submitted file may hold: make it smaller, then upload it again.`;
      await recordFailure(em, services, entry.task_id, submissionId, reason);
      helpers.logger.info(`submission ${submissionId}: no PDF (${error.message}); task sent back to fix and resubmit`);
      return;
    }
    let built: RenderSubmissionOutcome;
    try {
      // In a pool thread: the event loop keeps answering requests. A stopping worker's abort signal ends the thread.
      built = await renderSubmissionInThread(
        threads,
        { cover, files: submitted, fallbackFontPath, maxPagesPerFile },
        { signal: helpers.abortSignal, transfer: submitted.map((f) => f.bytes.buffer as ArrayBuffer) },
      );
    } catch (error) {
      if (!isOutOfMemory(error)) throw error;
      built = {
        ok: false,
        reason:
          `Its PDF needs more than the ${threads.memoryMb} MB of memory the service gives one PDF: make the files smaller or simpler, ` +
          `then upload them again.`,
      };
    }
    if (!built.ok) {
      await recordFailure(em, services, entry.task_id, submissionId, built.reason);
      helpers.logger.info(`submission ${submissionId}: no PDF (${built.reason}); task sent back to fix and resubmit`);
      return;
    }

    const key = storageKeys.submissionPdf(submissionId);
    await services.storage.put(key, Readable.from([Buffer.from(built.pdf.buffer, built.pdf.byteOffset, built.pdf.byteLength)]));
    const recorded = await em.transactional(async (tx) => record(tx as Em, services.storage, entry.task_id, submissionId, key));
    helpers.logger.info(`submission ${submissionId}: ${recorded ? `PDF of ${built.pages} pages stored` : 'replaced while its PDF was built; result dropped'}`);
  };
}

/** True when a newer upload (of any group member) holds the task's files now. */
async function superseded(em: Em, taskId: number, submissionId: number): Promise<boolean> {
  const [latest] = await filesEntries(em, await sharingTaskIds(em, taskId), 1);
  return latest !== undefined && latest.id !== submissionId;
}

/**
 * The stored files as the thread gets them: whole, except long code files, of which only the
 * beginning the PDF can show is kept (with the whole file's size and lines, for the note). Whole
 * because pdf-lib merges a PDF, and an image is embedded, from one buffer; bounded by the limit
 * each file was uploaded under (MAX_SUBMISSION_FILE_BYTES), so memory follows that, never a file
 * the store happens to hold. Read from the store wherever this worker runs: no path of the API's.
 */
async function readFiles(
  storage: Storage,
  rows: { name: string; kind: string; original_filename: string; storage_path: string }[],
  maxPagesPerFile: number,
): Promise<SubmittedFile[]> {
  const files: SubmittedFile[] = [];
  for (const row of rows) {
    const kind = row.kind as SubmittedFile['kind'];
    const cut = kind === 'code' && !readWhole(row.original_filename);
    const head = cut ? await readHead(storage, row.storage_path, textReadLimits(maxPagesPerFile)) : null;
    const bytes = cut ? head?.bytes : await readAll(storage, row.storage_path, MAX_SUBMISSION_FILE_BYTES);
    // The upload stores its files after its transaction's statements; a missing file is a crash to retry.
    if (!bytes) throw new Error(`stored file ${row.storage_path} is missing`);
    files.push({
      name: row.name,
      kind,
      originalFilename: row.original_filename,
      bytes: transferable(bytes),
      ...(head ? { whole: { size: head.size, lines: head.lines } } : {}),
    });
  }
  return files;
}

/**
 * Under the submission row's lock: unless a newer upload arrived meanwhile, every task of the
 * submission points at the PDF, processing ends, and the draft task's PDF becomes the learning
 * summary report of students who have none or still use the draft.
 */
async function record(em: Em, storage: Storage, taskId: number, submissionId: number, key: string): Promise<boolean> {
  const k = db(em);
  const locked = await sql<{ id: number }>`select id from task_submissions where id = ${submissionId} for update`.execute(k);
  if (locked.rows.length === 0) return false;
  if (await superseded(em, taskId, submissionId)) {
    await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
    return false;
  }
  const taskIds = await sharingTaskIds(em, taskId);
  await k.updateTable('tasks').set({ pdf_path: key }).where('id', 'in', taskIds).execute();
  await publishTaskEvent(em, 'pdf', taskIds);
  await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
  await saveDraftAsSummaryReport(em, storage, taskIds, key);
  // Documents that ask for a similarity check go to the service now that the submission is converted.
  await afterSubmissionPdf(em, jobQueue(em), { taskId, submissionId });
  return true;
}

/** behaviour.md §5.2 point 4: the unit's draft task's PDF as portfolio part 0. */
async function saveDraftAsSummaryReport(em: Em, storage: Storage, taskIds: number[], pdfKey: string): Promise<void> {
  const k = db(em);
  const projects = await k
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .select(['p.id', 'p.uses_draft_learning_summary'])
    .where('t.id', 'in', taskIds)
    .whereRef('u.draft_task_definition_id', '=', 't.task_definition_id')
    .execute();
  for (const project of projects) {
    await sql`select id from projects where id = ${project.id} for update`.execute(k);
    const current = await k
      .selectFrom('portfolio_parts')
      .select(['id', 'storage_key'])
      .where('project_id', '=', project.id)
      .where('idx', '=', 0)
      .executeTakeFirst();
    if (current && !project.uses_draft_learning_summary) continue;
    let partId = current?.id;
    if (partId === undefined) {
      const row = await k
        .insertInto('portfolio_parts')
        .values({
          project_id: project.id,
          idx: 0,
          kind: 'document',
          name: `${LEARNING_SUMMARY_REPORT}.pdf`,
          original_filename: `${LEARNING_SUMMARY_REPORT}.pdf`,
          storage_key: '',
          created_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      partId = row.id;
    }
    const key = storageKeys.portfolioPart(project.id, partId, 'pdf');
    await k
      .updateTable('portfolio_parts')
      .set({ storage_key: key, kind: 'document', name: `${LEARNING_SUMMARY_REPORT}.pdf` })
      .where('id', '=', partId)
      .execute();
    await k.updateTable('projects').set({ uses_draft_learning_summary: true }).where('id', '=', project.id).execute();
    if (!(await storage.copy(pdfKey, key))) throw new Error(`could not copy ${pdfKey} to ${key}`);
  }
}

/** The task goes to fix and resubmit (by the student's tutor) with the automated comment; processing ends. */
async function recordFailure(em: Em, services: WorkerServices, taskId: number, submissionId: number, reason: string): Promise<void> {
  await em.transactional(async (tx) => {
    const t = tx as Em;
    const k = db(t);
    const locked = await sql<{ id: number }>`select id from task_submissions where id = ${submissionId} for update`.execute(k);
    if (locked.rows.length === 0 || (await superseded(t, taskId, submissionId))) return;
    const task = await k
      .selectFrom('tasks as t')
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .select(['t.project_id', 't.task_definition_id', 'p.user_id'])
      .where('t.id', '=', taskId)
      .executeTakeFirstOrThrow();
    const now = services.clock.now();
    const tutorId = (await tutorFor(t, task.project_id, task.task_definition_id)) ?? task.user_id;
    await changeTask(t, taskId, { actor: { userId: tutorId, role: ROLE.tutor }, change: { kind: 'automated', target: 'fix_and_resubmit' } }, now);
    await insertComments(
      t,
      [{ taskId, authorId: tutorId, recipientId: task.user_id === tutorId ? null : task.user_id, kind: 'text', comment: failureComment(reason) }],
      now,
    );
    await queuePdfFailedMail(t, { taskId, reason });
    await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
  });
}

/** What the cover shows (beyond-spec.md §8.2 items 1-5). */
async function coverInfo(em: Em, services: WorkerServices, taskId: number, submittedById: number | null, submittedAt: Date): Promise<CoverInfo> {
  const k = db(em);
  const row = await tasksWithUnit(em)
    .innerJoin('users as student', 'student.id', 'p.user_id')
    .select([
      't.project_id',
      't.task_definition_id',
      't.group_submission_id',
      'u.code',
      'u.name as unit_name',
      'd.name as task_name',
      'student.id as student_id',
    ])
    .where('t.id', '=', taskId)
    .executeTakeFirstOrThrow();
  const person = async (userId: number) =>
    k.selectFrom('users').select(['first_name as firstName', 'last_name as lastName', 'username']).where('id', '=', userId).executeTakeFirstOrThrow();
  const submitter = await person(submittedById ?? row.student_id);
  let tutorId: number | null;
  let group: CoverInfo['group'];
  if (row.group_submission_id !== null) {
    const found = await sql<{ name: string; tutor: number | null }>`
      select g.name, r.user_id as tutor from group_submissions gs join groups g on g.id = gs.group_id
      left join tutorials tu on tu.id = g.tutorial_id left join unit_roles r on r.id = tu.tutor_id
      where gs.id = ${row.group_submission_id}`.execute(k);
    tutorId = found.rows[0]?.tutor ?? null;
    const members = await k
      .selectFrom('tasks as t')
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .innerJoin('users as s', 's.id', 'p.user_id')
      .select(['s.first_name as firstName', 's.last_name as lastName', 's.username', 't.contribution_pts as points', 't.contribution_pct as pct'])
      .where('t.group_submission_id', '=', row.group_submission_id)
      .orderBy('s.username')
      .execute();
    group = { name: found.rows[0]?.name ?? '', members };
  } else {
    tutorId = await tutorFor(em, row.project_id, row.task_definition_id);
  }
  const tutor = tutorId === null ? null : await person(tutorId);
  return {
    institution: services.config.institutionName,
    product: services.config.externalName,
    unitCode: row.code,
    unitName: row.unit_name,
    taskName: row.task_name,
    submitter,
    submittedAt,
    tutor: tutor ? `${tutor.firstName} ${tutor.lastName}` : null,
    group,
  };
}
