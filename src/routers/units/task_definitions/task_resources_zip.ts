// A definition's zips (task resources for students, assessment resources for the automated
// tests): the checks an uploaded zip must pass before it is stored, and its download.
import { fileNotFoundPdf } from '../../../lib/placeholder-pdf.ts';
import { checkZip, notOfKindMessage } from '../../../lib/file-kinds.ts';
import { NotAZipError, assertSafeZip } from '../../../lib/zip.ts';
import type { Storage } from '../../../storage/index.ts';
import type { FileResult } from '../../../trpc/files.ts';
import { forbidden } from '../../../trpc/errors.ts';

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

/** Stores the uploaded zip under `key` once it passes the checks; a refused file stores nothing (403). */
export async function storeDefinitionZip(storage: Storage, key: string, path: string): Promise<void> {
  const problem = await definitionZipProblem(path);
  if (problem) throw forbidden(problem);
  await storage.put(key, { path });
}

/** The stored zip as an attachment; FileNotFound.pdf (status 200) when there is none, as the original. */
export async function definitionZipDownload(storage: Storage, key: string, filename: string): Promise<FileResult> {
  const stored = await storage.open(key);
  if (!stored) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment: true };
  return { filename, contentType: 'application/zip', data: stored.stream, size: stored.size, asAttachment: true };
}
