import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CsvError, decodeCsv, looksBinary, missingHeaders, readCsv, writeCsv } from '../../src/domain/csv.ts';

const test = suite('domain: CSV reading and writing');

test('headers in any case, order and spacing; BOM and CRLF; quoted separators, quotes and line breaks', async () => {
  const { headers, rows } = await readCsv('\uFEFF Unit Code ,NAME\r\n"SIT101","Say ""hi"", then\r\nbye"\r\n');
  assert.equal(headers, ['unit_code', 'name']);
  assert.equal(rows, [{ unit_code: 'SIT101', name: 'Say "hi", then\r\nbye' }]);
});

test('blank lines and rows of empty cells are skipped; short rows get empty cells; values are trimmed', async () => {
  const { rows } = await readCsv('a,b,c\n\n , ,\n 1 ,2\n3,4,5,6\n');
  assert.equal(rows, [
    { a: '1', b: '2', c: '' },
    { a: '3', b: '4', c: '5' },
  ]);
});

test('text that is not CSV is a CsvError; an empty file has no rows', async () => {
  const error = await readCsv('a,b\n"open,1\n').catch((e: unknown) => e);
  assert.ok(error instanceof CsvError && /^Unable to read the CSV file: /.test(error.message), String(error));
  assert.equal(await readCsv(''), { headers: [], rows: [] });
});

test('missing headers are named in the order required', () => {
  assert.equal(missingHeaders(['name', 'unit_code'], ['unit_code', 'abbreviation', 'name', 'description']), ['abbreviation', 'description']);
});

test('written with CRLF, quoting only what needs it; what is written reads back the same', async () => {
  const text = writeCsv(
    ['a', 'b'],
    [
      ['x,y', 'line\nbreak'],
      [1, null],
    ],
  );
  assert.is(text, 'a,b\r\n"x,y","line\nbreak"\r\n1,\r\n');
  assert.equal((await readCsv(text)).rows, [
    { a: 'x,y', b: 'line\nbreak' },
    { a: '1', b: '' },
  ]);
});

test('text that starts like a formula is written behind one single quote and read back without it', async () => {
  const risky = ['=1+2', '+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR', '＝1', '＋1', '－1', '＠x'];
  const text = writeCsv(
    ['value'],
    risky.map((v) => [v]),
  );
  const written = text
    .split('\r\n')
    .slice(1, -1)
    .map((line) => (line.startsWith('"') ? line.slice(1, -1) : line));
  assert.equal(
    written,
    risky.map((v) => `'${v}`),
  );
  assert.equal(
    (await readCsv(text)).rows.map((r) => r.value),
    risky.map((v) => v.trim()),
  );
});

test('numbers, plain text and a quote the cell holds itself are left alone', async () => {
  const text = writeCsv(['a', 'b', 'c', 'd'], [[-1, "O'Brien", "'quoted", 'a=b']]);
  assert.is(text, "a,b,c,d\r\n-1,O'Brien,'quoted,a=b\r\n");
  assert.equal((await readCsv(text)).rows, [{ a: '-1', b: "O'Brien", c: "'quoted", d: 'a=b' }]);
  // A cell that itself starts with a quote and a sign gets a second quote, and reads back as it was.
  assert.is(writeCsv(['a'], [["'=1"]]), "a\r\n''=1\r\n");
  assert.equal((await readCsv(writeCsv(['a'], [["'=1"]]))).rows, [{ a: "'=1" }]);
});

test('uploads: invalid UTF-8 is replaced, NUL bytes mark a binary file', () => {
  assert.is(decodeCsv(Buffer.from([0x61, 0xff, 0x62])), 'a\uFFFDb');
  assert.ok(looksBinary(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00])));
  assert.not.ok(looksBinary(Buffer.from('a,b\n1,2\n')));
});

test('a 5 MB file is parsed a slice at a time: the event loop gets turns throughout', async () => {
  const lines = ['username,first_name,last_name,email'];
  for (let i = 0; lines.length < 90_000; i++) lines.push(`student${i},"First ${i}",Last${i},student${i}@example.edu`);
  const text = lines.join('\n');
  let last = performance.now();
  let worstGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worstGap = Math.max(worstGap, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const { rows } = await readCsv(text);
  const took = performance.now() - started;
  clearInterval(ticker);
  worstGap = Math.max(worstGap, performance.now() - last);
  assert.is(rows.length, 89_999);
  // A ratio within this run: the longest wait a timer saw is a small part of the whole parse.
  assert.ok(worstGap <= took * 0.25, `worst wait ${worstGap.toFixed(0)} ms of a ${took.toFixed(0)} ms parse`);
});

test.run();
