// The three kinds of student upload (a submission's files, a portfolio part), checked by content
// as reference §5.1 says: a document is a whole PDF, an image one of the accepted image types, and
// code is text (no binary signature) under a known extension. The name only ever supplies the
// extension; what the bytes are decides.
import { extname } from 'node:path';
import type { UploadKind } from '../../schema/enums.ts';
import { checkImage, checkPdf, detectMime, notValidMessage, type KindCheck } from './file-kinds.ts';

/** Extensions the original accepts for uploaded work (an empty extension is allowed too). */
const KNOWN_EXTENSIONS = new Set(
  (
    'pdf ps csv xls xlsx pas cpp c cs h hpp java py js html coffee scss yaml yml xml json ts r rb rmd rnw rhtml rpres tex vb sql txt md ' +
    'jack hack asm hdl tst out cmp vm sh bat dat ipynb css png bmp tiff tif jpeg jpg gif zip gz tar wav ogg mp3 mp4 webm aac pcm aiff flac wma alac'
  ).split(' '),
);

/** The extension of a client's file name, lower-cased without the dot ('' when none). */
export const extensionOf = (filename: string): string => extname(filename).replace(/^\./, '').toLowerCase();

export function knownExtension(filename: string): boolean {
  const extension = extensionOf(filename);
  return extension === '' || KNOWN_EXTENSIONS.has(extension);
}

/** Text of any language with a known extension: `detected` says what the bytes are when refused. */
export async function checkCode(path: string, filename: string): Promise<KindCheck> {
  const detected = await detectMime(path);
  return { ok: detected === 'text/plain' && knownExtension(filename), detected };
}

/** Is the file at `path` (uploaded as `filename`) acceptable as `kind`? */
export async function checkUploadKind(kind: UploadKind, path: string, filename: string): Promise<KindCheck> {
  if (kind === 'code') return checkCode(path, filename);
  const check = kind === 'document' ? await checkPdf(path) : await checkImage(path);
  return { ok: check.ok && knownExtension(filename), detected: check.detected };
}

/** The refusal (403) for a file that is not of its kind: "'<name>' is not a valid <kind> file". */
export const notOfUploadKind = (filename: string, kind: UploadKind): string => notValidMessage(filename, kind);
