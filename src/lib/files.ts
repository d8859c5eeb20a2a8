import type { Readable } from 'node:stream';
import { z } from 'zod';

/**
 * A file part of a multipart upload. Its bytes were streamed to a temporary file (`path`, `size`
 * bytes), never held in memory; the file is deleted when the request ends, so a procedure that
 * keeps it moves or copies it first. Only the multipart reader makes these: a JSON body cannot
 * pass off a path on the server as an upload.
 */
export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly path: string,
    readonly size: number,
  ) {}
}

export const uploadedFile = () =>
  z
    .custom<UploadedFile>((v) => v instanceof UploadedFile, {
      error: (issue) => (issue.input === undefined ? 'is missing' : 'is not a file'),
    })
    .meta({ type: 'string', format: 'binary' }); // a custom type has no JSON Schema of its own: the OpenAPI document needs one

/**
 * A stored file not opened yet (`storedDownload` in src/storage/read.ts): the HTTP layer opens all
 * of it, or only the range a request asks for, as the answer goes out, so a seek in a recording is
 * one ranged read of the store (a GET with `Range` on S3), never the whole object skipped through.
 */
export interface StoredBytes {
  /** The file's size when the procedure looked. */
  size: number;
  /** Its bytes, or bytes `start`..`end` of it, and its size now; null when it has gone since. */
  open(range?: { start: number; end: number }): Promise<{ size: number; stream: Readable } | null>;
}

/** What a procedure returns when the response is a file download. */
export interface FileResult {
  filename: string;
  contentType: string;
  /** The bytes: in memory, a stream sent as it is read (a zip being written), or a stored file opened when sent. */
  data: Buffer | Readable | StoredBytes;
  /** The length of a stream (sent as Content-Length when given) or a stored file (as the procedure saw it). */
  size?: number;
  /** Adds `Content-Disposition: attachment` so browsers save rather than show it. */
  asAttachment: boolean;
  /** Honours a request's `Range: bytes=a-b` (206 with that part), for media a player seeks in: a buffer's or a stored file's, not a stream's. */
  ranges?: boolean;
  /** Further response headers (a SCORM asset's Cache-Control and Content-Security-Policy). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Shown in the page whatever its type (HTML too), because `headers` hold a
   * `Content-Security-Policy: sandbox` that gives it an opaque origin: a SCORM package's files.
   */
  sandboxed?: boolean;
}

export const isStoredBytes = (data: FileResult['data']): data is StoredBytes =>
  !Buffer.isBuffer(data) && typeof (data as StoredBytes).open === 'function' && typeof (data as Readable).pipe !== 'function';

/** A CSV the browser saves under `filename` (UTF-8 text; the grades keep the original's octet-stream). */
export function csvDownload(filename: string, text: string, contentType = 'text/csv; charset=utf-8'): FileResult {
  return { filename, contentType, data: Buffer.from(text, 'utf8'), asAttachment: true };
}

/** The OpenAPI document lists the answer as `contentMediaType` when set: `fileResult().meta({ contentMediaType: 'application/pdf' })`. */
export const fileResult = () =>
  z.custom<FileResult>((v) => !!v && typeof v === 'object' && isFileData((v as FileResult).data)).meta({ type: 'string', format: 'binary' });

const isFileData = (data: unknown): boolean =>
  Buffer.isBuffer(data) ||
  (!!data && typeof data === 'object' && (typeof (data as Readable).pipe === 'function' || typeof (data as StoredBytes).open === 'function'));
