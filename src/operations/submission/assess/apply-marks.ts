// The marking package coming back (behaviour.md §5.5): marks.csv, alone or in the zip with the
// tutor's PDFs. Each row names its task (student username, or GRP_<group>_<submission>, and the
// task's abbreviation) and is applied in its own savepoint through the one task change (status,
// grade, quality points: the checks of PUT .../task_def_id/{td}), with its comment; a row that fails
// leaves nothing of its own behind. A returned PDF `*-<task id>.pdf` replaces that task's PDF when
// the task's row went through; PDFs are stored after all rows, and only PDFs that are PDFs.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { TaskStatus } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { CsvError, decodeCsv, missingHeaders, readCsv, type CsvRow } from '../../../domain/csv.ts';
import { parseGroupUsername, REQUIRED_MARK_COLUMNS, rowMarks, taskIdOfPdf } from '../../../domain/marking-package.ts';
import { statusForTrigger } from '../../../domain/task-status.ts';
import { checkPdf, detectMime, notValidMessage } from '../../../lib/file-kinds.ts';
import { copyEntryTo, NotAZipError, readEntry, readZip } from '../../../lib/zip.ts';
import { storageKeys, type Storage } from '../../../storage/index.ts';
import { badRequest } from '../../../lib/errors.ts';
import { insertComments } from '../../tasks/comments.ts';
import { ensureTask } from '../../tasks/tasks.ts';
import { applyTaskChange, taskChangeRequest, type ChangeTerms } from '../../projects/task_def_id/apply-task-change.ts';
import { inSavepoint, plural } from '../../import-rows.ts';
import type { AssessUploadOut } from './marks-report.ts';
import { ROLE } from '../../../policy/index.ts';

export interface MarksContext {
  em: Em;
  storage: Storage;
  unitId: number;
  /** The one marking: author of the comments and assessments. */
  markerId: number;
  now: Date;
  /** A directory of ours for the zip's PDFs while they are checked; made and removed here. */
  workDir: string;
  maxEntryBytes: number;
  /** Filled with the tasks (group members' included) whose rows changed something: their students are told. */
  feedback?: Set<number>;
}

/** A row that cannot be applied; its message is the row's error. */
class RowError extends Error {}

interface Definition extends ChangeTerms {
  id: number;
  abbreviation: string;
}

/** The task a row names. `taskId` is null for a student's task nobody has touched yet. */
interface RowTarget {
  definition: Definition;
  projectId: number;
  studentId: number;
  taskId: number | null;
  status: TaskStatus;
  /** The student's or group's name, for messages. */
  owner: string;
}

interface StagedPdf {
  entry: string;
  taskId: number;
  path: string;
}

/**
 * Reads the uploaded file (a zip holding marks.csv, or marks.csv itself) and applies it. A file
 * that is neither, a zip without marks.csv, or a CSV without the required columns is a 400;
 * everything after that is reported row by row.
 */
