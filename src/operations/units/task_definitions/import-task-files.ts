// The bulk upload of task sheets and resources (beyond-spec.md §1.6): a zip whose `<ABBR>.pdf`
// entries become the sheets and `<ABBR>.zip` entries the resources of the definitions with that
// whole abbreviation. Entry names are only matching keys: each entry is copied to a temporary file
// of our naming, checked by content, and stored under the definition's id. Every entry is checked
// before the first is stored, so a zip that turns out unreadable part way stores nothing.
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Em } from '../../../db/orm.ts';
import { checkZip, notOfKindMessage } from '../../../lib/file-kinds.ts';
import { NotAZipError, copyEntryTo, readZip } from '../../../lib/zip.ts';
import { storageKeys, type Storage } from '../../../storage/index.ts';
import { forbidden } from '../../../lib/errors.ts';
import { definitionZipProblem, taskSheetProblem } from './definition-files.ts';
import { loadTaskDefinitions } from './load-task-definitions.ts';

export interface EntryResult {
  /** The entry's name inside the zip. */
  row: string;
  message: string;
}

export interface TaskFilesResult {
  success: EntryResult[];
  errors: EntryResult[];
  ignored: EntryResult[];
}

export interface TaskFilesOptions {
  /** A directory of ours for the entries while they are checked; made and removed here. */
  workDir: string;
  /** Largest entry accepted (the single upload's cap). */
  maxEntryBytes: number;
}

type Staged = { row: string; key: string; path: string; abbreviation: string };

/**
 * Applies the zip at `zipPath` to the definitions given (in the unit page's order). Throws
 * NotAZipError when the file is not a readable zip; per-entry problems are answered, not thrown.
 */
export async function importTaskFilesFromZip(
  storage: Storage,
  definitions: readonly { id: number; abbreviation: string }[],
  zipPath: string,
  options: TaskFilesOptions,
): Promise<TaskFilesResult> {
  const result: TaskFilesResult = { success: [], errors: [], ignored: [] };
  const work = join(options.workDir, randomUUID());
  await mkdir(work, { recursive: true });
  try {
    const staged: Staged[] = [];
    const claimed = new Map<string, string>(); // storage key → the entry that claimed it
    let copies = 0;
    for await (const entry of readZip(zipPath)) {
      if (entry.isDirectory) continue;
      const row = entry.name;
      if (entry.unsafe) {
        result.errors.push({ row, message: `Unsafe entry name (${entry.unsafe}): skipped.` });
        continue;
      }
      const match = /^(.*)\.(pdf|zip)$/i.exec(entry.baseName);
      if (!match) {
        result.ignored.push({ row, message: 'Unknown file type.' });
        continue;
      }
      const [, base, extension] = match;
      const definition = definitions.find((d) => d.abbreviation === base);
      if (!definition) {
        result.errors.push({ row, message: 'Unable to find a task with matching abbreviation.' });
        continue;
      }
      const isSheet = extension!.toLowerCase() === 'pdf';
      const key = isSheet ? storageKeys.taskSheet(definition.id) : storageKeys.taskResources(definition.id);
      const earlier = claimed.get(key);
      if (earlier) {
        result.errors.push({ row, message: `Task ${definition.abbreviation} already takes ${earlier} from this zip.` });
        continue;
      }
      const path = join(work, String(copies++));
      try {
        await copyEntryTo(entry, path, options.maxEntryBytes);
      } catch (error) {
        if (!(error instanceof NotAZipError)) throw error;
        result.errors.push({ row, message: `Unable to read the entry: ${error.message}` });
        continue;
      }
      const problem = isSheet ? await taskSheetProblem(path, entry.baseName) : await definitionZipProblem(path);
      if (problem) {
        result.errors.push({ row, message: problem });
        continue;
      }
      claimed.set(key, row);
      staged.push({ row, key, path, abbreviation: definition.abbreviation });
    }
    for (const s of staged) {
      await storage.put(s.key, { path: s.path });
      result.success.push({ row: s.row, message: `Added as task ${s.abbreviation}` });
    }
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * POST .../task_definitions/task_pdfs: the uploaded file at `zipPath` applied to unit `unitId`'s
 * definitions. Not a zip by its content, or not a readable one, is a 403.
 */
export async function importTaskFilesUpload(em: Em, storage: Storage, unitId: number, zipPath: string, options: TaskFilesOptions): Promise<TaskFilesResult> {
  const kind = await checkZip(zipPath);
  if (!kind.ok) throw forbidden(notOfKindMessage('zip', kind.detected));
  const definitions = await loadTaskDefinitions(em, unitId);
  try {
    return await importTaskFilesFromZip(storage, definitions, zipPath, options);
  } catch (error) {
    if (error instanceof NotAZipError) throw forbidden(`File given is not a usable zip file - ${error.message}`);
    throw error;
  }
}
