// The listings of stored SCORM packages, kept per process so that serving one file of a package
// costs a stat and the file's own ranged reads, not a read of the zip's directory each time.
// Keyed by definition and the stored file's size and time: a replaced package is a new key, and
// is never served from the old listing. Bounded in count (each listing holds at most
// MAX_PACKAGE_ENTRIES entries' names and offsets, never their bytes).
import { openRangedZip, type RangedZip } from '../../lib/zip.ts';
import { storageKeys, type Storage, type StoredStat } from '../../storage/index.ts';

/** Packages whose listing a process keeps. */
const KEEP = 16;

const listings = new Map<string, Promise<RangedZip>>();

const keyOf = (definitionId: number, stat: StoredStat) => `${definitionId}:${stat.size}:${stat.modifiedAt.getTime()}`;

/** The listing of definition `definitionId`'s stored package, or null when none is stored. */
export async function packageListing(storage: Storage, definitionId: number): Promise<RangedZip | null> {
  const key = storageKeys.scormPackage(definitionId);
  const stat = await storage.stat(key);
  if (!stat) return null;
  const cacheKey = keyOf(definitionId, stat);
  let listing = listings.get(cacheKey);
  if (listing) {
    // Most recently used last, so the first key is the one to drop.
    listings.delete(cacheKey);
    listings.set(cacheKey, listing);
    return listing;
  }
  listing = openRangedZip(stat.size, async (start, end) => {
    const opened = await storage.open(key, { start, end: end - 1 });
    if (!opened) throw new Error('the package was removed while it was read');
    return opened.stream;
  });
  listings.set(cacheKey, listing);
  // A failed read is not kept: the next request tries again.
  listing.catch(() => listings.delete(cacheKey));
  for (const old of listings.keys()) {
    if (listings.size <= KEEP) break;
    listings.delete(old);
  }
  // Older listings of the same definition are stale for good.
  for (const old of listings.keys()) if (old.startsWith(`${definitionId}:`) && old !== cacheKey) listings.delete(old);
  return listing;
}
