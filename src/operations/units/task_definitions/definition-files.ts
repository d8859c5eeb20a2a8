// A definition's stored files: the task sheet (a PDF), the task resources (a zip for students),
// the assessment resources (a zip for the automated tests) and the SCORM package (the online
// test). One set of operations serves all four: the checks an upload must pass before it is
// stored, its removal and its download.
import type { Config } from '../../../config.ts';
import type { Em } from '../../../db/orm.ts';
import { checkPdf, checkZip, notOfKindMessage, notValidMessage } from '../../../lib/file-kinds.ts';
import type { JobQueue } from '../../../db/jobs.ts';
import { fileNotFoundPdf } from '../../../lib/placeholder-pdf.ts';
import { NotAZipError, assertSafeZip } from '../../../lib/zip.ts';
import { afterTaskResources } from '../../similarity/hooks.ts';
import { storageKeys, storedDownload, type Storage } from '../../../storage/index.ts';
import { forbidden } from '../../../lib/errors.ts';
import type { FileResult } from '../../../lib/files.ts';
import { findTaskDefinition } from './find-task-definition.ts';
import { inspectScormPackage, recordScormPackage, resetScormSettings } from './scorm-package.ts';
import type { ITaskDefinition } from '../../../../schema/index.ts';

/**
 * Why the file at `path` may not be stored as a definition's zip, or null. It must be a zip by
 * its content (the original's 403 "File given is not a zip file - detected <mime>"), readable,
 * and free of entry names that would unpack outside the folder a student unpacks it into: we
 * hand these zips out again, so a zip-slip archive is refused at the door.
 */
export async function definitionZipProblem(path: string): Promise<string | null> {
  const kind = await checkZip(path);
  if (!kind.ok) return notOfKindMessage('zip', kind.detected);
  try {
    await assertSafeZip(path);
  } catch (error) {
    if (error instanceof NotAZipError) return `File given is not a usable zip file - ${error.message}`;
    throw error;
  }
  return null;
}

/** Why the file at `path` (uploaded as `filename`) may not be stored as a task sheet, or null. */
export async function taskSheetProblem(path: string, filename: string): Promise<string | null> {
  return (await checkPdf(path)).ok ? null : notValidMessage(filename, 'document');
}

export type DefinitionFileKind = 'taskSheet' | 'taskResources' | 'taskAssessmentResources' | 'scormData';

interface Services {
  em: Em;
  storage: Storage;
  jobs: JobQueue;
  config: Pick<Config, 'simcheckEnabled' | 'scormPackage'>;
}

interface KindRules {
  key: (definitionId: number) => string;
  /** Why an upload may not be stored (403, as the original answers), or null. */
  problem?: (path: string, filename: string) => Promise<string | null>;
  /**
   * Reads what the definition records of an upload, refusing an unusable one itself (400 saying
   * why); the change it returns is applied to the definition once the file is stored.
   */
  inspect?: (services: Services, file: { path: string; size: number }) => Promise<(td: ITaskDefinition) => void>;
  /** What removing the file changes on the definition. */
  afterDelete?: (td: ITaskDefinition) => void;
  /** Whether the definition has one, when the record says so rather than the store (the download's placeholder otherwise). */
  recorded?: (td: ITaskDefinition) => boolean;
  contentType: string;
  /** The download's file name. */
  filename: (unitCode: string, abbreviation: string) => string;
  /** What follows a stored upload, in the same transaction. */
  afterStore?: (services: Services, definition: { id: number; abbreviation: string; unitId: number }) => Promise<unknown>;
}

const KINDS: Record<DefinitionFileKind, KindRules> = {
  taskSheet: {
    key: storageKeys.taskSheet,
    problem: taskSheetProblem,
    contentType: 'application/pdf',
    filename: (unitCode, abbreviation) => `${unitCode}-${abbreviation}.pdf`,
  },
  taskResources: {
    key: storageKeys.taskResources,
    problem: definitionZipProblem,
    contentType: 'application/zip',
    filename: (_unitCode, abbreviation) => `${abbreviation}-resources.zip`,
    afterStore: (services, definition) => afterTaskResources(services.em, services.jobs, services, definition),
  },
  taskAssessmentResources: {
    key: storageKeys.taskAssessmentResources,
    problem: definitionZipProblem,
    contentType: 'application/zip',
    filename: (_unitCode, abbreviation) => `${abbreviation}-assessment-resources.zip`,
  },
  scormData: {
    key: storageKeys.scormPackage,
    inspect: async (services, file) => {
      const facts = await inspectScormPackage(services.config, file);
      return (td) => recordScormPackage(td, facts);
    },
    afterDelete: resetScormSettings,
    recorded: (td) => td.scormVersion != null,
    contentType: 'application/zip',
    filename: (_unitCode, abbreviation) => `${abbreviation}-scorm.zip`,
  },
};

/**
 * Stores `file` as the definition's file of this kind, replacing it whole. It is checked before
 * anything is stored: a refused file (403) leaves nothing behind.
 */
export async function storeDefinitionFile(
  services: Services,
  unitId: number,
  definitionId: number,
  kind: DefinitionFileKind,
  file: { path: string; filename: string; size: number },
): Promise<true> {
  const rules = KINDS[kind];
  const definition = await findTaskDefinition(services.em, unitId, definitionId);
  const problem = await rules.problem?.(file.path, file.filename);
  if (problem) throw forbidden(problem);
  const record = await rules.inspect?.(services, file);
  await services.storage.put(rules.key(definition.id), { path: file.path });
  if (record) {
    record(definition);
    await services.em.flush();
  }
  await rules.afterStore?.(services, { id: definition.id, abbreviation: definition.abbreviation, unitId });
  return true;
}

/** Removes the definition's file of this kind; none there is not an error. */
export async function deleteDefinitionFile(em: Em, storage: Storage, unitId: number, definitionId: number, kind: DefinitionFileKind): Promise<true> {
  const definition = await findTaskDefinition(em, unitId, definitionId);
  const rules = KINDS[kind];
  if (rules.afterDelete) {
    rules.afterDelete(definition);
    await em.flush();
  }
  await storage.delete(rules.key(definition.id));
  return true;
}

/** The definition's file of this kind; the placeholder FileNotFound.pdf (status 200) when there is none, as the original. */
export async function openDefinitionFile(
  em: Em,
  storage: Storage,
  unit: { id: number; code: string },
  definitionId: number,
  kind: DefinitionFileKind,
  asAttachment: boolean,
): Promise<FileResult> {
  const rules = KINDS[kind];
  const definition = await findTaskDefinition(em, unit.id, definitionId);
  const stored = rules.recorded && !rules.recorded(definition) ? null : await storedDownload(storage, rules.key(definition.id));
  if (!stored) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment };
  return { filename: rules.filename(unit.code, definition.abbreviation), contentType: rules.contentType, data: stored, size: stored.size, asAttachment };
}
