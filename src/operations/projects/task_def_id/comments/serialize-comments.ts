// A task's comments as clients read them (spec §2 "Comment", beyond-spec.md §4.6–4.7), for any
// number of comments in one query: every kind shares the base fields, and status, extension,
// discussion, assessment, scorm and scorm_extension comments add their own.
import { sql } from 'kysely';
import { z } from 'zod';
import type { CommentKind, TaskStatus } from '../../../../../schema/enums.ts';
import { db, timestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { dueDay } from '../../../../domain/task-rules.ts';

const person = z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), email: z.string() });

export const commentOut = z.object({
  id: z.number().int(),
  comment: z.string().nullable(),
  has_attachment: z.boolean(),
  type: z.string().describe('text, image, audio, pdf, status, extension, discussion, assessment, scorm or scorm_extension'),
  is_new: z.boolean().describe('Not yet read by the caller'),
  reply_to_id: z.number().int().nullable(),
  author: person,
  recipient: person.nullable(),
  created_at: z.string(),
  recipient_read_time: z.string().nullable(),
  // status
  date: z.string().optional(),
  status: z.string().optional().describe('status comments: the status key; discussions: not started, opened or complete'),
  // extension
  granted: z.boolean().optional(),
  assessed: z.boolean().optional(),
  date_assessed: z.string().nullable().optional(),
  weeks_requested: z.number().int().nullable().optional(),
  extension_response: z.string().nullable().optional(),
  task_status: z.string().optional(),
  due_date: z.string().optional().describe("extension comments: the task's due date now (YYYY-MM-DD)"),
  extensions: z.number().int().optional().describe('extension comments: the weeks the task has been granted'),
  // discussion
  time_discussion_started: z.string().nullable().optional(),
  time_discussion_completed: z.string().nullable().optional(),
  time_discussion_complete: z.string().nullable().optional().describe('the same as time_discussion_completed, the name the web client reads'),
  number_of_prompts: z.number().int().nullable().optional(),
  // assessment
  overseer_assessment_id: z.number().int().nullable().optional(),
  // scorm: the test attempt whose result the comment states
  test_attempt: z
    .object({ id: z.number().int(), success_status: z.boolean() })
    .optional()
    .describe('scorm comments: the attempt, and whether it counts as passed'),
  // scorm_extension (granted, assessed and date_assessed as for extension)
  scorm_extensions: z.number().int().optional().describe("scorm_extension comments: the task's extra attempts now"),
});
export type CommentOut = z.infer<typeof commentOut>;

export const ATTACHMENT_KINDS = new Set<CommentKind>(['image', 'audio', 'pdf']);

/**
 * The comments with these ids, in creation order, as `viewerId` sees them (`is_new` is whether
 * the viewer has a read receipt). One query, whatever their number.
 */
