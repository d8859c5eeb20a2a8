import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CsvError, decodeCsv, looksBinary, missingHeaders, readCsv, writeCsv } from '../../src/domain/csv.ts';

const test = suite('domain: CSV reading and writing');

test('headers in any case, order and spacing; BOM and CRLF; quoted separators, quotes and line breaks', () => {
  const { headers, rows } = readCsv('\uFEFF Unit Code ,NAME\r\n"SIT101","Say ""hi"", then\r\nbye"\r\n');
  assert.equal(headers, ['unit_code', 'name']);
  assert.equal(rows, [{ unit_code: 'SIT101', name: 'Say "hi", then\r\nbye' }]);
});

test('blank lines and rows of empty cells are skipped; short rows get empty cells; values are trimmed', () => {
  const { rows } = readCsv('a,b,c\n\n , ,\n 1 ,2\n3,4,5,6\n');
  assert.equal(rows, [{ a: '1', b: '2', c: '' }, { a: '3', b: '4', c: '5' }]);
});

test('text that is not CSV is a CsvError; an empty file has no rows', () => {
  assert.throws(() => readCsv('a,b\n"open,1\n'), (e: unknown) => e instanceof CsvError && /^Unable to read the CSV file: /.test((e as Error).message));
  assert.equal(readCsv(''), { headers: [], rows: [] });
});

test('missing headers are named in the order required', () => {
  assert.equal(missingHeaders(['name', 'unit_code'], ['unit_code', 'abbreviation', 'name', 'description']), ['abbreviation', 'description']);
});

test('written with CRLF, quoting only what needs it; what is written reads back the same', () => {
  const text = writeCsv(['a', 'b'], [['x,y', 'line\nbreak'], [1, null]]);
  assert.is(text, 'a,b\r\n"x,y","line\nbreak"\r\n1,\r\n');
  assert.equal(readCsv(text).rows, [{ a: 'x,y', b: 'line\nbreak' }, { a: '1', b: '' }]);
});

test('text that starts like a formula is written behind one single quote and read back without it', () => {
  const risky = ['=1+2', '+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR', '＝1', '＋1', '－1', '＠x'];
  const text = writeCsv(['value'], risky.map((v) => [v]));
  const written = text.split('\r\n').slice(1, -1).map((line) => (line.startsWith('"') ? line.slice(1, -1) : line));
  assert.equal(written, risky.map((v) => `'${v}`));
  assert.equal(readCsv(text).rows.map((r) => r.value), risky.map((v) => v.trim()));
});

test('numbers, plain text and a quote the cell holds itself are left alone', () => {
  const text = writeCsv(['a', 'b', 'c', 'd'], [[-1, 'O\'Brien', "'quoted", 'a=b']]);
  assert.is(text, "a,b,c,d\r\n-1,O'Brien,'quoted,a=b\r\n");
  assert.equal(readCsv(text).rows, [{ a: '-1', b: "O'Brien", c: "'quoted", d: 'a=b' }]);
  // A cell that itself starts with a quote and a sign gets a second quote, and reads back as it was.
  assert.is(writeCsv(['a'], [["'=1"]]), "a\r\n''=1\r\n");
  assert.equal(readCsv(writeCsv(['a'], [["'=1"]])).rows, [{ a: "'=1" }]);
});

test('uploads: invalid UTF-8 is replaced, NUL bytes mark a binary file', () => {
  assert.is(decodeCsv(Buffer.from([0x61, 0xff, 0x62])), 'a\uFFFDb');
  assert.ok(looksBinary(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00])));
  assert.not.ok(looksBinary(Buffer.from('a,b\n1,2\n')));
});

test.run();
