// GET /api/units/{id}/all_resources (beyond-spec.md §7): every task sheet and resources zip of a
// unit in one zip, written while it is sent; each stored file is opened only when its turn comes.
import { safeEntryPart, writeZip, type ZipEntryOut } from '../../lib/zip.ts';
import { definitionFiles, storageKeys, zipEntryOpener, type Storage } from '../../storage/index.ts';
import { fileResult, type FileResult } from '../../trpc/files.ts';
import { unitQuery } from '../../trpc/scopes/index.ts';
import { loadTaskDefinitions } from '../../operations/units/task_definitions/load-task-definitions.ts';
import { unitIdInput } from './schemas.ts';
import type { Em } from '../../db/orm.ts';

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

export const downloadAllResources = unitQuery(unitIdInput, {
  field: 'id',
  action: 'get_unit',
  refused: 'Not authorised to download resources of unit',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{id}/all_resources',
      tags: ['Units'],
      summary: 'Every task sheet and resources zip of the unit, in one zip',
      description:
        '`<CODE>-all-resources.zip` (`application/zip`, attachment) holding `<ABBREVIATION>.pdf` for each task sheet and `<ABBREVIATION>.zip` for each ' +
        "task's resources, in the unit page's order; a unit without files gives an empty zip. Built fresh for each request and sent as it is written. " +
        'Staff and enrolled students of the unit.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx }): Promise<FileResult> => {
    const entries = await unitResourceEntries(ctx.em, ctx.storage, ctx.unit.id);
    return { filename: `${ctx.unit.code}-all-resources.zip`, contentType: 'application/zip', data: writeZip(entries), asAttachment: true };
  });
