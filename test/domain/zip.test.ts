import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NotAZipError, assertSafeZip, copyEntryTo, listZip, readEntry, readZip, safeEntryPart, unsafeEntryName, zipToBuffer } from '../../src/lib/zip.ts';
import { pdfBytes, rawZip, unzip } from '../support/zips.ts';

const test = suite('lib: zips in and out, without zip-slip');
let dir: string;

test.before.each(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zip-test-'));
});
test.after.each(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

test('unsafe names: parent steps, absolute and drive-letter paths, backslashes, NUL; ordinary names pass', () => {
  for (const name of ['../evil', 'a/../../evil', '/etc/passwd', 'C:/x', 'c:x', '..\\evil', 'a\\..\\..\\x', '', 'a\0b']) {
    assert.ok(unsafeEntryName(name), name);
  }
  for (const name of ['1.1P.pdf', 'folder/1.1P.pdf', 'a..b.pdf', '..hidden', 'dir/']) {
    assert.is(unsafeEntryName(name), null, name);
  }
});

test('read: entries as streams, byte-exact; a `../evil` entry is flagged and cannot be opened; nothing is written anywhere', async () => {
  const path = await file(
    'in.zip',
    rawZip([
      ['1.1P.pdf', pdfBytes('a')],
      ['../evil.pdf', 'owned'],
      ['sub/', ''],
      ['sub/2.1P.pdf', pdfBytes('b')],
      ['C:\\x.pdf', 'x'],
    ]),
  );
  const seen: [string, string | null, boolean][] = [];
  const data = new Map<string, Buffer>();
  for await (const entry of readZip(path)) {
    seen.push([entry.name, entry.unsafe, entry.isDirectory]);
    if (entry.unsafe) {
      let refused = false;
      await entry.open().catch((e) => (refused = e instanceof NotAZipError));
      assert.ok(refused, `${entry.name} must not open`);
    } else if (!entry.isDirectory) {
      data.set(entry.baseName, await readEntry(entry, 1_000_000));
    }
  }
  assert.equal(
    seen.map(([name, unsafe, isDir]) => [name, unsafe !== null, isDir]),
    [
      ['1.1P.pdf', false, false],
      ['../evil.pdf', true, false],
      ['sub/', false, true],
      ['sub/2.1P.pdf', false, false],
      ['C:/x.pdf', true, false],
    ],
  );
  assert.ok(data.get('1.1P.pdf')!.equals(pdfBytes('a')));
  assert.ok(data.get('2.1P.pdf')!.equals(pdfBytes('b')));
  // Reading extracted nothing: the folder holds only the zip, and its parent no evil.pdf.
  assert.equal(await readdir(dir), ['in.zip']);
  assert.not.ok((await readdir(join(dir, '..'))).includes('evil.pdf'));
});

test('assertSafeZip refuses a zip with any unsafe name and passes a clean one; listZip reads names only', async () => {
  const evil = await file(
    'evil.zip',
    rawZip([
      ['ok.txt', 'x'],
      ['../../evil', 'y'],
    ]),
  );
  await assertSafeZip(evil).then(
    () => assert.unreachable('an unsafe zip passed'),
    (e) => {
      assert.instance(e, NotAZipError);
      assert.match(e.message, '"../../evil"');
    },
  );
  const clean = await file('clean.zip', rawZip([['a/b.txt', 'x']]));
  await assertSafeZip(clean);
  assert.equal(
    (await listZip(clean)).map((e) => [e.name, e.baseName, e.size]),
    [['a/b.txt', 'b.txt', 1]],
  );
});

test('not a zip: a PDF, text, an empty file and a cut-off zip are NotAZipError', async () => {
  const zip = rawZip([['a.txt', 'hello world']]);
  for (const [name, bytes] of [
    ['a.pdf', pdfBytes('x')],
    ['a.txt', Buffer.from('hello')],
    ['empty', Buffer.alloc(0)],
    ['cut.zip', zip.subarray(0, zip.length - 10)],
  ] as const) {
    const path = await file(name, bytes);
    await listZip(path).then(
      () => assert.unreachable(`${name} read as a zip`),
      (e) => assert.instance(e, NotAZipError, name),
    );
  }
});

test('readEntry caps an entry at maxBytes', async () => {
  const path = await file('big.zip', rawZip([['big.bin', Buffer.alloc(5000, 1)]]));
  for await (const entry of readZip(path)) {
    await readEntry(entry, 4999).then(
      () => assert.unreachable('over the cap'),
      (e) => assert.instance(e, NotAZipError),
    );
  }
});

test('copyEntryTo writes to the path the caller chose, byte-exact, and leaves nothing when over the cap or unsafe', async () => {
  const path = await file(
    'in.zip',
    rawZip([
      ['../../escape.pdf', 'x'],
      ['a/1.1P.pdf', pdfBytes('a')],
      ['big.bin', Buffer.alloc(3000, 1)],
    ]),
  );
  const results: string[] = [];
  let n = 0;
  for await (const entry of readZip(path)) {
    const target = join(dir, `entry-${n++}`);
    await copyEntryTo(entry, target, 2000).then(
      (size) => results.push(`${entry.name}: ${size}`),
      (e) => results.push(`${entry.name}: ${e instanceof NotAZipError ? 'refused' : 'failed'}`),
    );
  }
  assert.equal(results, ['../../escape.pdf: refused', `a/1.1P.pdf: ${pdfBytes('a').length}`, 'big.bin: refused']);
  assert.equal((await readdir(dir)).sort(), ['entry-1', 'in.zip']);
  assert.ok((await readFile(join(dir, 'entry-1'))).equals(pdfBytes('a')));
});

test('write: buffers and lazily opened streams in order, byte-exact, streams opened one at a time', async () => {
  let open = 0;
  let maxOpen = 0;
  const streamed = (bytes: Buffer) => () => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    const s = Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]);
    s.on('close', () => open--);
    return s;
  };
  const big = Buffer.alloc(200_000, 7);
  const zip = await zipToBuffer([
    { name: '1.1P.pdf', open: streamed(pdfBytes('one')), compress: false },
    { name: 'notes/readme.txt', data: Buffer.from('read me') },
    { name: '2.1P.zip', open: streamed(big) },
  ]);
  const entries = await unzip(zip);
  assert.equal([...entries.keys()], ['1.1P.pdf', 'notes/readme.txt', '2.1P.zip']);
  assert.ok(entries.get('1.1P.pdf')!.equals(pdfBytes('one')));
  assert.is(entries.get('notes/readme.txt')!.toString(), 'read me');
  assert.ok(entries.get('2.1P.zip')!.equals(big));
  assert.is(maxOpen, 1);
  // What we write reads back through our own reader too.
  const path = await file('out.zip', zip);
  assert.equal(
    (await listZip(path)).map((e) => e.unsafe),
    [null, null, null],
  );
});

