import { z } from 'zod';

/** A file part of a multipart upload. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export const uploadedFile = () =>
  z.custom<UploadedFile>((v) => !!v && typeof v === 'object' && Buffer.isBuffer((v as UploadedFile).data), {
    error: (issue) => (issue.input === undefined ? 'is missing' : 'is not a file'),
  }).meta({ type: 'string', format: 'binary' }); // a custom type has no JSON Schema of its own: the OpenAPI document needs one

/** What a procedure returns when the response is a file download. */
export interface FileResult {
  filename: string;
  contentType: string;
  data: Buffer;
  /** Adds `Content-Disposition: attachment` so browsers save rather than show it. */
  asAttachment: boolean;
}

/** The OpenAPI document lists the answer as `contentMediaType` when set: `fileResult().meta({ contentMediaType: 'application/pdf' })`. */
export const fileResult = () =>
  z.custom<FileResult>((v) => !!v && typeof v === 'object' && Buffer.isBuffer((v as FileResult).data)).meta({ type: 'string', format: 'binary' });