export async function serializeComments(em: Em, commentIds: number[], viewerId: number): Promise<CommentOut[]> {
  if (commentIds.length === 0) return [];
  const rows = await sql<{
    id: number;
    comment: string | null;
    kind: CommentKind;
    reply_to_id: number | null;
    created_at: string;
    task_status: TaskStatus | null;
    extension_weeks_requested: number | null;
    extension_granted: boolean | null;
    extension_assessed_at: string | null;
    extension_response: string | null;
    discussion_started_at: string | null;
    discussion_completed_at: string | null;
    discussion_prompt_count: number | null;
    overseer_assessment_id: number | null;
    test_attempt_id: number | null;
    attempt_success: boolean | null;
    scorm_extensions: number;
    current_status: TaskStatus;
    extensions: number;
    target_date: string;
    deadline: string;
    a_id: number;
    a_first: string;
    a_last: string;
    a_email: string;
    r_id: number | null;
    r_first: string | null;
    r_last: string | null;
    r_email: string | null;
    viewer_read: boolean;
    recipient_read_at: string | null;
  }>`
    select c.id, c.comment, c.kind, c.reply_to_id, c.created_at, c.task_status,
           c.extension_weeks_requested, c.extension_granted, c.extension_assessed_at, c.extension_response,
           c.discussion_started_at, c.discussion_completed_at, c.discussion_prompt_count, c.overseer_assessment_id,
           c.test_attempt_id, ta.success_status as attempt_success, t.scorm_extensions,
           t.status as current_status, t.extensions, d.target_date, coalesce(d.due_date, u.end_date) as deadline,
           a.id as a_id, a.first_name as a_first, a.last_name as a_last, a.email as a_email,
           r.id as r_id, r.first_name as r_first, r.last_name as r_last, r.email as r_email,
           exists (select 1 from comment_read_receipts v where v.comment_id = c.id and v.user_id = ${viewerId}) as viewer_read,
           (select rr.created_at from comment_read_receipts rr where rr.comment_id = c.id and rr.user_id = c.recipient_id) as recipient_read_at
    from task_comments c
    join tasks t on t.id = c.task_id
    join task_definitions d on d.id = t.task_definition_id
    join units u on u.id = d.unit_id
    join users a on a.id = c.author_id
    left join users r on r.id = c.recipient_id
    left join test_attempts ta on ta.id = c.test_attempt_id
    where c.id in (${sql.join(commentIds)})
    order by c.created_at, c.id`.execute(db(em));

  const iso = (v: string | null) => (v === null ? null : timestamp(v).toISOString());
  return rows.rows.map((r) => {
    const out: CommentOut = {
      id: r.id,
      comment: r.comment,
      has_attachment: ATTACHMENT_KINDS.has(r.kind),
      type: r.kind,
      is_new: !r.viewer_read,
      reply_to_id: r.reply_to_id,
      author: { id: r.a_id, first_name: r.a_first, last_name: r.a_last, email: r.a_email },
      recipient: r.r_id === null ? null : { id: r.r_id, first_name: r.r_first!, last_name: r.r_last!, email: r.r_email! },
      created_at: iso(r.created_at)!,
      recipient_read_time: iso(r.recipient_read_at),
    };
    switch (r.kind) {
      case 'status':
        out.date = out.created_at;
        out.status = r.task_status ?? undefined;
        out.recipient_read_time = null;
        break;
      case 'extension':
        out.granted = r.extension_granted === true;
        out.assessed = r.extension_assessed_at !== null;
        out.date_assessed = iso(r.extension_assessed_at);
        out.weeks_requested = r.extension_weeks_requested;
        out.extension_response = r.extension_response;
        out.task_status = r.current_status;
        out.due_date = dueDay({ targetDate: String(r.target_date).slice(0, 10), deadline: String(r.deadline).slice(0, 10) }, r.extensions);
        out.extensions = r.extensions;
        break;
      case 'discussion':
        out.status = r.discussion_completed_at ? 'complete' : r.discussion_started_at ? 'opened' : 'not started';
        out.time_discussion_started = iso(r.discussion_started_at);
        out.time_discussion_completed = iso(r.discussion_completed_at);
        out.time_discussion_complete = out.time_discussion_completed;
        out.number_of_prompts = r.discussion_prompt_count;
        break;
      case 'assessment':
        out.overseer_assessment_id = r.overseer_assessment_id;
        break;
      case 'scorm':
        if (r.test_attempt_id !== null) out.test_attempt = { id: r.test_attempt_id, success_status: r.attempt_success === true };
        break;
      case 'scorm_extension':
        out.granted = r.extension_granted === true;
        out.assessed = r.extension_assessed_at !== null;
        out.date_assessed = iso(r.extension_assessed_at);
        out.scorm_extensions = r.scorm_extensions;
        break;
    }
    return out;
  });
}

/** One comment as the viewer sees it. */
export async function serializeComment(em: Em, commentId: number, viewerId: number): Promise<CommentOut> {
  const [out] = await serializeComments(em, [commentId], viewerId);
  return out;
}
