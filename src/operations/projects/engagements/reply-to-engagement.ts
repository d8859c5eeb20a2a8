// POST /api/projects/{project_id}/engagements/{id}/comments: a reply under an engagement, by staff
// of the unit or the project's student (docs/check-ins.md).
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { commentLengthError } from '../../../domain/comment-attachments.ts';
import { badRequest } from '../../../lib/errors.ts';
import { engagementOut, findEngagement, type EngagementOut } from './engagement-rows.ts';

/** Answers the engagement with its replies, the new one last. */
export async function replyToEngagement(em: Em, projectId: number, engagementId: number, authorId: number, comment: string, now: Date): Promise<EngagementOut> {
  const engagement = await findEngagement(em, projectId, engagementId);
  const tooLong = commentLengthError(comment);
  if (tooLong) throw badRequest(tooLong);
  await db(em)
    .insertInto('engagement_comments')
    .values({ engagement_id: engagement.id, author_id: authorId, comment: comment.trim(), created_at: now.toISOString() })
    .execute();
  return engagementOut(em, projectId, engagement.id);
}
