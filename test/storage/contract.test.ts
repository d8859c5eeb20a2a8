// The storage contract (src/storage/storage.ts), the same tests against both stores: the local
// directory and an S3-compatible bucket (s3rver, started here). Callers must not be able to tell
// them apart: same bytes, same ranges, same listing, same answers for a missing file, and a write
// never visible before it is complete.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { storageFault } from '../../src/storage/faults.ts';
import { createStorage, readAll, StorageKeyError, StoredFileTooLarge, type Storage, type StoredEntry } from '../../src/storage/index.ts';
import { s3Storage } from '../../src/storage/s3.ts';
import { type S3Server, startS3Server } from '../support/s3-server.ts';
import { tcpGate } from '../support/tcp-gate.ts';

const MB = 1024 * 1024;

const list = async (storage: Storage, prefix: string): Promise<StoredEntry[]> => {
  const entries: StoredEntry[] = [];
  for await (const entry of storage.list(prefix)) entries.push(entry);
  return entries;
};

const text = async (storage: Storage, key: string) => (await readAll(storage, key, Infinity))?.toString() ?? null;

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Bytes 0..n-1 of a recognisable pattern, so a misplaced range or part shows. */
const pattern = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + (i >> 8)) & 0xff));

/**
 * A source the test feeds by hand: `push` hands it bytes and resolves once the store has read them
 * all and asks for more, so the write is provably under way and not complete.
 */
function handFedSource() {
  let wanted: (() => void) | undefined;
  const stream = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      const w = wanted;
      wanted = undefined;
      w?.();
    },
  });
  return {
    stream,
    push(bytes: Buffer): Promise<void> {
      const asked = new Promise<void>((resolve) => {
        wanted = resolve;
      });
      for (let at = 0; at < bytes.length; at += 64 * 1024) stream.push(bytes.subarray(at, at + 64 * 1024));
      return asked;
    },
    end: () => stream.push(null),
    fail: (error: Error) => stream.destroy(error),
  };
}

