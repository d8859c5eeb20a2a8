// The three kinds of student upload (a submission's files, a portfolio part), checked by content
// as reference §5.1 says: a document is a whole PDF, an image one of the accepted image types, and
// code is text under a known extension (the rules in src/domain/submission-files.ts). The name
// only ever supplies the extension; what the bytes are decides.
import type { UploadKind } from '../domain/vocabulary.ts';
import { isTextLike, knownExtension } from '../domain/submission-files.ts';
import { checkImage, checkPdf, detectMime, notValidMessage, type KindCheck } from './file-kinds.ts';

/** Text (or a text format a signature names) with a known extension; `detected` says what the bytes are. */
export async function checkCode(path: string, filename: string): Promise<KindCheck> {
  const detected = await detectMime(path);
  return { ok: isTextLike(detected) && knownExtension(filename), detected };
}

/** Is the file at `path` (uploaded as `filename`) acceptable as `kind`? */
export function checkUploadKind(kind: UploadKind, path: string, filename: string): Promise<KindCheck> {
  if (kind === 'code') return checkCode(path, filename);
  return kind === 'document' ? checkPdf(path) : checkImage(path);
}

/** The refusal (403) for a file that is not of its kind: "'<name>' is not a valid <kind> file". */
export const notOfUploadKind = (filename: string, kind: UploadKind): string => notValidMessage(filename, kind);
