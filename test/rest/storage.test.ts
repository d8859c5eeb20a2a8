import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createStorage, readAll, StorageKeyError, storageKeys, type Storage } from '../../src/storage/index.ts';
import { testEnv } from '../support/env.ts';

const test = suite('storage: files under STORAGE_ROOT');

let root: string;
let storage: Storage;
test.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'storage-test-'));
  storage = createStorage({ storageRoot: root });
});

/** Every file under the root, relative, temporary files included. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

test('put from a stream makes every missing directory; open, stat and exists read it back byte for byte', async () => {
  const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
  const key = storageKeys.taskSheet(42);
  assert.is(key, 'task_definitions/42/sheet.pdf');
  const stat = await storage.put(key, Readable.from([bytes]));
  assert.is(stat.size, 6);
  assert.equal(await readAll(storage, key, Infinity), bytes);
  assert.is((await storage.stat(key))?.size, 6);
  assert.is(await storage.exists(key), true);
  const file = await storage.open(key);
  assert.is(file?.size, 6);
  file?.stream.destroy();
  assert.equal(filesUnder(root), ['task_definitions/42/sheet.pdf']);
});

test("put from a local file (an upload's temporary file) copies it, leaving the original", async () => {
  const source = join(mkdtempSync(join(tmpdir(), 'storage-src-')), 'upload');
  writeFileSync(source, 'hello');
  await storage.put('a/b/c.txt', { path: source });
  assert.equal((await readAll(storage, 'a/b/c.txt', Infinity))?.toString(), 'hello');
  assert.equal(filesUnder(join(source, '..')), ['upload']);
});

test('a second put replaces the file whole; a failed put leaves the old file and no temporary file', async () => {
  await storage.put('k/file.bin', Readable.from([Buffer.from('old')]));
  await storage.put('k/file.bin', Readable.from([Buffer.from('new contents')]));
  assert.is((await readAll(storage, 'k/file.bin', Infinity))?.toString(), 'new contents');
  const failing = new Readable({
    read() {
      this.push(Buffer.from('partial'));
      this.destroy(new Error('client went away'));
    },
  });
  try {
    await storage.put('k/file.bin', failing);
    assert.unreachable('a failed stream must fail the put');
  } catch (error) {
    assert.is((error as Error).message, 'client went away');
  }
  assert.is((await readAll(storage, 'k/file.bin', Infinity))?.toString(), 'new contents');
  assert.equal(filesUnder(root), ['k/file.bin']);
});

test('missing files: open and stat give null, exists false, delete is idempotent, copy reports false', async () => {
  assert.is(await storage.open('none/here.pdf'), null);
  assert.is(await storage.stat('none/here.pdf'), null);
  assert.is(await storage.exists('none/here.pdf'), false);
  await storage.delete('none/here.pdf');
  await storage.put('x/y.pdf', Readable.from([Buffer.from('y')]));
  await storage.delete('x/y.pdf');
  await storage.delete('x/y.pdf');
  assert.is(await storage.exists('x/y.pdf'), false);
  assert.is(await storage.copy('none/here.pdf', 'x/z.pdf'), false);
  assert.is(await storage.exists('x/z.pdf'), false);
});

test('copy duplicates a file under a new key; the two are independent', async () => {
  await storage.put(storageKeys.taskSheet(1), Readable.from([Buffer.from('%PDF-sheet')]));
  assert.is(await storage.copy(storageKeys.taskSheet(1), storageKeys.taskSheet(2)), true);
  await storage.delete(storageKeys.taskSheet(1));
  assert.is((await readAll(storage, storageKeys.taskSheet(2), Infinity))?.toString(), '%PDF-sheet');
});

test('keys that could leave the root or name odd paths are refused before any file is touched', async () => {
  const bad = ['', '/etc/passwd', '../x', 'a/../../x', 'a/./b', 'a//b', 'a/', 'a\\b', '..', 'a/..', 'C:/x', 'a/b c', '.hidden', 'a/\0b'];
  for (const key of bad) {
    for (const run of [
      () => storage.put(key, Readable.from([Buffer.from('x')])),
      () => storage.open(key),
      () => storage.stat(key),
      () => storage.exists(key),
      () => storage.delete(key),
      () => storage.copy('ok/key', key),
    ]) {
      try {
        await run();
        assert.unreachable(`key ${JSON.stringify(key)} was accepted`);
      } catch (error) {
        assert.instance(error, StorageKeyError, `key ${JSON.stringify(key)}`);
      }
    }
  }
  assert.throws(
    () => storageKeys.taskSheet('1/../2' as unknown as number),
    (e: unknown) => e instanceof StorageKeyError,
  );
  assert.equal(filesUnder(root), []);
});

test("procedures reach the storage of the configured root as ctx.storage (the services' one)", async () => {
  const env = await testEnv();
  await env.services.storage.put('probe/file.txt', Readable.from([Buffer.from('probe')]));
  assert.equal(
    filesUnder(env.config.storageRoot).filter((f) => f.startsWith('probe/')),
    ['probe/file.txt'],
  );
  await env.services.storage.delete('probe/file.txt');
});

test.run();
