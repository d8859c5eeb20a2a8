// The one place the service writes and reads files (task sheets, resources, submissions, PDFs,
// attachments). Procedures reach it as `ctx.storage`, workers through their services; both get it
// from `createStorage(config)`.
import type { Config } from '../config.ts';
import { localStorage } from './local.ts';
import type { Storage } from './storage.ts';

export type { Storage, StoredFile, StoredStat } from './storage.ts';
export { StorageKeyError, validKey } from './keys.ts';
export { storageKeys } from './keys.ts';
export { readAll, readHead, zipEntryOpener, type FileHead } from './read.ts';

export function createStorage(config: Pick<Config, 'storageRoot'>): Storage {
  return localStorage(config.storageRoot);
}
export { copyDefinitionFilesForRollover, definitionFiles, deleteDefinitionFiles, type DefinitionFiles } from './definition-files.ts';
