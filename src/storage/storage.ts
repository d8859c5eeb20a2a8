import type { Readable } from 'node:stream';

export interface StoredStat {
  size: number;
  modifiedAt: Date;
}

/** A stored file as `list` names it. */
export interface StoredEntry extends StoredStat {
  key: string;
}

/** Bytes `start` to `end` inclusive (to the end of the file when `end` is left out), as HTTP's Range counts them. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** An open stored file: its bytes (or the range asked for) as a stream, and the whole file's size. */
export interface StoredFile extends StoredStat {
  stream: Readable;
}

/**
 * Files under keys such as `task_definitions/42/sheet.pdf` (build them with `storageKeys`, from ids,
 * never from a name a user sent). Deliberately small, so that an S3-compatible object store
 * implements it too (s3.ts; local.ts is the directory): every method is one object operation (PUT,
 * GET, HEAD, DELETE, server-side COPY, LIST) and nothing depends on directories, renames or partial
 * writes being visible. test/storage/contract.test.ts holds both to the same behaviour.
 *
 * A write is all or nothing: a reader sees the old file or the new one, never a half-written one.
 * Invalid keys (empty segments, `.`/`..`, absolute, backslashes, odd characters) throw StorageKeyError.
 */
export interface Storage {
  /** Where the files are, for messages: a directory, or `s3://bucket/prefix`. */
  readonly location: string;
  /** Stores the bytes of `source` (a stream, or `{ path }` of a local file such as an upload's temporary file). */
  put(key: string, source: Readable | { path: string }): Promise<StoredStat>;
  /**
   * Opens a stored file for reading, all of it or one range (a range past the end gives no bytes;
   * `size` is still the whole file's); null when there is none.
   */
  open(key: string, range?: ByteRange): Promise<StoredFile | null>;
  /** Size and time of a stored file; null when there is none. */
  stat(key: string): Promise<StoredStat | null>;
  exists(key: string): Promise<boolean>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Copies a stored file to another key (replacing it); false when the source is missing. */
  copy(from: string, to: string): Promise<boolean>;
  /** Every file below the folder `prefix` (such as `submissions/12`), at any depth, in key order; only complete files. */
  list(prefix: string): AsyncIterable<StoredEntry>;
}
