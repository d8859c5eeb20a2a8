// GET .../comments/{id}: a comment's attached file, with Range support.
import type { ListedComment } from '../../../tasks/comment-reading.ts';
import { storedAttachment, type Storage } from '../../../../storage/index.ts';
import { notFound } from '../../../../lib/errors.ts';
import type { FileResult } from '../../../../lib/files.ts';
import { ATTACHMENT_KINDS } from './serialize-comments.ts';

/** `comment-<id>.<ext>` as stored; 404 for a comment without an attachment, or a file gone missing. */
export async function commentAttachment(storage: Storage, comment: ListedComment, asAttachment: boolean): Promise<FileResult> {
  if (!ATTACHMENT_KINDS.has(comment.kind) || !comment.attachmentPath) throw notFound('No attachment for this comment.');
  const file = await storedAttachment(storage, comment.attachmentPath, `comment-${comment.id}`, comment.attachmentContentType, asAttachment);
  if (!file) throw notFound('File missing');
  return file;
}
