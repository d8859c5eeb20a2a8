import type { Readable } from 'node:stream';

export interface StoredStat {
  size: number;
  modifiedAt: Date;
}

/** An open stored file: its bytes as a stream, and its size for Content-Length. */
export interface StoredFile extends StoredStat {
  stream: Readable;
}

/**
 * Files under keys such as `task_definitions/42/sheet.pdf` (build them with `storageKeys`, from ids,
 * never from a name a user sent). Deliberately small, so that an S3-compatible object store could
 * implement it: every method is one object operation (PUT, GET, HEAD, DELETE, server-side COPY) and
 * nothing depends on directories, renames or partial writes being visible.
 *
 * A write is all or nothing: a reader sees the old file or the new one, never a half-written one.
 * Invalid keys (empty segments, `.`/`..`, absolute, backslashes, odd characters) throw StorageKeyError.
 */
export interface Storage {
  /** Stores the bytes of `source` (a stream, or `{ path }` of a local file such as an upload's temporary file). */
  put(key: string, source: Readable | { path: string }): Promise<StoredStat>;
  /** Opens a stored file for reading; null when there is none. */
  open(key: string): Promise<StoredFile | null>;
  /** Size and time of a stored file; null when there is none. */
  stat(key: string): Promise<StoredStat | null>;
  exists(key: string): Promise<boolean>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Copies a stored file to another key (replacing it); false when the source is missing. */
  copy(from: string, to: string): Promise<boolean>;
}
