// A task definition's SCORM package (docs/online-tests.md, "Packages"): the checks an upload must
// pass, what is recorded of it on the definition, what its removal resets, and its copy on
// rollover. The package is stored as uploaded and never unpacked: the asset route reads one file
// of it at a time (src/operations/scorm/package-directory.ts).
import { TaskDefinition, type ITaskDefinition } from '../../../../schema/index.ts';
import type { Config } from '../../../config.ts';
import type { Em } from '../../../db/orm.ts';
import { ManifestError, readManifest, type ManifestFacts } from '../../../domain/scorm-manifest.ts';
import { badRequest, tooLarge } from '../../../lib/errors.ts';
import { checkZip } from '../../../lib/file-kinds.ts';
import { NotAZipError, readEntry, readZip } from '../../../lib/zip.ts';
import { storageKeys, type Storage } from '../../../storage/index.ts';

/** Entries a package may hold: each costs memory in the asset route's listing of it. */
export const MAX_PACKAGE_ENTRIES = 10_000;
/** The manifest is read into memory whole. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MANIFEST = 'imsmanifest.xml';

export interface PackageFacts extends ManifestFacts {
  bytes: number;
}

type Limits = Pick<Config, 'scormPackage'>;

/**
 * What the package at `path` (`size` bytes) records, or a 400 saying what is wrong with it: not a
 * zip, an unsafe entry name, too many entries or too large unpacked, no imsmanifest.xml at its
 * root, a manifest that is not XML or names no SCO, or a launch file the zip lacks.
 */
export async function inspectScormPackage(config: Limits, file: { path: string; size: number }): Promise<PackageFacts> {
  if (file.size > config.scormPackage.maxBytes) throw tooLarge(`The SCORM package is larger than ${config.scormPackage.maxBytes} bytes.`);
  const kind = await checkZip(file.path);
  if (!kind.ok) throw badRequest(`The SCORM package is not a zip file (its content is ${kind.detected ?? 'unknown'}).`);
  const names = new Set<string>();
  let unpacked = 0;
  let manifest: Buffer | null = null;
  try {
    for await (const entry of readZip(file.path)) {
      if (entry.unsafe) throw badRequest(`The SCORM package holds an unsafe entry path ${JSON.stringify(entry.name)} (${entry.unsafe}).`);
      unpacked += entry.size;
      if (unpacked > config.scormPackage.maxUnpackedBytes) {
        throw badRequest(`The SCORM package is too large when unpacked: more than ${config.scormPackage.maxUnpackedBytes} bytes.`);
      }
      if (names.size >= MAX_PACKAGE_ENTRIES) throw badRequest(`The SCORM package holds more than ${MAX_PACKAGE_ENTRIES} files.`);
      if (entry.isDirectory) continue;
      names.add(entry.name);
      if (entry.name === MANIFEST) manifest = await readEntry(entry, MAX_MANIFEST_BYTES);
    }
  } catch (error) {
    if (error instanceof NotAZipError) throw badRequest(`The SCORM package is not a readable zip file: ${error.message}.`);
    throw error;
  }
  if (!manifest) throw badRequest(`The SCORM package has no ${MANIFEST} at its root.`);
  let facts: ManifestFacts;
  try {
    facts = readManifest(manifest.toString('utf8'));
  } catch (error) {
    if (error instanceof ManifestError) throw badRequest(`The SCORM package cannot be used: ${error.message}.`);
    throw error;
  }
  if (!names.has(facts.launchPath)) {
    throw badRequest(`The SCORM package cannot be used: its launch file ${JSON.stringify(facts.launchPath)} (from ${MANIFEST}) is not in the zip.`);
  }
  return { ...facts, bytes: file.size };
}

/** The launch file as recorded: the path in the package, then the href's query or fragment. */
export const launchFileOf = (facts: ManifestFacts): string => facts.launchPath + facts.launchSuffix;

/** Records an accepted package on its definition (flushed by the caller). */
export function recordScormPackage(td: ITaskDefinition, facts: PackageFacts): void {
  td.scormVersion = facts.version;
  td.scormLaunchFile = launchFileOf(facts);
  td.scormPackageBytes = facts.bytes;
}

/** Without its package a definition has no test: every SCORM setting back to its default, as the original's remove_scorm_data. */
export function resetScormSettings(td: ITaskDefinition): void {
  td.scormEnabled = false;
  td.scormAllowReview = false;
  td.scormBypassTest = false;
  td.scormTimeDelayEnabled = false;
  td.scormAttemptLimit = 0;
  td.scormTrust = 'package';
  td.scormPassStatus = null;
  td.scormVersion = null;
  td.scormLaunchFile = null;
  td.scormPackageBytes = null;
}

/**
 * Rollover: copies the packages of the rolled-over definitions (`copies`: source id → copy id)
 * whose sources have one. A copy whose source package is missing from storage forgets what was
 * recorded of it, so has_scorm_data never promises a package that is not there.
 */
export async function copyScormPackagesForRollover(em: Em, storage: Storage, copies: Map<number, number>, withPackage: readonly number[]): Promise<void> {
  const lost: number[] = [];
  await Promise.all(
    withPackage.map(async (from) => {
      const to = copies.get(from);
      if (to === undefined) return;
      if (!(await storage.copy(storageKeys.scormPackage(from), storageKeys.scormPackage(to)))) lost.push(to);
    }),
  );
  if (lost.length > 0) {
    await em.nativeUpdate(TaskDefinition, { id: { $in: lost } }, { scormVersion: null, scormLaunchFile: null, scormPackageBytes: null });
  }
}
