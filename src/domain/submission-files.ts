// What a task submission's files must be (behaviour.md §5.1, beyond-spec.md §4.1), as pure rules:
// one file per upload requirement, each at most 10 MB, code files text with a known extension;
// and how the submission history is listed (spec §4 "Submission N: timestamp").
import { extname } from 'node:path';
import type { UploadKind } from './vocabulary.ts';

/** Each file of a submission may hold at most this many bytes (the original's limit). */
export const MAX_SUBMISSION_FILE_BYTES = 10_000_000;

/** The extensions the original accepts (a file without one is accepted too). */
export const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'pdf ps csv xls xlsx pas cpp c cs h hpp java py js html coffee scss yaml yml xml json ts r rb rmd rnw rhtml rpres tex vb sql txt md ' +
    'jack hack asm hdl tst out cmp vm sh bat dat ipynb css png bmp tiff tif jpeg jpg gif zip gz tar wav ogg mp3 mp4 webm aac pcm aiff flac wma alac'
  ).split(' '),
);

/** The lower-case extension of a file name, without the dot ('' when none). */
export function extensionOf(filename: string): string {
  return extname(filename.replace(/\\/g, '/')).slice(1).toLowerCase();
}

export const knownExtension = (filename: string): boolean => {
  const ext = extensionOf(filename);
  return ext === '' || KNOWN_EXTENSIONS.has(ext);
};

/**
 * Content that may be code: plain text (no binary signature), or the text formats a signature
 * check names (XML, JSON, scripts). A binary renamed `.py` is not code.
 */
export function isTextLike(mime: string): boolean {
  return (
    mime.startsWith('text/') ||
    ['application/json', 'application/xml', 'application/javascript', 'application/x-sh', 'application/x-bat', 'application/csv'].includes(mime)
  );
}

export const MISMATCH_MESSAGE = 'Upload requirements mismatch with files provided';

/** True when the files sent are exactly one per requirement, by the requirement's key. */
export function filesMatchRequirements(requirementKeys: readonly string[], fileKeys: readonly string[]): boolean {
  const wanted = new Set(requirementKeys);
  return wanted.size === requirementKeys.length && fileKeys.length === wanted.size && fileKeys.every((k) => wanted.has(k));
}

export const tooLargeMessage = (requirementName: string) => `'${requirementName}' exceeds the 10MB file limit. Try compressing or reformat and submit again.`;

/** The image extensions a stored image keeps, by its detected type. */
const IMAGE_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/gif': 'gif', 'image/bmp': 'bmp', 'image/tiff': 'tif', 'image/jpeg': 'jpg' };

/**
 * The extension a stored file gets: a document is a PDF and an image its detected type, whatever
 * the names they came with; code keeps its own (it chooses the highlighting of the PDF).
 */
export function storedExtension(kind: UploadKind, detectedMime: string, filename: string): string {
  if (kind === 'document') return 'pdf';
  if (kind === 'image') return IMAGE_EXTENSIONS[detectedMime] ?? extensionOf(filename);
  return extensionOf(filename);
}

/** The spec's listing of the latest submissions, newest first, each numbered in the order made. */
export function timestampLines(newestFirst: readonly Date[], total: number): string {
  return newestFirst.map((at, i) => `Submission ${total - i}: ${at.toISOString()}`).join('\n') + (newestFirst.length ? '\n' : '');
}

/**
 * A submission's timestamp as a path gives it: ISO 8601 (matched to the millisecond), or the
 * original's unix seconds (matched to the second). Undefined when it is neither.
 */
export function parseSubmissionTimestamp(text: string): { at: Date; precision: 'milliseconds' | 'second' } | undefined {
  const s = text.trim();
  if (/^\d{9,11}$/.test(s)) return { at: new Date(Number(s) * 1000), precision: 'second' };
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s)) return undefined;
  const at = new Date(s);
  return Number.isNaN(at.getTime()) ? undefined : { at, precision: 'milliseconds' };
}
