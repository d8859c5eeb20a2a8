// DELETE .../comments/{id}: the comment goes at once, its attachment's file once the deletion is committed.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { Storage } from '../../../../storage/index.ts';

export async function deleteComment(
  em: Em,
  services: { storage: Storage; afterCommit: (fn: () => void) => void },
  comment: { id: number; attachmentPath: string | null },
): Promise<true> {
  await db(em).deleteFrom('task_comments').where('id', '=', comment.id).execute();
  const path = comment.attachmentPath;
  if (path) services.afterCommit(() => void services.storage.delete(path).catch(() => undefined));
  return true;
}
