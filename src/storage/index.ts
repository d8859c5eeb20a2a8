// The one place the service writes and reads files (task sheets, resources, submissions, PDFs,
// attachments). Procedures reach it as `ctx.storage`, workers through their services; both get it
// from `createStorage(config)`.
import type { Config } from '../config.ts';
import { localStorage } from './local.ts';
import { s3Storage } from './s3.ts';
import type { Storage } from './storage.ts';

export type { ByteRange, Storage, StoredEntry, StoredFile, StoredStat } from './storage.ts';
export { StorageKeyError, validKey } from './keys.ts';
export { storageKeys } from './keys.ts';
export { readAll, readHead, StoredFileTooLarge, storedAttachment, storedDownload, zipEntryOpener, type FileHead, type StoredDownload } from './read.ts';

/** The bucket of an `s3://` STORAGE_URL, else the directory (docs/operating/object-storage.md). */
export function createStorage(config: Pick<Config, 'storageRoot'> & Partial<Pick<Config, 'objectStorage'>>): Storage {
  return config.objectStorage ? s3Storage(config.objectStorage) : localStorage(config.storageRoot);
}
export { copyDefinitionFilesForRollover, definitionFiles, deleteDefinitionFiles, type DefinitionFiles } from './definition-files.ts';
