// What an uploaded file really is, judged by its bytes (file-type's signatures), never by the name
// or the Content-Type the client sent (reference §2.3, §5.1). A PDF must be a PDF, an image an
// image, a zip a zip, and a CSV text.
import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { looksBinary } from '../domain/csv.ts';

export type FileKind = 'pdf' | 'image' | 'zip' | 'csv';

/** Image types the original accepts (reference §5.1): PNG, GIF, BMP, TIFF, JPEG. */
export const IMAGE_TYPES = ['image/png', 'image/gif', 'image/bmp', 'image/tiff', 'image/jpeg'] as const;

export interface KindCheck {
  ok: boolean;
  /** The detected type: a MIME type from the signature, else `text/plain` or `application/octet-stream`. */
  detected: string;
}

/** Reads at most `length` bytes at `position` (negative: from the end). */
async function readBytes(path: string, length: number, position: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const start = position < 0 ? Math.max(0, size + position) : Math.min(position, size);
    const buffer = Buffer.alloc(Math.min(length, size - start));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's type by content: a signature's MIME type, else text or opaque bytes. */
export async function detectMime(path: string): Promise<string> {
  const found = await fileTypeFromFile(path);
  if (found) return found.mime;
  return looksBinary(await readBytes(path, 8192, 0)) ? 'application/octet-stream' : 'text/plain';
}

/** The file's type by signature with its usual extension (e.g. `webm`), for files stored as uploaded; null when none matches. */
export async function detectType(path: string): Promise<{ mime: string; ext: string } | null> {
  const found = await fileTypeFromFile(path);
  return found ? { mime: found.mime, ext: found.ext } : null;
}

/**
 * A PDF by signature whose end-of-file marker is in its last 4 KiB, as the original requires: a
 * truncated upload (no `%%EOF`) would fail later when the PDF is merged or shown.
 */
export async function checkPdf(path: string): Promise<KindCheck> {
  const detected = await detectMime(path);
  if (detected !== 'application/pdf') return { ok: false, detected };
  const tail = await readBytes(path, 4096, -4096);
  return { ok: tail.includes('%%EOF'), detected };
}

export async function checkImage(path: string): Promise<KindCheck> {
  const detected = await detectMime(path);
  return { ok: (IMAGE_TYPES as readonly string[]).includes(detected), detected };
}

/** A zip archive; zip-based documents (docx, xlsx, jar...) are reported as their own types and refused. */
export async function checkZip(path: string): Promise<KindCheck> {
  const detected = await detectMime(path);
  return { ok: detected === 'application/zip', detected };
}

/**
 * Text with no known binary signature. A PDF or spreadsheet renamed `.csv` is refused with what
 * it really is; anything text goes on to the CSV reader, which reports malformed rows itself.
 */
export async function checkCsv(path: string): Promise<KindCheck> {
  const detected = await detectMime(path);
  return detected === 'text/plain' ? { ok: true, detected: 'text/csv' } : { ok: false, detected };
}

const CHECKS: Record<FileKind, (path: string) => Promise<KindCheck>> = { pdf: checkPdf, image: checkImage, zip: checkZip, csv: checkCsv };

export function checkKind(kind: FileKind, path: string): Promise<KindCheck> {
  return CHECKS[kind](path);
}

/** The original's refusal of a CSV or zip upload (403): "File given is not a zip file - detected <mime>". */
export function notOfKindMessage(kind: FileKind, detected: string): string {
  return `File given is not a ${kind} file - detected ${detected}`;
}

/** The original's refusal of a document, image or code upload (403): "'<name>' is not a valid document file". */
export function notValidMessage(filename: string, type: 'document' | 'image' | 'code'): string {
  return `'${filename}' is not a valid ${type} file`;
}
