// What a PDF reads and draws of a huge text file (issue 14 §1): the cut by printed rows agrees
// with the rows codeRows prints, and only the beginning of a stored file is kept in memory.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { codeRows, cutToRows } from '../../src/pdf/code.ts';
import { textReadLimits } from '../../src/pdf/limits.ts';
import { localStorage } from '../../src/storage/local.ts';
import { readHead } from '../../src/storage/index.ts';

const test = suite('pdf: limits on huge text files');

const SOURCE = ['short', '\tindented\twith tabs', 'x'.repeat(250), '', 'Grüße 日本語 😀 '.repeat(20), 'end\r\nwindows\rold mac', 'last'].join('\n');

test('the cut fills at most the rows asked for, exactly as codeRows prints them, and says which lines it holds whole', () => {
  const all = codeRows(SOURCE, null, 40).length;
  for (let rows = 0; rows <= all + 2; rows++) {
    const cut = cutToRows(SOURCE, 40, rows);
    const printed = codeRows(cut.text, null, 40);
    assert.ok(printed.length <= Math.max(rows, 1), `${rows} rows asked, ${printed.length} printed`);
    assert.is(cut.whole, rows >= all, `${rows} rows: whole?`);
    if (cut.whole) assert.is(printed.length, all);
    // Every row asked for is used: one more character would not fit.
    if (!cut.whole && rows > 0)
      assert.ok(codeRows(SOURCE.replace(/\r\n?/g, '\n').slice(0, cut.text.length + 1), null, 40).length > rows || printed.length === rows);
    // Lines held whole: each ends with its newline inside the cut (all of them when nothing was cut).
    assert.is(cut.lines, cut.whole ? SOURCE.split(/\r\n?|\n/).length : cut.text.split('\n').length - 1);
  }
});

test("readHead keeps the beginning up to the line or byte limit and counts all of the file's bytes and lines", async () => {
  const storage = localStorage(mkdtempSync(join(tmpdir(), 'course-head-')));
  const text = Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join('\n'); // no final newline
  await storage.put('a/b.txt', Readable.from([Buffer.from(text)]));
  const byLines = await readHead(storage, 'a/b.txt', { maxLines: 10, maxBytes: 1_000_000 });
  assert.is(byLines!.bytes.toString(), `${text.split('\n').slice(0, 10).join('\n')}\n`);
  assert.is(byLines!.size, Buffer.byteLength(text));
  assert.is(byLines!.lines, 100_000);
  const byBytes = await readHead(storage, 'a/b.txt', { maxLines: 1_000_000, maxBytes: 100_003 });
  assert.is(byBytes!.bytes.length, 100_003);
  assert.is(byBytes!.bytes.toString(), text.slice(0, 100_003));
  assert.is(await readHead(storage, 'a/none.txt', { maxLines: 1, maxBytes: 1 }), null);
});

test('the read limits cover every row the pages can print', () => {
  const { maxLines, maxBytes } = textReadLimits(200);
  assert.ok(maxLines >= 200 * 68, `${maxLines} lines`);
  assert.is(maxBytes, maxLines * 400);
});

test.run();
