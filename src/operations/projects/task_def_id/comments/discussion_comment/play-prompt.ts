// GET .../discussion_comment/prompt_number/{number}: a GET that writes, since playing the first
// prompt is what starts the discussion.
import { db } from '../../../../../db/kysely.ts';
import type { Em } from '../../../../../db/orm.ts';
import { storageKeys, type Storage } from '../../../../../storage/index.ts';
import { notFound } from '../../../../../lib/errors.ts';
import type { FileResult } from '../../../../../lib/files.ts';
import { serveAudio } from './audio-files.ts';

/** The n-th prompt (from 1) of the discussion; the discussion counts as started from now. */
export async function playPrompt(em: Em, services: { storage: Storage; now: Date }, commentId: number, n: number): Promise<FileResult> {
  const row = await db(em).selectFrom('task_comments').select('discussion_prompt_count').where('id', '=', commentId).executeTakeFirstOrThrow();
  if (n > (row.discussion_prompt_count ?? 0)) throw notFound('Unable to find requested prompt');
  await db(em)
    .updateTable('task_comments')
    .set({ discussion_started_at: services.now.toISOString() })
    .where('id', '=', commentId)
    .where('discussion_started_at', 'is', null)
    .execute();
  return serveAudio(services.storage, storageKeys.discussionPrompt(commentId, n), `discussion-${commentId}-prompt-${n}`);
}