test('write: an unsafe name or a failing stream fails the zip stream instead of writing it', async () => {
  await zipToBuffer([{ name: '../evil', data: Buffer.from('x') }]).then(
    () => assert.unreachable('wrote ../evil'),
    (e) => assert.match(e.message, 'refusing to write'),
  );
  const failing = () =>
    new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
  await zipToBuffer([{ name: 'a.pdf', open: failing }]).then(
    () => assert.unreachable('a failed entry was written'),
    (e) => assert.match(e.message, 'disk gone'),
  );
  await zipToBuffer([{ name: 'a.pdf', open: () => Promise.reject(new Error('no such file')) }]).then(
    () => assert.unreachable('a missing entry was written'),
    (e) => assert.match(e.message, 'no such file'),
  );
});

test('safeEntryPart turns a label into one harmless path part', () => {
  assert.is(safeEntryPart('1.1P'), '1.1P');
  assert.is(safeEntryPart('../x'), '.._x');
  assert.is(safeEntryPart('a/b\\c:d*e?f"g<h>i|j'), 'a_b_c_d_e_f_g_h_i_j');
  assert.is(safeEntryPart('..'), '_');
  assert.is(safeEntryPart('  '), '_');
  assert.is(unsafeEntryName(safeEntryPart('../../etc')), null);
});

test.run();
