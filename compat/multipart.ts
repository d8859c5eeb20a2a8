import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, tooLarge } from '../src/lib/errors.ts';
import { UploadedFile } from '../src/lib/files.ts';
import { parseForm } from './input.ts';

export interface MultipartLimits {
  /** Total bytes of the plain (non-file) fields. */
  fieldBytes: number;
  /** Total bytes of the files; undefined when the operation takes no file. */
  fileBytes: number | undefined;
  /** Where files are streamed while the request lasts. */
  tmpDir: string;
}

const malformed = (detail: string) => badRequest(`The multipart body is malformed (${detail}).`);

/** Counts the bytes passing through and fails once `total()` would pass `max`. */
function counter(add: (n: number) => number, max: number, message: string): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (add(chunk.length) > max) done(tooLarge(message));
      else done(null, chunk);
    },
  });
}

/** Temporary files of requests still running in this process, so that a stop can remove them. */
const inFlight = new Set<string>();

/**
 * Removes the temporary files of requests a stop cut off: their handlers may not get to run
 * their own clean-up before the process exits.
 */
export async function discardCutOffUploads(): Promise<void> {
  const paths = [...inFlight];
  inFlight.clear();
  await Promise.all(paths.map((path) => rm(path, { force: true })));
}

/**
 * One request's multipart body. Plain fields are gathered (at most `fieldBytes` of them) and
 * parsed exactly like a form body, so `a[b]` nests and repeated names make lists. Files go
 * straight to temporary files, never into memory, and `discard()` deletes them; the REST layer
 * calls it when the request ends, whatever happened.
 */
export class MultipartBody {
  private readonly paths: string[] = [];

  constructor(private readonly limits: MultipartLimits) {}

  async read(request: FastifyRequest): Promise<Record<string, unknown>> {
    const { fieldBytes, fileBytes, tmpDir } = this.limits;
    const pairs: string[] = [];
    const files: UploadedFile[] = [];
    // Files join the form parse as placeholders that no client can guess, then replace them.
    const nonce = randomUUID();
    let fieldTotal = 0;
    let fileTotal = 0;
    const parts = request.parts({
      limits: { fieldSize: fieldBytes + 1, fieldNameSize: 1000, fileSize: (fileBytes ?? 0) + 1, parts: 2000, fields: 2000 },
    });
    try {
      for await (const part of parts) {
        if (part.type === 'file') {
          if (fileBytes === undefined) {
            part.file.destroy();
            throw badRequest(`${part.fieldname} is a file, and this operation takes none`);
          }
          if (!files.length) await mkdir(tmpDir, { recursive: true });
          const path = join(tmpDir, randomUUID());
          this.paths.push(path);
          inFlight.add(path);
          let size = 0;
          const add = (n: number) => {
            size += n;
            fileTotal += n;
            return fileTotal;
          };
          const count = counter(add, fileBytes, `The files of this upload are larger than ${fileBytes} bytes.`);
          await pipeline(part.file, count, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
          files.push(new UploadedFile(part.filename, part.mimetype, path, size));
          pairs.push(`${encodeURIComponent(part.fieldname)}=${nonce}.${files.length - 1}`);
        } else {
          const value = String(part.value);
          fieldTotal += Buffer.byteLength(part.fieldname) + Buffer.byteLength(value);
          if (part.valueTruncated || fieldTotal > fieldBytes) throw tooLarge(`The fields of this body are larger than ${fieldBytes} bytes.`);
          pairs.push(`${encodeURIComponent(part.fieldname)}=${encodeURIComponent(value)}`);
        }
      }
    } catch (error) {
      throw asClientError(error);
    }
    return withFiles(parseForm(pairs.join('&')), `${nonce}.`, files) as Record<string, unknown>;
  }

  /** Deletes this request's temporary files (those a procedure moved away are simply gone). */
  async discard(): Promise<void> {
    const paths = this.paths.splice(0);
    for (const path of paths) inFlight.delete(path);
    await Promise.all(paths.map((path) => rm(path, { force: true })));
  }
}

/**
 * Everything that goes wrong while reading the body is the client's doing (cut off, no
 * boundary, limits), except failing to write the temporary file, which stays a 500.
 */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const e = error as { statusCode?: number; syscall?: string; message?: string };
  if (e.syscall) return error;
  if (e.statusCode === 413) return tooLarge(`The multipart body has too many parts (${e.message}).`);
  return malformed(e.message ?? 'unreadable');
}

function withFiles(value: unknown, prefix: string, files: UploadedFile[]): unknown {
  if (typeof value === 'string' && value.startsWith(prefix)) return files[Number(value.slice(prefix.length))] ?? value;
  if (Array.isArray(value)) return value.map((v) => withFiles(v, prefix, files));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withFiles(v, prefix, files)]));
  }
  return value;
}
