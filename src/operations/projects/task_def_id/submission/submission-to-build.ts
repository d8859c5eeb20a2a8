// What the PDF job (workers/tasks/accept-submission.ts) builds a submission's PDF from: the
// history entry and its files, unless a newer upload replaced it, and what the cover shows.
import { sql } from 'kysely';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { tasksWithUnit } from '../../../../db/task-list.ts';
import type { CoverInfo } from '../../../../pdf/cover.ts';
import { tutorFor } from '../../../tasks/people.ts';
import { filesEntries, sharingTaskIds } from './submission-files.ts';

/** True when a newer upload (of any group member) holds the task's files now. */
export async function submissionSuperseded(em: Em, taskId: number, submissionId: number): Promise<boolean> {
  const [latest] = await filesEntries(em, await sharingTaskIds(em, taskId), 1);
  return latest !== undefined && latest.id !== submissionId;
}

export interface StoredSubmissionFile {
  idx: number;
  name: string;
  kind: string;
  original_filename: string;
  storage_path: string;
}

export type SubmissionToBuild =
  | { state: 'gone' }
  /** A newer upload replaced it: its processing has ended here. */
  | { state: 'superseded' }
  | { state: 'ready'; taskId: number; submittedAt: Date; submittedById: number | null; files: StoredSubmissionFile[] };

/** The submission and its files in upload order; one a newer upload replaced stops processing. */
export async function submissionToBuild(em: Em, submissionId: number): Promise<SubmissionToBuild> {
  const k = db(em);
  const entry = await k
    .selectFrom('task_submissions')
    .select(['id', 'task_id', 'submitted_at', 'submitted_by_id'])
    .where('id', '=', submissionId)
    .executeTakeFirst();
  if (!entry) return { state: 'gone' };
  if (await submissionSuperseded(em, entry.task_id, submissionId)) {
    await k.updateTable('task_submissions').set({ processing: false }).where('id', '=', submissionId).execute();
    return { state: 'superseded' };
  }
  const files = await k
    .selectFrom('submission_files')
    .select(['idx', 'name', 'kind', 'original_filename', 'storage_path'])
    .where('submission_id', '=', submissionId)
    .orderBy('idx')
    .execute();
  return { state: 'ready', taskId: entry.task_id, submittedAt: timestamp(entry.submitted_at), submittedById: entry.submitted_by_id, files };
}

/** What the cover shows (beyond-spec.md §8.2 items 1-5). */
export async function submissionCover(
  em: Em,
  names: { institution: string; product: string },
  taskId: number,
  submittedById: number | null,
  submittedAt: Date,
): Promise<CoverInfo> {
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
    institution: names.institution,
    product: names.product,
    unitCode: row.code,
    unitName: row.unit_name,
    taskName: row.task_name,
    submitter,
    submittedAt,
    tutor: tutor ? `${tutor.firstName} ${tutor.lastName}` : null,
    group,
  };
}
