// What a comment may carry (beyond-spec.md §4.6): text, or one attachment judged by its content.
// We store what was uploaded as it is (the original re-encoded audio to WAV and images to JPEG).

export type AttachmentKind = 'image' | 'audio' | 'pdf';

/** The original refuses an attachment of 30,000,000 bytes or more. */
export const MAX_ATTACHMENT_BYTES = 30_000_000;
export const MAX_COMMENT_CHARS = 4095;

/** The fixed text an attachment comment carries in place of one. */
export const ATTACHMENT_TEXT: Record<AttachmentKind, string> = {
  image: 'image comment',
  audio: 'audio comment',
  pdf: 'pdf document',
};

/**
 * The comment kind for a type detected from the bytes: any image, a PDF, and audio or video
 * (browsers record voice comments as WebM or Ogg, which are video containers too); else null.
 */
export function attachmentKind(detectedMime: string): AttachmentKind | null {
  if (detectedMime === 'application/pdf') return 'pdf';
  if (detectedMime.startsWith('image/')) return 'image';
  if (detectedMime.startsWith('audio/') || detectedMime.startsWith('video/') || detectedMime === 'application/ogg') return 'audio';
  return null;
}

export type TextCommentCheck = { ok: true; text: string } | { ok: false; status: 400 | 403; message: string };

/**
 * A text comment, in the original's order: blank (403), the same text as the task's last comment
 * by the same author (403), longer than 4095 characters (400). Text is trimmed first.
 */
/** A comment longer than a comment may be (the message of a 400), or null. */
export function commentLengthError(text: string): string | null {
  return [...text.trim()].length > MAX_COMMENT_CHARS ? `Validation failed: Comment is too long (maximum is ${MAX_COMMENT_CHARS} characters)` : null;
}

export function checkTextComment(raw: string | undefined, last: { authorId: number; comment: string | null } | null, authorId: number): TextCommentCheck {
  const text = (raw ?? '').trim();
  if (text === '') return { ok: false, status: 403, message: 'Comment text is empty, unable to add new comment' };
  if (last && last.authorId === authorId && last.comment === text) {
    return { ok: false, status: 403, message: 'No comment added. Comment duplicates last comment, so ignored.' };
  }
  if ([...text].length > MAX_COMMENT_CHARS) {
    return { ok: false, status: 400, message: `Validation failed: Comment is too long (maximum is ${MAX_COMMENT_CHARS} characters)` };
  }
  return { ok: true, text };
}
