// The files a task definition may have (sheet, resources, assessment resources), known by whether
// they are stored: the stored file is the only record, so an upload or removal is one storage step
// and cannot disagree with a database flag. The SCORM package is the exception: what its manifest
// says is recorded on the definition (has_scorm_data reads that record).
import { storageKeys } from './keys.ts';
import type { Storage } from './storage.ts';

export interface DefinitionFiles {
  sheet: boolean;
  resources: boolean;
  assessmentResources: boolean;
}

/** The files of each definition, by id; the checks run side by side. */
export async function definitionFiles(storage: Storage, ids: readonly number[]): Promise<Map<number, DefinitionFiles>> {
  const entries = await Promise.all(
    ids.map(async (id): Promise<[number, DefinitionFiles]> => {
      const [sheet, resources, assessmentResources] = await Promise.all([
        storage.exists(storageKeys.taskSheet(id)),
        storage.exists(storageKeys.taskResources(id)),
        storage.exists(storageKeys.taskAssessmentResources(id)),
      ]);
      return [id, { sheet, resources, assessmentResources }];
    }),
  );
  return new Map(entries);
}

/** Removes every file of a definition (it was deleted); nothing there is not an error. */
export async function deleteDefinitionFiles(storage: Storage, id: number): Promise<void> {
  await Promise.all(
    [storageKeys.taskSheet(id), storageKeys.taskResources(id), storageKeys.taskAssessmentResources(id), storageKeys.scormPackage(id)].map((k) =>
      storage.delete(k),
    ),
  );
}

/**
 * Copies a definition's files to its rolled-over copy: the sheet and the resources, not the
 * assessment resources (reference §7.4).
 */
export async function copyDefinitionFilesForRollover(storage: Storage, from: number, to: number): Promise<void> {
  await Promise.all([
    storage.copy(storageKeys.taskSheet(from), storageKeys.taskSheet(to)),
    storage.copy(storageKeys.taskResources(from), storageKeys.taskResources(to)),
  ]);
}
