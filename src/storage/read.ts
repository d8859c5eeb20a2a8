import type { FileResult } from '../lib/files.ts';
import type { ByteRange, Storage, StoredFile, StoredStat } from './storage.ts';

/** A stored file larger than its reader's bound: it was never meant to be read whole. */
export class StoredFileTooLarge extends Error {
  constructor(
    readonly key: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`stored file ${key} is ${size} bytes, more than the ${maxBytes} bytes it may be read whole with`);
  }
}

/**
 * The whole of a stored file in memory (null when missing), for the few readers that need a whole
 * buffer (pdf-lib, a similarity checker's text). `maxBytes` bounds it (the upload limit the file came
 * in under, as a rule): a larger file throws StoredFileTooLarge before any of it is read, and one
 * that grows past the bound while it is read stops there. Stream anything else from `open`.
 */
export async function readAll(storage: Storage, key: string, maxBytes: number): Promise<Buffer | null> {
  const file = await storage.open(key);
  if (!file) return null;
  if (file.size > maxBytes) {
    file.stream.destroy();
    throw new StoredFileTooLarge(key, file.size, maxBytes);
  }
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of file.stream as AsyncIterable<Buffer>) {
    got += chunk.length;
    if (got > maxBytes) {
      file.stream.destroy();
      throw new StoredFileTooLarge(key, got, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A stored file to send (src/lib/files.ts StoredBytes): its size now, opened (all of it, or a range) only when the answer goes out. */
export interface StoredDownload extends StoredStat {
  open(range?: ByteRange): Promise<StoredFile | null>;
}

/** Null when there is no such file. */
export async function storedDownload(storage: Storage, key: string): Promise<StoredDownload | null> {
  const stat = await storage.stat(key);
  return stat && { ...stat, open: (range) => storage.open(key, range) };
}

/**
 * A stored attachment to send, opened as it goes out (a player's seek reads only its range):
 * named `<name><the key's extension>`, with the type recorded when it was stored. Null when the
 * file is missing.
 */
export async function storedAttachment(
  storage: Storage,
  key: string,
  name: string,
  contentType: string | null,
  asAttachment: boolean,
): Promise<FileResult | null> {
  const file = await storedDownload(storage, key);
  if (!file) return null;
  const ext = /(\.[a-z0-9]+)$/.exec(key)?.[1] ?? '';
  return { filename: `${name}${ext}`, contentType: contentType ?? 'application/octet-stream', data: file, size: file.size, asAttachment, ranges: true };
}

/**
 * Opens a stored file when a zip being streamed reaches it. A file that vanished since it was
 * listed cuts the download off: a zip silently missing a student's work would be worse.
 */
export const zipEntryOpener = (storage: Storage, key: string) => async () => {
  const file = await storage.open(key);
  if (!file) throw new Error(`stored file ${key} disappeared while the zip was written`);
  return file.stream;
};

/** The beginning of a stored file, and the size and line count of all of it. */
export interface FileHead {
  bytes: Buffer;
  size: number;
  lines: number;
}

/**
 * Keeps the first `maxLines` lines of a stored file, at most `maxBytes` bytes of them, and reads
 * the rest only to count its bytes and lines, so memory follows the limits, not the file. Null
 * when the file is missing.
 */
export async function readHead(storage: Storage, key: string, limits: { maxLines: number; maxBytes: number }): Promise<FileHead | null> {
  const file = await storage.open(key);
  if (!file) return null;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let keptLines = 0;
  let size = 0;
  let newlines = 0;
  let last = -1;
  for await (const chunk of file.stream as AsyncIterable<Buffer>) {
    let keepUpTo = keptBytes < limits.maxBytes && keptLines < limits.maxLines ? Math.min(chunk.length, limits.maxBytes - keptBytes) : 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) {
      newlines++;
      if (at < keepUpTo && ++keptLines === limits.maxLines) keepUpTo = at + 1;
    }
    if (keepUpTo > 0) {
      kept.push(chunk.subarray(0, keepUpTo));
      keptBytes += keepUpTo;
    }
    size += chunk.length;
    if (chunk.length) last = chunk[chunk.length - 1];
  }
  return { bytes: Buffer.concat(kept), size, lines: newlines + (size > 0 && last !== 10 ? 1 : 0) };
}
