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

/** What a procedure returns when the response is a file download. */
export interface FileResult {
  filename: string;
  contentType: string;
  /** The bytes: in memory, or a stream (a stored file from `ctx.storage.open`) sent as it is read. */
  data: Buffer | Readable;
  /** The stream's length, sent as Content-Length when given. */
  size?: number;
  /** Adds `Content-Disposition: attachment` so browsers save rather than show it. */
  asAttachment: boolean;
  /** Honours a request's `Range: bytes=a-b` (206 with that part), for media a player seeks in. Needs `size` for a stream. */
  ranges?: boolean;
}

/** A CSV the browser saves under `filename` (UTF-8 text; the grades keep the original's octet-stream). */
export function csvDownload(filename: string, text: string, contentType = 'text/csv; charset=utf-8'): FileResult {
  return { filename, contentType, data: Buffer.from(text, 'utf8'), asAttachment: true };
}

/** The OpenAPI document lists the answer as `contentMediaType` when set: `fileResult().meta({ contentMediaType: 'application/pdf' })`. */
export const fileResult = () =>
  z.custom<FileResult>((v) => !!v && typeof v === 'object' && isFileData((v as FileResult).data)).meta({ type: 'string', format: 'binary' });

const isFileData = (data: unknown): boolean => Buffer.isBuffer(data) || (!!data && typeof data === 'object' && typeof (data as Readable).pipe === 'function');
