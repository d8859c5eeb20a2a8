import type { Em } from '../../db/orm.ts';
import { safeEntryPart, type ZipEntryOut } from '../../lib/zip.ts';
import { definitionFiles, storageKeys, zipEntryOpener, type Storage } from '../../storage/index.ts';
import { loadTaskDefinitions } from './task_definitions/load-task-definitions.ts';

/**
 * The zip's entries, in the unit page's order: `<ABBR>.pdf` for each sheet and `<ABBR>.zip` for
 * each resources zip. An abbreviation is made safe as a file name first (it is a label a convenor
 * typed); two that end up alike get the definition's id added.
 */
export async function unitResourceEntries(em: Em, storage: Storage, unitId: number): Promise<ZipEntryOut[]> {
  const definitions = await loadTaskDefinitions(em, unitId);
  const files = await definitionFiles(
    storage,
    definitions.map((d) => d.id),
  );
  const used = new Set<string>();
  const entries: ZipEntryOut[] = [];
  for (const d of definitions) {
    const has = files.get(d.id);
    let base = safeEntryPart(d.abbreviation);
    if (used.has(base.toLowerCase())) base = `${base}-${d.id}`;
    used.add(base.toLowerCase());
    // Both kinds are compressed already; storing them as they are saves the CPU.
    if (has?.sheet) entries.push({ name: `${base}.pdf`, open: zipEntryOpener(storage, storageKeys.taskSheet(d.id)), compress: false });
    if (has?.resources) entries.push({ name: `${base}.zip`, open: zipEntryOpener(storage, storageKeys.taskResources(d.id)), compress: false });
  }
  return entries;
}
