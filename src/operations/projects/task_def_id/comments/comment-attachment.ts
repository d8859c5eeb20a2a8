// GET .../comments/{id}: a comment's attached file, with Range support.
import type { ListedComment } from '../../../tasks/comment-reading.ts';
import { storedDownload, type Storage } from '../../../../storage/index.ts';
import { notFound } from '../../../../lib/errors.ts';
import type { FileResult } from '../../../../lib/files.ts';
import { ATTACHMENT_KINDS } from './serialize-comments.ts';

/** `comment-<id>.<ext>` as stored; 404 for a comment without an attachment, or a file gone missing. */
export async function commentAttachment(storage: Storage, comment: ListedComment, asAttachment: boolean): Promise<FileResult> {
  if (!ATTACHMENT_KINDS.has(comment.kind) || !comment.attachmentPath) throw notFound('No attachment for this comment.');
  // Opened as it is sent: a player's seek reads only its range from the store.
  const file = await storedDownload(storage, comment.attachmentPath);
  if (!file) throw notFound('File missing');
  const ext = /(\.[a-z0-9]+)$/.exec(comment.attachmentPath)?.[1] ?? '';
  return {
    filename: `comment-${comment.id}${ext}`,
    contentType: comment.attachmentContentType ?? 'application/octet-stream',
    data: file,
    size: file.size,
    asAttachment,
    ranges: true,
  };
}
