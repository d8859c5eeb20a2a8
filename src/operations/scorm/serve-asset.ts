// GET /api/scorm/{task_def_id}/{username}/{scorm_token}/{file_path}: one file of a definition's
// stored SCORM package, for the package's own pages (docs/online-tests.md, "Assets and their
// isolation"). The token is a SCORM token (scorm-tokens.ts), never a sign-in token; every refusal
// is the same 404, so a URL that does not work says nothing about which part of it is wrong.
import { Transform, type Readable } from 'node:stream';
import type { Em } from '../../db/orm.ts';
import { db } from '../../db/kysely.ts';
import { BRIDGE_SEARCH_BYTES, SCORM_ASSET_CSP, SCORM_BRIDGE_MARKUP, assetContentType, bridgeOffset, isHtmlAsset } from '../../domain/scorm-assets.ts';
import { normalizePackagePath } from '../../domain/scorm-manifest.ts';
import { notFound } from '../../lib/errors.ts';
import type { FileResult } from '../../lib/files.ts';
import { NotAZipError, type ZipEntryIn } from '../../lib/zip.ts';
import { canInUnit, roleInUnit } from '../../policy/index.ts';
import type { Storage } from '../../storage/index.ts';
import { scormTokenUser } from '../auth/scorm-tokens.ts';
import { packageListing } from './package-directory.ts';

export const ASSET_NOT_FOUND = 'File not found';
export const NO_SCORM_DATA = 'SCORM data does not exist.';

export interface AssetRequest {
  taskDefId: number;
  username: string;
  token: string;
  filePath: string;
}

/** The headers every asset answers with: never cached (the URL carries a token), never sniffed, always sandboxed. */
export const ASSET_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': SCORM_ASSET_CSP,
} as const;

/**
 * An HTML file's bytes with the bridge in place: the start is held (at most BRIDGE_SEARCH_BYTES)
 * until its <head> is seen, then everything streams through.
 */
function withBridge(source: Readable): Readable {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let done = false;
  const release = (push: (b: Buffer) => void, complete: boolean): boolean => {
    const prefix = Buffer.concat(held);
    const at = bridgeOffset(prefix.toString('latin1'), complete);
    if (at === null) return false;
    push(Buffer.concat([prefix.subarray(0, at), Buffer.from(SCORM_BRIDGE_MARKUP, 'utf8'), prefix.subarray(at)]));
    held = [];
    done = true;
    return true;
  };
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      release((b) => this.push(b), heldBytes >= BRIDGE_SEARCH_BYTES);
      callback();
    },
    flush(callback) {
      if (!done) release((b) => this.push(b), true);
      callback();
    },
  });
  source.on('error', (error) => transform.destroy(error));
  transform.on('close', () => source.destroy());
  return source.pipe(transform);
}

/** The file, or a 404: bad or expired token, another user's token, a unit the user may not read, no package, no such file. */
export async function openScormAsset(em: Em, storage: Storage, request: AssetRequest, now: Date): Promise<FileResult> {
  const user = await scormTokenUser(em, request.username, request.token, now);
  if (!user) throw notFound(ASSET_NOT_FOUND);
  const td = await db(em).selectFrom('task_definitions').select(['id', 'unit_id', 'scorm_version']).where('id', '=', request.taskDefId).executeTakeFirst();
  if (!td) throw notFound(ASSET_NOT_FOUND);
  if (!canInUnit(await roleInUnit(em, user, td.unit_id), 'get_unit')) throw notFound(ASSET_NOT_FOUND);
  if (td.scorm_version === null) throw notFound(NO_SCORM_DATA);
  const path = normalizePackagePath(request.filePath);
  if (!path) throw notFound(ASSET_NOT_FOUND);
  let stream: Readable;
  let entry: ZipEntryIn;
  try {
    const listing = await packageListing(storage, td.id);
    if (!listing) throw notFound(NO_SCORM_DATA);
    const found = listing.entries.get(path);
    if (!found) throw notFound(ASSET_NOT_FOUND);
    entry = found;
    stream = await entry.open();
  } catch (error) {
    // A stored package that no longer reads as a zip (or an entry it cannot inflate) has no such file to give.
    if (error instanceof NotAZipError) throw notFound(ASSET_NOT_FOUND);
    throw error;
  }
  const html = isHtmlAsset(path);
  return {
    filename: entry.baseName,
    contentType: assetContentType(path),
    data: html ? withBridge(stream) : stream,
    size: entry.size + (html ? Buffer.byteLength(SCORM_BRIDGE_MARKUP) : 0),
    asAttachment: false,
    sandboxed: true,
    headers: ASSET_HEADERS,
  };
}
