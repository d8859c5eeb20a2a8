// The rows of a tutor's inbox and feedback list (spec §2 "Task (inbox and feedback lists)", plus
// the due date, extensions and portfolio flag the web client reads): one query, whatever the
// number of tasks and comments.
import { sql } from 'kysely';
import { z } from 'zod';
import type { TaskStatus } from '../../../schema/enums.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { commentCountsJoin, similarityFlag, taskTutorialJoin } from '../../db/task-list.ts';
import { dueDay } from '../../domain/task-rules.ts';

export const inboxTaskOut = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  task_definition_id: z.number().int(),
  tutorial_id: z.number().int().nullable().describe("The student's tutorial in the definition's stream (or one without a stream)"),
  status: z.string(),
  completion_date: z.string().nullable().describe('YYYY-MM-DD'),
  submission_date: z.string().nullable(),
  times_assessed: z.number().int(),
  grade: z.number().int().nullable(),
  quality_pts: z.number().int().describe('-1 until rated'),
  num_new_comments: z.number().int().describe('Comments other than status changes the caller has not read'),
  similarity_flag: z.boolean().describe('A similarity of the task has been flagged'),
  pinned: z.number().int().describe('1 when the caller pinned the task, else 0'),
  has_extensions: z.number().int().describe('Extension requests waiting for an answer'),
  due_date: z.string().describe('YYYY-MM-DD: the target date plus granted extensions, capped at the deadline'),
  extensions: z.number().int(),
  include_in_portfolio: z.boolean(),
});
export type InboxTaskOut = z.infer<typeof inboxTaskOut>;

/** Statuses that wait on the student after feedback (the feedback list). */
const AWAITING_STUDENT: TaskStatus[] = ['discuss', 'redo', 'demonstrate', 'fix_and_resubmit'];
/** Statuses that wait on staff (always in the inbox). */
const AWAITING_STAFF: TaskStatus[] = ['ready_for_feedback', 'need_help'];

/**
 * `inbox`: tasks waiting on staff, pinned by the viewer, or with comments the viewer has not read;
 * pinned first, then the longest waiting (submission, then latest comment; never first), then by
 * definition. `feedback`: tasks in a status that waits on the student, by definition. Tasks of
 * enrolled students only, whatever their tutorial (the web client filters by tutorial).
 */
export async function inboxRows(em: Em, unitId: number, viewerId: number, list: 'inbox' | 'feedback'): Promise<InboxTaskOut[]> {
  const filter =
    list === 'inbox'
      ? sql`where x.status in (${sql.join(AWAITING_STAFF)}) or x.pinned = 1 or x.num_new_comments > 0
            order by x.pinned desc, x.submission_date asc nulls last, x.last_comment_at asc nulls last, x.task_definition_id, x.id`
      : sql`order by x.task_definition_id, x.id`;
  const only = list === 'feedback' ? sql`and t.status in (${sql.join(AWAITING_STUDENT)})` : sql``;
  const rows = await sql<{
    id: number;
    project_id: number;
    task_definition_id: number;
    tutorial_id: number | null;
    status: TaskStatus;
    completion_date: string | null;
    submission_date: string | null;
    times_assessed: number;
    grade: number | null;
    quality_pts: number;
    num_new_comments: number;
    similarity_flag: boolean;
    pinned: number;
    has_extensions: number;
    extensions: number;
    include_in_portfolio: boolean;
    target_date: string;
    deadline: string;
  }>`
    select x.* from (
      select t.id, t.project_id, t.task_definition_id, te.tutorial_id, t.status, t.completion_date, t.submission_date,
             t.times_assessed, t.grade, t.quality_pts, coalesce(cm.num_new, 0) as num_new_comments,
             ${similarityFlag} as similarity_flag,
             (exists (select 1 from task_pins pin where pin.task_id = t.id and pin.user_id = ${viewerId}))::int as pinned,
             coalesce(cm.pending, 0) as has_extensions, t.extensions, t.include_in_portfolio,
             d.target_date, coalesce(d.due_date, u.end_date) as deadline, cm.last_comment_at
      from tasks t
      join projects p on p.id = t.project_id
      join units u on u.id = p.unit_id
      join task_definitions d on d.id = t.task_definition_id
      ${taskTutorialJoin()}
      ${commentCountsJoin(unitId, viewerId)}
      where p.unit_id = ${unitId} and p.enrolled ${only}
    ) x
    ${filter}`.execute(db(em));
  return rows.rows.map((r) => ({
    id: r.id,
    project_id: r.project_id,
    task_definition_id: r.task_definition_id,
    tutorial_id: r.tutorial_id,
    status: r.status,
    completion_date: r.completion_date === null ? null : String(r.completion_date).slice(0, 10),
    submission_date: r.submission_date === null ? null : timestamp(r.submission_date).toISOString(),
    times_assessed: r.times_assessed,
    grade: r.grade,
    quality_pts: r.quality_pts,
    num_new_comments: r.num_new_comments,
    similarity_flag: r.similarity_flag,
    pinned: r.pinned,
    has_extensions: r.has_extensions,
    due_date: dueDay({ targetDate: String(r.target_date).slice(0, 10), deadline: String(r.deadline).slice(0, 10) }, r.extensions),
    extensions: r.extensions,
    include_in_portfolio: r.include_in_portfolio,
  }));
}
