// Zips in and out, as streams. A name inside a zip is only ever a label or a matching key: nothing
// here writes an entry to a path, and a name that would climb out of a folder (`../x`), start at
// the root (`/x`, `C:x`) or hide a separator (`a\..\x`) is reported as unsafe, never opened.
import { createWriteStream } from 'node:fs';
import { open as openFile, rm } from 'node:fs/promises';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

export class NotAZipError extends Error {}

/** The byte signatures a zip starts with: a local file header, or an empty archive's end record. */
const ZIP_SIGNATURES = [Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from([0x50, 0x4b, 0x05, 0x06])];

/**
 * Why an entry name is unsafe, or null when it is a plain relative name. Backslashes count as
 * separators (Windows tools treat them so), so `..\x` is caught too.
 */
export function unsafeEntryName(name: string): string | null {
  if (name === '' || name.includes('\0')) return 'empty or NUL in name';
  const slashed = name.replace(/\\/g, '/');
  if (/^[a-zA-Z]:/.test(slashed) || slashed.startsWith('/')) return 'absolute path';
  if (slashed.split('/').includes('..')) return 'climbs out of its folder';
  return null;
}

/** An entry of a zip being read. `open()` streams its (decompressed) bytes; unsafe entries refuse. */
export interface ZipEntryIn {
  /** The name as the zip gives it (backslashes turned into slashes). */
  name: string;
  /** Why the name is unsafe; null for an ordinary name. */
  unsafe: string | null;
  isDirectory: boolean;
  /** Declared uncompressed size; reading checks the bytes match it. */
  size: number;
  /** The last part of the name (`a/b/1.1P.pdf` → `1.1P.pdf`). */
  baseName: string;
  open(): Promise<Readable>;
}

/** Does the file start like a zip? Cheap, before a full read. */
export async function startsLikeZip(path: string): Promise<boolean> {
  const handle = await openFile(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && ZIP_SIGNATURES.some((sig) => sig.equals(head));
  } finally {
    await handle.close();
  }
}

