// POST .../discussion_comments: staff start an audio discussion with the student.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';
import { badRequest } from '../../../../lib/errors.ts';
import type { UploadedFile } from '../../../../lib/files.ts';
import { insertComments } from '../../../tasks/comments.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import type { CommentedTask } from '../comments/create-comment.ts';
import { checkAudio } from '../comments/discussion_comment/audio-files.ts';
import { serializeComment, type CommentOut } from '../comments/serialize-comments.ts';

/** A discussion comment to the student with the prompts in order; every file is checked before anything is written. */
export async function startDiscussion(
  em: Em,
  services: { storage: Storage; now: Date },
  on: CommentedTask,
  authorId: number,
  prompts: UploadedFile[] | undefined,
): Promise<CommentOut> {
  const files = prompts ?? [];
  if (files.length === 0) throw badRequest('attachments is missing');
  for (const file of files) await checkAudio(file);
  const { now } = services;
  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definitionId, now));
  const [id] = await insertComments(em, [{ taskId, authorId, recipientId: on.studentId, kind: 'discussion', comment: null }], now);
  await db(em).updateTable('task_comments').set({ discussion_prompt_count: files.length }).where('id', '=', id).execute();
  const out = await serializeComment(em, id, authorId);
  // Stored last, so a refused file leaves nothing behind.
  for (const [i, file] of files.entries()) await services.storage.put(storageKeys.discussionPrompt(id, i + 1), { path: file.path });
  return out;
}