/** The contract's tests on one store; all counted as skipped when the store is a reason it cannot run. */
function contract(name: string, store: Storage | string) {
  const test = suite(`storage contract: ${name}`);
  const it = (title: string, body: (storage: Storage) => Promise<void>) =>
    typeof store === 'string' ? test.skip(title, () => {}) : test(title, () => body(store));

  it('write from a stream and from a local file; read back byte for byte, with size and time', async (storage) => {
    const bytes = pattern(300_000);
    const stored = await storage.put('contract/write/a.bin', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    assert.is(stored.size, bytes.length);
    assert.instance(stored.modifiedAt, Date);
    assert.equal(await readAll(storage, 'contract/write/a.bin', Infinity), bytes);
    assert.is((await storage.stat('contract/write/a.bin'))?.size, bytes.length);
    assert.is(await storage.exists('contract/write/a.bin'), true);

    const source = join(mkdtempSync(join(tmpdir(), 'contract-src-')), 'upload');
    writeFileSync(source, 'from a file');
    assert.is((await storage.put('contract/write/b.txt', { path: source })).size, 11);
    assert.is(await text(storage, 'contract/write/b.txt'), 'from a file');

    assert.is((await storage.put('contract/write/empty', Readable.from([]))).size, 0);
    assert.equal(await readAll(storage, 'contract/write/empty', Infinity), Buffer.alloc(0));
  });

  it('a second write replaces the file whole; copy makes an independent duplicate', async (storage) => {
    await storage.put('contract/replace/f', Readable.from([Buffer.from('old and longer')]));
    await storage.put('contract/replace/f', Readable.from([Buffer.from('new')]));
    assert.is(await text(storage, 'contract/replace/f'), 'new');
    assert.is(await storage.copy('contract/replace/f', 'contract/replace/g'), true);
    await storage.delete('contract/replace/f');
    assert.is(await text(storage, 'contract/replace/g'), 'new');
  });

  it('range reads give exactly the bytes asked for, and the whole file size', async (storage) => {
    const bytes = pattern(100_000);
    await storage.put('contract/range/r.bin', Readable.from([bytes]));
    for (const [start, end] of [
      [0, 0],
      [10, 19],
      [65_530, 70_000],
      [99_999, 99_999],
    ]) {
      const file = await storage.open('contract/range/r.bin', { start, end });
      assert.is(file?.size, 100_000);
      assert.equal(await readStream(file!.stream), bytes.subarray(start, end + 1), `bytes ${start}-${end}`);
    }
    const tail = await storage.open('contract/range/r.bin', { start: 99_000 });
    assert.equal(await readStream(tail!.stream), bytes.subarray(99_000));
    const clipped = await storage.open('contract/range/r.bin', { start: 99_990, end: 200_000 });
    assert.equal(await readStream(clipped!.stream), bytes.subarray(99_990));
    const beyond = await storage.open('contract/range/r.bin', { start: 100_000 });
    assert.is(beyond?.size, 100_000);
    assert.equal(await readStream(beyond!.stream), Buffer.alloc(0));
  });

  it('a whole read is bounded: a file above the bound is refused before it is read, one at the bound is read', async (storage) => {
    const bytes = pattern(10_000);
    await storage.put('contract/bounded/f.bin', Readable.from([bytes]));
    assert.equal(await readAll(storage, 'contract/bounded/f.bin', 10_000), bytes);
    try {
      await readAll(storage, 'contract/bounded/f.bin', 9_999);
      assert.unreachable('a file above the bound is refused');
    } catch (error) {
      assert.instance(error, StoredFileTooLarge);
      assert.equal([(error as StoredFileTooLarge).size, (error as StoredFileTooLarge).maxBytes], [10_000, 9_999]);
    }
    assert.is(await readAll(storage, 'contract/bounded/none', 10), null);
  });

  it('list names every file below a folder, at any depth, in key order, and nothing beside it', async (storage) => {
    for (const key of ['contract/list/a/2.txt', 'contract/list/a/1.txt', 'contract/list/a/sub/3.txt', 'contract/list/ab/x', 'contract/list/a.txt']) {
      await storage.put(key, Readable.from([Buffer.from(key)]));
    }
    const listed = await list(storage, 'contract/list/a');
    assert.equal(
      listed.map((e) => [e.key, e.size]),
      [
        ['contract/list/a/1.txt', 21],
        ['contract/list/a/2.txt', 21],
        ['contract/list/a/sub/3.txt', 25],
      ],
    );
    assert.ok(listed.every((e) => e.modifiedAt instanceof Date));
    assert.equal(await list(storage, 'contract/list/none'), []);
    assert.equal(await list(storage, 'contract/list/a.txt'), [], 'a file is not a folder');
  });

  it('delete removes the file; deleting again, or a file never there, is not an error', async (storage) => {
    await storage.put('contract/delete/d', Readable.from([Buffer.from('d')]));
    await storage.delete('contract/delete/d');
    assert.is(await storage.exists('contract/delete/d'), false);
    await storage.delete('contract/delete/d');
    await storage.delete('contract/delete/never');
    assert.equal(await list(storage, 'contract/delete'), []);
  });

  it('a missing file: open (whole or a range) and stat give null, exists false, copy false', async (storage) => {
    assert.is(await storage.open('contract/missing/none.pdf'), null);
    assert.is(await storage.open('contract/missing/none.pdf', { start: 0, end: 9 }), null);
    assert.is(await storage.stat('contract/missing/none.pdf'), null);
    assert.is(await storage.exists('contract/missing/none.pdf'), false);
    assert.is(await storage.copy('contract/missing/none.pdf', 'contract/missing/copy.pdf'), false);
    assert.is(await storage.exists('contract/missing/copy.pdf'), false);
  });

  it('a write is visible only when complete (past the first 8 MB part); a failed one leaves the old file', async (storage) => {
    const key = 'contract/atomic/big.bin';
    await storage.put(key, Readable.from([Buffer.from('the old file')]));
    const first = pattern(9 * MB);
    const source = handFedSource();
    const writing = storage.put(key, source.stream);
    await source.push(first);
    // More than one part has been read and is being written; readers still see the old file only.
    assert.is(await text(storage, key), 'the old file');
    assert.is((await storage.stat(key))?.size, 12);
    assert.equal(
      (await list(storage, 'contract/atomic')).map((e) => [e.key, e.size]),
      [[key, 12]],
    );
    const rest = pattern(MB + 5);
    await Promise.all([source.push(rest).then(source.end), writing]);
    const stored = await readAll(storage, key, Infinity);
    assert.is(stored?.length, first.length + rest.length);
    assert.ok(stored?.equals(Buffer.concat([first, rest])), 'the new bytes, in order');

    const failing = handFedSource();
    const failed = storage.put(key, failing.stream);
    await failing.push(pattern(9 * MB));
    failing.fail(new Error('client went away'));
    try {
      await failed;
      assert.unreachable('a failed source must fail the write');
    } catch (error) {
      assert.match((error as Error).message, 'client went away');
    }
    assert.is((await storage.stat(key))?.size, first.length + rest.length, 'the last complete file stays');
    assert.equal(
      (await list(storage, 'contract/atomic')).map((e) => e.key),
      [key],
    );
  });

  it('keys that could leave the store or name odd paths are refused', async (storage) => {
    for (const key of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', 'a/', '.hidden', 'a\\b']) {
      for (const run of [
        () => storage.put(key, Readable.from([Buffer.from('x')])),
        () => storage.open(key, { start: 0 }),
        () => storage.stat(key),
        () => storage.delete(key),
        () => storage.copy('ok/key', key),
        () => list(storage, key),
      ]) {
        try {
          await run();
          assert.unreachable(`key ${JSON.stringify(key)} was accepted`);
        } catch (error) {
          assert.instance(error, StorageKeyError, `key ${JSON.stringify(key)}`);
        }
      }
    }
  });

  test.run();
}

contract('local directory', createStorage({ storageRoot: mkdtempSync(join(tmpdir(), 'contract-files-')) }));

// The S3 run's server, started before the suites are made so that, when it cannot start, its
// tests count as skipped (with one line saying why), never as passed.
const server: S3Server | string = await startS3Server().catch((error: Error) => `the local S3 server (s3rver) cannot start: ${error.message}`);
if (typeof server === 'string') console.log(`SKIPPED storage contract on S3: ${server}`);
contract(
  'S3-compatible bucket (s3rver)',
  typeof server === 'string'
    ? server
    : createStorage({ storageRoot: '/nonexistent', objectStorage: { bucket: server.bucket, prefix: 'course/files', forcePathStyle: true, timeoutMs: 30_000 } }),
);

const faults = suite('storage contract: an S3 store that does not answer');
faults('answers 503 "cannot be reached", as a disk that cannot be written does, not a 500', async () => {
  // A port nothing listens on, one attempt instead of the SDK's three.
  const client = new S3Client({
    endpoint: 'http://127.0.0.1:1',
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  const storage = s3Storage({ bucket: 'course-files', prefix: '', forcePathStyle: true, timeoutMs: 30_000 }, client);
  for (const run of [() => storage.put('x/y', Readable.from([Buffer.from('y')])), () => storage.open('x/y'), () => list(storage, 'x')]) {
    try {
      await run();
      assert.unreachable('an unreachable store must fail');
    } catch (error) {
      assert.equal(storageFault(error), { status: 503, message: 'Storage cannot be reached at the moment. Please try again later.' });
    }
  }
});
const onServer = (title: string, body: () => Promise<void>) => (typeof server === 'string' ? faults.skip(title, () => {}) : faults(title, body));
onServer('a bucket that is not there answers 503 for writes and reads, not "no file" and not a 500', async () => {
  const storage = s3Storage({ bucket: 'course-files-missing', prefix: '', forcePathStyle: true, timeoutMs: 30_000 });
  for (const run of [() => storage.put('x/y', Readable.from([Buffer.from('y')])), () => storage.open('x/y'), () => list(storage, 'x')]) {
    try {
      await run();
      assert.unreachable('a missing bucket must fail');
    } catch (error) {
      assert.equal(storageFault(error)?.status, 503);
      assert.match((error as Error).message, 'the bucket of STORAGE_URL does not exist');
    }
  }
});
onServer('a store that stops answering fails the read after S3_TIMEOUT_SECONDS, at the start or mid-stream, instead of never', async () => {
  const { endpoint, bucket } = server as S3Server;
  const healthy = s3Storage({ bucket, prefix: 'stalls', forcePathStyle: true, timeoutMs: 30_000 });
  await healthy.put('big', Readable.from([Buffer.alloc(4 * MB, 7)]));
  // Bytes through the gate wait while it is held: the connection stays open, nothing moves.
  const gate = await tcpGate(Number(new URL(endpoint).port));
  const previous = process.env.AWS_ENDPOINT_URL_S3;
  process.env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${gate.port}`;
  const stalling = s3Storage({ bucket, prefix: 'stalls', forcePathStyle: true, timeoutMs: 1000 });
  try {
    const file = (await stalling.open('big'))!;
    const chunks = file.stream[Symbol.asyncIterator]();
    await chunks.next();
    gate.hold();
    const midStream = await (async () => {
      for (let next = await chunks.next(); !next.done; next = await chunks.next());
    })().then(
      () => 'read to the end',
      (error: Error) => error.name,
    );
    assert.is(midStream, 'TimeoutError', 'a body that stops moving ends in an error');
    const atStart = await stalling.open('big').then(
      () => 'opened',
      (error: unknown) => storageFault(error)?.status,
    );
    assert.is(atStart, 503, 'an open that gets no answer fails as "cannot be reached"');
  } finally {
    process.env.AWS_ENDPOINT_URL_S3 = previous;
    gate.release();
    await gate.close();
  }
});
faults.after(async () => {
  if (typeof server !== 'string') await server.close();
});
faults.run();