export async function applyMarks(ctx: MarksContext, path: string): Promise<AssessUploadOut> {
  const result: AssessUploadOut = { message: '', success: [], ignored: [], errors: [] };
  const detected = await detectMime(path);
  if (detected !== 'application/zip' && detected !== 'text/plain') throw badRequest(`File given is not a zip or csv file - detected ${detected}`);
  const work = join(ctx.workDir, randomUUID());
  await mkdir(work, { recursive: true });
  try {
    let text: string;
    let pdfs: StagedPdf[] = [];
    if (detected === 'application/zip') {
      const unpacked = await unpack(path, work, ctx.maxEntryBytes, result);
      text = unpacked.marks;
      pdfs = unpacked.pdfs;
    } else {
      text = decodeCsv(await readFile(path));
    }
    const rows = await marksRows(text);
    const done = await applyRows(ctx, rows, result);
    const stored = await storePdfs(ctx, pdfs, done, result);
    result.message = summary(done, stored, result);
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function marksRows(text: string): Promise<CsvRow[]> {
  try {
    const { headers, rows } = await readCsv(text);
    const missing = missingHeaders(headers, REQUIRED_MARK_COLUMNS);
    if (missing.length > 0) throw badRequest(`Missing headers in marks.csv: ${missing.join(', ')}`);
    return rows;
  } catch (error) {
    if (error instanceof CsvError) throw badRequest(error.message);
    throw error;
  }
}

/** marks.csv's text and the PDFs named for tasks, each copied to a work file of ours. */
async function unpack(path: string, work: string, maxBytes: number, result: AssessUploadOut): Promise<{ marks: string; pdfs: StagedPdf[] }> {
  let marks: string | undefined;
  const pdfs: StagedPdf[] = [];
  try {
    for await (const entry of readZip(path)) {
      if (entry.isDirectory) continue;
      const row = { file: entry.name };
      if (entry.unsafe) {
        result.errors.push({ row, message: `Unsafe entry name (${entry.unsafe}): skipped.` });
        continue;
      }
      const base = entry.baseName.toLowerCase();
      if (base === 'marks.csv' && !entry.name.split('/').includes('__MACOSX')) {
        if (marks === undefined) marks = decodeCsv(await readEntry(entry, maxBytes));
        else result.ignored.push({ row, message: 'Another marks.csv: only the first is read.' });
        continue;
      }
      if (base === 'readme.txt') continue;
      const taskId = taskIdOfPdf(entry.name);
      if (taskId === null) {
        result.ignored.push({ row, message: 'Does not appear to be a task PDF.' });
        continue;
      }
      const staged = join(work, String(pdfs.length));
      try {
        await copyEntryTo(entry, staged, maxBytes);
      } catch (error) {
        if (!(error instanceof NotAZipError)) throw error;
        result.errors.push({ row, message: `Unable to read the entry: ${error.message}` });
        continue;
      }
      pdfs.push({ entry: entry.name, taskId, path: staged });
    }
  } catch (error) {
    if (error instanceof NotAZipError) throw badRequest(`File given is not a usable zip file - ${error.message}`);
    throw error;
  }
  if (marks === undefined) throw badRequest('No marks.csv contained in zip.');
  return { marks, pdfs };
}

/** What the rows did: tasks changed (group members included), tasks whose row failed, comments added. */
interface RowsDone {
  applied: number;
  comments: number;
  /** Tasks whose row went through (applied or with nothing to change). */
  settled: Set<number>;
  failed: Set<number>;
}

async function applyRows(ctx: MarksContext, rows: CsvRow[], result: AssessUploadOut): Promise<RowsDone> {
  const definitions = await loadDefinitions(ctx.em, ctx.unitId);
  const done: RowsDone = { applied: 0, comments: 0, settled: new Set(), failed: new Set() };
  for (const row of rows) {
    let target: RowTarget;
    try {
      target = await findTarget(ctx.em, ctx.unitId, definitions, row);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      result.errors.push({ row, message: error.message });
      continue;
    }
    const outcome = await inSavepoint(ctx.em, (em) => applyRow({ ...ctx, em }, target, row));
    if (!outcome.ok) {
      if (target.taskId !== null) done.failed.add(target.taskId);
      result.errors.push({ row, message: outcome.message });
      continue;
    }
    const { message, taskIds, commented, changed } = outcome.value;
    for (const id of taskIds) done.settled.add(id);
    if (!changed) {
      result.ignored.push({ row, message });
      continue;
    }
    done.applied += 1;
    for (const id of taskIds) ctx.feedback?.add(id);
    if (commented) done.comments += 1;
    result.success.push({ row, message });
  }
  return done;
}

async function loadDefinitions(em: Em, unitId: number): Promise<Definition[]> {
  const rows = await db(em)
    .selectFrom('task_definitions')
    .select(['id', 'abbreviation', 'upload_requirements', 'is_graded', 'max_quality_pts', 'restrict_status_updates'])
    .where('unit_id', '=', unitId)
    .execute();
  return rows.map((d) => ({
    id: d.id,
    abbreviation: d.abbreviation,
    uploadRequirements: (d.upload_requirements as unknown[] | null) ?? [],
    isGraded: d.is_graded,
    maxQualityPts: d.max_quality_pts,
    restrictStatusUpdates: d.restrict_status_updates,
  }));
}

/** The task a row names: by group submission (GRP_<group>_<submission>) or by the student's username. */
async function findTarget(em: Em, unitId: number, definitions: Definition[], row: CsvRow): Promise<RowTarget> {
  const abbreviation = row.task ?? '';
  const definition = definitions.find((d) => d.abbreviation === abbreviation);
  if (!definition) throw new RowError(`Unable to find task with abbreviation ${abbreviation}`);
  const username = row.username ?? '';
  const group = parseGroupUsername(username);
  if (group) {
    const found = await sql<{
      group_id: number;
      name: string;
      task_id: number | null;
      project_id: number | null;
      user_id: number | null;
      status: TaskStatus | null;
    }>`
      select gs.group_id, g.name, t.id as task_id, t.project_id, p.user_id, t.status
        from group_submissions gs
        join groups g on g.id = gs.group_id
        join group_sets s on s.id = g.group_set_id
        left join lateral (
          select t.* from tasks t where t.group_submission_id = gs.id
           order by (t.project_id = gs.submitted_by_id) desc nulls last, t.id limit 1) t on true
        left join projects p on p.id = t.project_id
       where gs.id = ${group.submissionId} and s.unit_id = ${unitId} and gs.task_definition_id = ${definition.id}`.execute(db(em));
    const submission = found.rows[0];
    if (!submission || submission.task_id === null) throw new RowError('Unable to find original submission for group task.');
    if (submission.group_id !== group.groupId) throw new RowError(`Group mismatch (expected task ${definition.abbreviation} to match ${submission.name})`);
    return {
      definition,
      projectId: submission.project_id!,
      studentId: submission.user_id!,
      taskId: submission.task_id,
      status: submission.status!,
      owner: submission.name,
    };
  }
  const student = await db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('tasks as t', (j) => j.onRef('t.project_id', '=', 'p.id').on('t.task_definition_id', '=', definition.id))
    .select(['p.id', 'p.user_id', 'u.first_name', 'u.last_name', 't.id as task_id', 't.status'])
    .where('p.unit_id', '=', unitId)
    .where('u.username', '=', username)
    .executeTakeFirst();
  if (!student) throw new RowError('Unable to find student project for this task.');
  return {
    definition,
    projectId: student.id,
    studentId: student.user_id,
    taskId: student.task_id,
    status: student.status ?? 'not_started',
    owner: `${student.first_name} ${student.last_name}`.trim(),
  };
}

/**
 * One row, inside its savepoint. A Status equal to the task's status (as downloaded: rff,
 * need_help) changes nothing; New Quality goes with a new status, as in PUT.
 */
async function applyRow(
  ctx: MarksContext,
  target: RowTarget,
  row: CsvRow,
): Promise<{ message: string; taskIds: number[]; commented: boolean; changed: boolean }> {
  const read = rowMarks(row);
  if (!read.ok) throw badRequest(read.error);
  const { marks } = read;
  const asked = marks.status === undefined ? undefined : statusForTrigger(marks.status);
  const trigger = marks.status !== undefined && asked !== target.status ? marks.status : undefined;
  const what = `task ${target.definition.abbreviation} for ${target.owner}`;
  if (trigger === undefined && marks.grade === undefined && marks.comment === undefined) {
    return { message: `Nothing to change for ${what}.`, taskIds: target.taskId === null ? [] : [target.taskId], commented: false, changed: false };
  }
  const taskId = target.taskId ?? (await ensureTask(ctx.em, target.projectId, target.definition.id, ctx.now));
  const taskIds = [taskId];
  const request = taskChangeRequest(
    target.definition,
    { trigger, grade: marks.grade, quality_pts: marks.quality },
    { userId: ctx.markerId, role: ROLE.tutor },
    taskId,
  );
  if (request.change !== undefined || request.grade !== undefined) {
    // The row's comment goes with the change: where the unit requires feedback, it is the feedback.
    const changed = await applyTaskChange(ctx.em, taskId, { ...request, comment: marks.comment }, target.definition, ctx.now);
    taskIds.push(...changed.taskIds.filter((id) => id !== taskId));
  } else if (marks.comment !== undefined) {
    const recipientId = target.studentId === ctx.markerId ? null : target.studentId;
    await insertComments(ctx.em, [{ taskId, authorId: ctx.markerId, recipientId, kind: 'text', comment: marks.comment }], ctx.now);
  }
  const updated = trigger !== undefined || marks.grade !== undefined;
  const message = updated ? `Updated ${what}${marks.comment !== undefined ? ' and added a comment' : ''}` : `Added comment to ${what}`;
  return { message, taskIds, commented: marks.comment !== undefined, changed: true };
}

/** Stores the returned PDFs of tasks whose row went through; the others are reported. Returns how many were stored. */
async function storePdfs(ctx: MarksContext, pdfs: StagedPdf[], done: RowsDone, result: AssessUploadOut): Promise<number> {
  let stored = 0;
  for (const pdf of pdfs) {
    const row = { file: pdf.entry };
    const task = await sql<{ id: number; pdf_path: string | null; group_submission_id: number | null; latest: number | null }>`
      select t.id, t.pdf_path, t.group_submission_id,
             (select s.id from task_submissions s where s.task_id = t.id order by s.submitted_at desc, s.id desc limit 1) as latest
        from tasks t join projects p on p.id = t.project_id
       where t.id = ${pdf.taskId} and p.unit_id = ${ctx.unitId}`.execute(db(ctx.em));
    const found = task.rows[0];
    if (!found) {
      result.ignored.push({ row, message: 'Unable to find associated task.' });
      continue;
    }
    if (!done.settled.has(found.id)) {
      const message = done.failed.has(found.id)
        ? `Not stored: the row of task id ${found.id} in marks.csv has errors.`
        : `Task id ${found.id} not in marks.csv`;
      result.errors.push({ row, message });
      continue;
    }
    if (!(await checkPdf(pdf.path)).ok) {
      result.errors.push({ row, message: notValidMessage(pdf.entry.split('/').pop()!, 'document') });
      continue;
    }
    const key = found.pdf_path ?? (found.latest === null ? null : storageKeys.submissionPdf(found.latest));
    if (key === null) {
      result.errors.push({ row, message: `Task id ${found.id} has no submission to attach the PDF to.` });
      continue;
    }
    await ctx.storage.put(key, { path: pdf.path });
    // Group members share the submission's PDF.
    await db(ctx.em)
      .updateTable('tasks')
      .set({ pdf_path: key })
      .where('pdf_path', 'is', null)
      .where((w) =>
        found.group_submission_id === null ? w('id', '=', found.id) : w.or([w('id', '=', found.id), w('group_submission_id', '=', found.group_submission_id)]),
      )
      .execute();
    stored += 1;
    result.success.push({ row, message: `Replaced the PDF of task id ${found.id}` });
  }
  return stored;
}

function summary(done: RowsDone, pdfs: number, result: AssessUploadOut): string {
  const parts = [`${plural(done.applied, 'row')} applied`];
  if (done.comments > 0) parts.push(`${plural(done.comments, 'comment')} added`);
  if (pdfs > 0) parts.push(`${plural(pdfs, 'PDF')} replaced`);
  if (result.ignored.length > 0) parts.push(`${result.ignored.length} ignored`);
  if (result.errors.length > 0) parts.push(`${plural(result.errors.length, 'error')}`);
  return `${parts.join(', ')}.`;
}
