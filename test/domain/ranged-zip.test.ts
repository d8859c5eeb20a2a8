// openRangedZip (src/lib/zip.ts): a stored zip listed and read by ranges, as the SCORM asset route reads packages.
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NotAZipError, openRangedZip, zipToBuffer } from '../../src/lib/zip.ts';
import { rawZip } from '../support/zips.ts';

const test = suite('lib: zips read by ranges');

function ranged(bytes: Buffer) {
  const reads: [number, number][] = [];
  return {
    reads,
    read: async (start: number, end: number) => {
      reads.push([start, end]);
      return Readable.from([bytes.subarray(start, end)]);
    },
  };
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

test('the listing of many entries costs at most two reads; each entry is then read on its own', async () => {
  const entries = Array.from({ length: 300 }, (_, i) => ({ name: `dir/file-${i}.txt`, data: Buffer.from(`content ${i} `.repeat(50)) }));
  const zip = await zipToBuffer(entries);
  const store = ranged(zip);
  const listed = await openRangedZip(zip.length, store.read);
  assert.is(listed.entries.size, 300);
  assert.ok(store.reads.length <= 2, `${store.reads.length} reads`);
  assert.is(
    listed.unpackedBytes,
    entries.reduce((n, e) => n + e.data.length, 0),
  );
  const before = store.reads.length;
  assert.is(await text(await listed.entries.get('dir/file-123.txt')!.open()), 'content 123 '.repeat(50));
  assert.ok(store.reads.length - before <= 3, 'one entry: its header and its bytes');
  assert.ok(store.reads.every(([s, e]) => s >= 0 && e <= zip.length && e > s));
});

test('unsafe names and folders are left out of the listing; damage is a NotAZipError', async () => {
  const zip = rawZip([
    ['ok.txt', 'fine'],
    ['../evil.txt', 'x'],
    ['folder/', ''],
  ]);
  const listed = await openRangedZip(zip.length, ranged(zip).read);
  assert.equal([...listed.entries.keys()], ['ok.txt']);
  const junk = Buffer.from('not a zip at all, not even close');
  try {
    await openRangedZip(junk.length, ranged(junk).read);
    assert.unreachable('a junk file was listed');
  } catch (error) {
    assert.instance(error, NotAZipError);
  }
});

test.run();