async function openZip(path: string): Promise<yauzl.ZipFile> {
  if (!(await startsLikeZip(path))) throw new NotAZipError('not a zip file');
  try {
    // Names stay raw here so one bad name is reported for that entry instead of failing the whole read.
    return await yauzl.openPromise(path, { lazyEntries: true, decodeStrings: false, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw new NotAZipError(`not a readable zip file (${(error as Error).message})`);
  }
}

function entryIn(zip: yauzl.ZipFile, raw: yauzl.Entry): ZipEntryIn {
  const name = yauzl.getFileNameLowLevel(raw.generalPurposeBitFlag, raw.fileNameRaw, raw.extraFields, false);
  const unsafe = unsafeEntryName(name) ?? yauzl.validateFileName(name);
  const isDirectory = name.endsWith('/');
  const parts = name.split('/').filter(Boolean);
  return {
    name,
    unsafe,
    isDirectory,
    size: raw.uncompressedSize,
    baseName: parts[parts.length - 1] ?? '',
    open: async () => {
      if (unsafe) throw new NotAZipError(`unsafe entry name ${JSON.stringify(name)}: ${unsafe}`);
      if (!raw.canDecodeFileData()) throw new NotAZipError(`entry ${JSON.stringify(name)} is encrypted or uses an unknown compression`);
      return zip.openReadStreamPromise(raw);
    },
  };
}

/**
 * Reads the zip at `path` entry by entry. Each entry's stream must be read (or destroyed) before
 * the next entry is asked for. The file is closed when the loop ends, however it ends. A file
 * that is not a readable zip throws NotAZipError, also when the damage is found part way.
 */
export async function* readZip(path: string): AsyncGenerator<ZipEntryIn> {
  const zip = await openZip(path);
  try {
    const entries = zip.eachEntry();
    while (true) {
      let next: IteratorResult<yauzl.Entry>;
      try {
        next = await entries.next();
      } catch (error) {
        throw new NotAZipError(`not a readable zip file (${(error as Error).message})`);
      }
      if (next.done) return;
      yield entryIn(zip, next.value);
    }
  } finally {
    zip.close();
  }
}

/** Every entry's name, size and safety, from the central directory (no entry data is read). */
export async function listZip(path: string): Promise<Omit<ZipEntryIn, 'open'>[]> {
  const out: Omit<ZipEntryIn, 'open'>[] = [];
  for await (const { open: _open, ...entry } of readZip(path)) out.push(entry);
  return out;
}

/**
 * Checks that `path` is a zip whose every entry has a safe name; throws NotAZipError naming the
 * first problem. A zip we hand out again (task resources) must not carry a name that would
 * escape the folder a student unpacks it into.
 */
export async function assertSafeZip(path: string): Promise<void> {
  for (const entry of await listZip(path)) {
    if (entry.unsafe) throw new NotAZipError(`it holds an unsafe entry name ${JSON.stringify(entry.name)} (${entry.unsafe})`);
  }
}

/** Reads an entry's bytes whole, refusing more than `maxBytes` (the declared size is checked first). */
export async function readEntry(entry: ZipEntryIn, maxBytes: number): Promise<Buffer> {
  if (entry.size > maxBytes) throw new NotAZipError(`entry ${JSON.stringify(entry.name)} is larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of await entry.open()) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw new NotAZipError(`entry ${JSON.stringify(entry.name)} is larger than ${maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    // yauzl's own complaints (more or fewer bytes than declared, a broken deflate stream) are the zip's fault.
    if (error instanceof NotAZipError) throw error;
    throw new NotAZipError(`entry ${JSON.stringify(entry.name)} cannot be read (${(error as Error).message})`);
  }
  return Buffer.concat(chunks);
}

/**
 * Copies an entry's bytes to `destination`, a path the caller chose (never one derived from the
 * entry's name), refusing more than `maxBytes`; a refused or failed copy leaves no file behind.
 */
export async function copyEntryTo(entry: ZipEntryIn, destination: string, maxBytes: number): Promise<number> {
  const tooBig = () => new NotAZipError(`entry ${JSON.stringify(entry.name)} is larger than ${maxBytes} bytes`);
  if (entry.size > maxBytes) throw tooBig();
  let total = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done(total > maxBytes ? tooBig() : null, chunk);
    },
  });
  try {
    await pipeline(await entry.open(), cap, createWriteStream(destination, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await rm(destination, { force: true });
    // Our own disk failing is no fault of the zip's.
    if (error instanceof NotAZipError || (error as NodeJS.ErrnoException).syscall) throw error;
    throw new NotAZipError(`entry ${JSON.stringify(entry.name)} cannot be read (${(error as Error).message})`);
  }
  return total;
}

// ---- Writing ---------------------------------------------------------------------------------

/**
 * An entry of a zip being written: bytes at hand, or a stream opened only when its turn comes.
 * `compress: false` stores it as is (PDFs and zips gain nothing from deflate).
 */
export type ZipEntryOut = { name: string; mtime?: Date; compress?: boolean } & ({ data: Buffer } | { open: () => Promise<Readable> | Readable });

/**
 * A name that is safe inside a zip and on any file system: separators, control characters and
 * characters Windows forbids become `_`, and a name of dots only is replaced.
 */
export function safeEntryPart(label: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it replaces control characters
  const cleaned = label.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').trim();
  return cleaned === '' || /^\.+$/.test(cleaned) ? '_' : cleaned;
}

/**
 * A zip written as it is read: entries are added in order and each stream is opened only when
 * the zip reaches it, so a zip of many stored files holds one file open at a time and never sits
 * whole in memory. An entry whose stream fails fails the zip stream (the download is cut off
 * rather than silently missing a file); a reader that goes away closes the open entry.
 */
export function writeZip(entries: Iterable<ZipEntryOut> | AsyncIterable<ZipEntryOut>): Readable {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  let current: Readable | undefined;
  const fail = (error: Error) => {
    if (!out.destroyed) out.destroy(error);
  };
  zip.on('error', fail);
  out.on('close', () => current?.destroy());
  (zip.outputStream as unknown as Readable).pipe(out);
  void (async () => {
    try {
      for await (const entry of entries) {
        if (out.destroyed) return;
        const name = entry.name;
        const unsafe = unsafeEntryName(name);
        if (unsafe) throw new Error(`refusing to write the zip entry name ${JSON.stringify(name)} (${unsafe})`);
        const options = { mtime: entry.mtime ?? new Date(), compress: entry.compress ?? true };
        if ('data' in entry) {
          zip.addBuffer(entry.data, name, options);
          continue;
        }
        zip.addReadStreamLazy(name, options, (callback) => {
          Promise.resolve()
            .then(() => entry.open())
            .then(
              (stream) => {
                current = stream;
                // yazl pipes the stream without listening for its errors.
                stream.on('error', fail);
                if (out.destroyed) stream.destroy();
                callback(null, stream);
              },
              (error: Error) => fail(error),
            );
        });
      }
      zip.end();
    } catch (error) {
      fail(error as Error);
    }
  })();
  return out;
}

/** A whole zip in memory: for tests and small answers. */
export async function zipToBuffer(entries: Iterable<ZipEntryOut> | AsyncIterable<ZipEntryOut>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of writeZip(entries)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// ---- Reading a stored zip by ranges ----------------------------------------------------------

/** Bytes `start` up to (not including) `end` of a stored file, as a stream. */
export type RangeRead = (start: number, end: number) => Promise<Readable>;

/** The largest central directory read whole into memory (a zip's listing: ~50 bytes and the name per entry). */
const MAX_DIRECTORY_BYTES = 16 * 1024 * 1024;
/** The end record and its comment sit in a zip's last 64 KiB + 22 bytes. */
const END_SEARCH_BYTES = 0xffff + 22;

async function readAll(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += (chunk as Buffer).length;
    if (total > max) {
      stream.destroy();
      throw new NotAZipError(`more than ${max} bytes where a zip's directory was expected`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * yauzl's reader over ranged reads of a stored file. While the listing is read, the zip's tail
 * (its central directory and end record, fetched in one read) answers from memory, so listing a
 * package costs two reads of the store instead of two per entry; afterwards the tail is let go
 * and each entry is read with its own ranged reads.
 */
class RangedReader extends yauzl.RandomAccessReader {
  tail: { start: number; bytes: Buffer } | null = null;
  // Not `read`: yauzl's reader has a method of that name.
  constructor(private readonly readRange: RangeRead) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    const tail = this.tail;
    if (tail && start >= tail.start && end <= tail.start + tail.bytes.length) {
      return Readable.from([tail.bytes.subarray(start - tail.start, end - tail.start)]);
    }
    if (end <= start) return Readable.from([]);
    const out = new PassThrough();
    this.readRange(start, end).then(
      (source) => {
        source.on('error', (error) => out.destroy(error));
        out.on('close', () => source.destroy());
        source.pipe(out);
      },
      (error: Error) => out.destroy(error),
    );
    return out;
  }
}

/** Where the central directory starts, from the end record in `end` (the file's last bytes); null for ZIP64 or none found. */
function directoryStart(end: Buffer, size: number): number | null {
  for (let i = end.length - 22; i >= 0; i--) {
    if (end.readUInt32LE(i) !== 0x06054b50) continue;
    const offset = end.readUInt32LE(i + 16);
    if (offset === 0xffffffff) return null;
    return offset <= size ? offset : null;
  }
  return null;
}

/** A zip read from storage by ranges: its entries by name (safe ones only), each opened on demand. */
export interface RangedZip {
  entries: Map<string, ZipEntryIn>;
  /** The entries' declared sizes, added up. */
  unpackedBytes: number;
}

/**
 * Lists the zip of `size` bytes that `read` reads, without fetching its entries' data: what a
 * server needs to serve one file of a stored package. Unsafe names are left out (they were
 * refused on upload); a damaged zip throws NotAZipError.
 */
export async function openRangedZip(size: number, read: RangeRead): Promise<RangedZip> {
  const reader = new RangedReader(read);
  const endStart = Math.max(0, size - END_SEARCH_BYTES);
  const end = await readAll(await read(endStart, size), END_SEARCH_BYTES);
  const cd = directoryStart(end, size);
  if (cd !== null && cd >= endStart) reader.tail = { start: endStart, bytes: end };
  else if (cd !== null && size - cd <= MAX_DIRECTORY_BYTES) reader.tail = { start: cd, bytes: await readAll(await read(cd, size), MAX_DIRECTORY_BYTES) };
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, size, { lazyEntries: true, decodeStrings: false, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw new NotAZipError(`not a readable zip file (${(error as Error).message})`);
  }
  const entries = new Map<string, ZipEntryIn>();
  let unpackedBytes = 0;
  try {
    for await (const raw of zip.eachEntry()) {
      const entry = entryIn(zip, raw);
      unpackedBytes += entry.size;
      if (!entry.unsafe && !entry.isDirectory) entries.set(entry.name, entry);
    }
  } catch (error) {
    throw new NotAZipError(`not a readable zip file (${(error as Error).message})`);
  } finally {
    reader.tail = null;
  }
  return { entries, unpackedBytes };
}
