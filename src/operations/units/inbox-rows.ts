// The rows of a tutor's inbox and feedback list (spec §2 "Task (inbox and feedback lists)", plus
// the due date, extensions and portfolio flag the web client reads): one query, whatever the
// number of tasks and comments.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { commentCountsJoin, dueDaySql, isoInstant, similarityFlag, unitTaskTutorialJoin } from '../../db/task-list.ts';
import type { UnmetPrerequisite } from '../../domain/prerequisites.ts';
import { unitUnmetPrerequisitesJoin } from './task_definitions/prerequisites/unmet-prerequisites.ts';

/** A row of the inbox and feedback lists (the output schema `inboxTaskOut` describes each field). */
export interface InboxTaskOut {
  id: number;
  project_id: number;
  task_definition_id: number;
  tutorial_id: number | null;
  status: string;
  completion_date: string | null;
  submission_date: string | null;
  times_assessed: number;
  grade: number | null;
  quality_pts: number;
  num_new_comments: number;
  similarity_flag: boolean;
  pinned: number;
  has_extensions: number;
  due_date: string;
  extensions: number;
  include_in_portfolio: boolean;
  mentioned: number;
  escalated: number;
  /** The student may not upload or hand the task in (docs/prerequisites.md). */
  locked: boolean;
  prerequisites_unmet: UnmetPrerequisite[];
}

export interface InboxViewer {
  id: number;
  /** Whether open escalations show (the viewer resolves them: a convenor); otherwise `escalated` is always 0. */
  seesEscalations: boolean;
}

/** Statuses that wait on the student after feedback (the feedback list). */
const AWAITING_STUDENT: TaskStatus[] = ['discuss', 'redo', 'demonstrate', 'fix_and_resubmit'];
/** Statuses that wait on staff (always in the inbox; the workload dashboard counts the same as "awaiting feedback"). */
export const AWAITING_STAFF: TaskStatus[] = ['ready_for_feedback', 'need_help'];

/**
 * `inbox`: tasks waiting on staff, pinned by the viewer, with comments the viewer has not read,
 * of a project whose staff note mentions the viewer (unseen; only the note's task when it names
 * one), or escalated to a convenor viewing it (docs/marking/notes-moderation-escalation.md);
 * pinned first, then escalated, then mentioned, then the longest waiting (submission, then latest comment; never first), then by
 * definition. `feedback`: tasks in a status that waits on the student, by definition. Tasks of
 * enrolled students only, whatever their tutorial (the web client filters by tutorial).
 *
 * PostgreSQL builds the answer's JSON itself, in order, as one value: the whole unit's list
 * (9,000 tasks at 300 students) then costs this process one string to parse instead of a row of
 * eighteen fields per task to parse, shape and date-convert, which under a flood of inbox
 * requests was most of its time (docs/operating/database-load.md).
 */
export async function inboxRows(em: Em, unitId: number, viewer: InboxViewer, list: 'inbox' | 'feedback'): Promise<InboxTaskOut[]> {
  const viewerId = viewer.id;
  const filter =
    list === 'inbox'
      ? sql`where x.status in (${sql.join(AWAITING_STAFF)}) or x.pinned = 1 or x.num_new_comments > 0 or x.mentioned = 1 or x.escalated = 1`
      : sql``;
  const order =
    list === 'inbox'
      ? sql`order by x.pinned desc, x.escalated desc, x.mentioned desc, x.submission_date asc nulls last, x.last_comment_at asc nulls last, x.task_definition_id, x.id`
      : sql`order by x.task_definition_id, x.id`;
  // Pinned, mentioned and escalated are asked as uncorrelated IN lists, not EXISTS per task: the
  // planner hashes each list once, where a correlated EXISTS ran for every task of the unit, again
  // in the filter and the sort (about a fifth of the query at 300 students).
  const escalated = viewer.seesEscalations
    ? sql`(t.id in (select e.task_id from task_escalations e where e.unit_id = ${unitId} and e.resolved_at is null))::int`
    : sql`0`;
  const unseenMentions = sql`staff_note_mentions m join staff_notes n on n.id = m.note_id where m.user_id = ${viewerId} and m.seen_at is null`;
  const only = list === 'feedback' ? sql`and t.status in (${sql.join(AWAITING_STUDENT)})` : sql``;
  // The keys in inboxTaskOut's order; dates as the days and ISO instants the schema describes.
  const { rows } = await sql<{ tasks: string }>`
    select coalesce(json_agg(json_build_object(
             'id', x.id, 'project_id', x.project_id, 'task_definition_id', x.task_definition_id, 'tutorial_id', x.tutorial_id,
             'status', x.status, 'completion_date', to_char(x.completion_date, 'YYYY-MM-DD'),
             'submission_date', ${isoInstant(sql`x.submission_date`)},
             'times_assessed', x.times_assessed, 'grade', x.grade, 'quality_pts', x.quality_pts,
             'num_new_comments', x.num_new_comments, 'similarity_flag', x.similarity_flag, 'pinned', x.pinned,
             'has_extensions', x.has_extensions,
             'due_date', to_char(${dueDaySql(sql`x.target_date`, sql`x.deadline`, sql`x.extensions`)}, 'YYYY-MM-DD'),
             'extensions', x.extensions, 'include_in_portfolio', x.include_in_portfolio,
             'mentioned', x.mentioned, 'escalated', x.escalated,
             'locked', x.unmet is not null, 'prerequisites_unmet', coalesce(x.unmet, '[]'::json)
           ) ${order}), '[]')::text as tasks
    from (
      select t.id, t.project_id, t.task_definition_id, te.tutorial_id, t.status, t.completion_date, t.submission_date,
             t.times_assessed, t.grade, t.quality_pts, coalesce(cm.num_new, 0) as num_new_comments,
             ${similarityFlag} as similarity_flag,
             (t.id in (select pin.task_id from task_pins pin where pin.user_id = ${viewerId}))::int as pinned,
             coalesce(cm.pending, 0) as has_extensions, t.extensions, t.include_in_portfolio,
             d.target_date, coalesce(d.due_date, u.end_date) as deadline, cm.last_comment_at,
             (t.project_id in (select n.project_id from ${unseenMentions} and n.task_definition_id is null)
              or (t.project_id, t.task_definition_id) in (select n.project_id, n.task_definition_id from ${unseenMentions} and n.task_definition_id is not null))::int as mentioned,
             ${escalated} as escalated, pr.unmet
      from tasks t
      join projects p on p.id = t.project_id
      join units u on u.id = p.unit_id
      join task_definitions d on d.id = t.task_definition_id
      ${unitTaskTutorialJoin(unitId)}
      ${commentCountsJoin(unitId, viewerId)}
      ${unitUnmetPrerequisitesJoin(unitId)}
      where p.unit_id = ${unitId} and p.enrolled ${only}
    ) x
    ${filter}`.execute(db(em));
  return JSON.parse(rows[0]!.tasks) as InboxTaskOut[];
}
