// What a queued notification e-mail carries: which mail, and the ids to read its content from
// when it is sent (so it says what is true then, and honours the preferences of that moment).
import { z } from 'zod';

const id = z.number().int().positive();
/** The day a weekly summary's week ends (exclusive), YYYY-MM-DD. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const mailPayload = z.discriminatedUnion('kind', [
  /** The student's submission could not be turned into a PDF (the task went to fix_and_resubmit). */
  z.object({ kind: z.literal('task_pdf_failed'), taskId: id, reason: z.string().max(2000).optional() }),
  /** Batch marking changed these tasks of one project; `markerId` is the tutor who marked them. */
  z.object({ kind: z.literal('task_feedback_ready'), projectId: id, taskIds: z.array(id).min(1), markerId: id }),
  z.object({ kind: z.literal('portfolio_ready'), projectId: id }),
  z.object({ kind: z.literal('portfolio_failed'), projectId: id }),
  z.object({ kind: z.literal('weekly_student_summary'), projectId: id, weekEnd: day }),
  z.object({ kind: z.literal('weekly_staff_summary'), unitRoleId: id, weekEnd: day }),
  /** A user created without a password: the link to set one. The token is made when the mail is composed, so it is never queued in clear. */
  z.object({ kind: z.literal('invitation'), userId: id }),
  /** The task has waited in discuss for the unit's warning days; it goes back to fix_and_resubmit if still there on `expiresOn`. */
  z.object({ kind: z.literal('discuss_timeout_warning'), taskId: id, expiresOn: day }),
  /** The task stayed in discuss for the unit's expiry days and went back to fix_and_resubmit. */
  z.object({ kind: z.literal('discuss_timeout_expired'), taskId: id }),
]);

export type MailPayload = z.infer<typeof mailPayload>;
export type MailKind = MailPayload['kind'];
