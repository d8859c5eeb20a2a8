import type { Em } from '../../../../db/orm.ts';
import { notFound } from '../../../../trpc/errors.ts';
import { commentsOfTask, type ListedComment } from '../../../../workflow/comment-reading.ts';

/** A comment of this task (or of its group submission); 404 for any other id, or when there is no task yet. */
export async function findTaskComment(em: Em, taskId: number | null, commentId: number): Promise<ListedComment> {
  const found = taskId === null ? undefined : (await commentsOfTask(em, taskId)).find((c) => c.id === commentId);
  if (!found) throw notFound('Unable to find requested Comment');
  return found;
}
