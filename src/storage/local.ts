// Storage on the local disk under one root directory. A write goes to a temporary file in the
// target's own directory (same file system, so the rename is atomic) and is renamed over the target
// once complete; a failed write removes its temporary file.
import { randomBytes } from 'node:crypto';
import { constants, createWriteStream, type Dirent } from 'node:fs';
import { access, copyFile, type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageKeyError, validKey } from './keys.ts';
import type { ByteRange, Storage, StoredEntry, StoredFile, StoredStat } from './storage.ts';

const isStream = (source: Readable | { path: string }): source is Readable => typeof (source as Readable).pipe === 'function';
const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export function localStorage(root: string): Storage {
  const base = resolve(root);

  const pathOf = (key: string): string => {
    const path = resolve(base, ...validKey(key).split('/'));
    if (!path.startsWith(base + sep)) throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`);
    return path;
  };

  /** Runs `write` against a temporary sibling of `path`, then renames it into place. */
  const atomically = async (path: string, write: (temp: string) => Promise<void>): Promise<StoredStat> => {
    await mkdir(dirname(path), { recursive: true }).catch(async (error: unknown) => {
      // A recursive mkdir on a read-only file system reports ENOENT; the root's own answer names the cause.
      await access(base, constants.W_OK);
      throw error;
    });
    const temp = join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
    try {
      await write(temp);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    const s = await stat(path);
    return { size: s.size, modifiedAt: s.mtime };
  };

  const statOf = async (path: string): Promise<StoredStat | null> => {
    try {
      const s = await stat(path);
      return s.isFile() ? { size: s.size, modifiedAt: s.mtime } : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  };

  /** Files under `dir` as keys, depth first; temporary files (a dot first, never a valid key) are writes not yet complete. */
  const filesUnder = async (dir: string, prefix: string): Promise<string[]> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (missing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw error;
    }
    const found = await Promise.all(
      entries
        .filter((e) => !e.name.startsWith('.'))
        .map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : e.isFile() ? [`${prefix}${e.name}`] : [])),
    );
    return found.flat();
  };

  return {
    location: base,

    put(key, source) {
      const path = pathOf(key);
      return atomically(path, async (temp) => {
        if (isStream(source)) await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
        else await copyFile(source.path, temp);
      });
    },

    async open(key, range?: ByteRange): Promise<StoredFile | null> {
      const path = pathOf(key);
      let handle: FileHandle;
      try {
        handle = await open(path, 'r');
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      // The size from the open handle, so a replacement renamed in meanwhile cannot mismatch it.
      const s = await handle.stat();
      if (!s.isFile()) {
        await handle.close();
        return null;
      }
      const stream = range ? handle.createReadStream({ start: range.start, end: range.end }) : handle.createReadStream();
      return { size: s.size, modifiedAt: s.mtime, stream };
    },

    stat: (key) => statOf(pathOf(key)),

    async exists(key) {
      return (await statOf(pathOf(key))) !== null;
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },

    async copy(from, to) {
      const source = pathOf(from);
      const target = pathOf(to);
      if (!(await statOf(source))) return false;
      try {
        await atomically(target, (temp) => copyFile(source, temp));
      } catch (error) {
        if (missing(error)) return false; // the source went away meanwhile
        throw error;
      }
      return true;
    },

    async *list(prefix): AsyncIterable<StoredEntry> {
      const folder = validKey(prefix);
      // Sorted as S3 sorts keys (by code unit), so both stores list alike.
      const keys = (await filesUnder(pathOf(folder), `${folder}/`)).sort();
      for (const key of keys) {
        const s = await statOf(pathOf(key));
        if (s) yield { key, ...s };
      }
    },
  };
}
