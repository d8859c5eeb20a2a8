// The pure rules behind the submission PDF: wrapping, tabs, line numbers, colours, fonts by
// coverage, notebook cells, image formats and the small decoders. No I/O.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { codeRows, colourOf, expandTabs, highlightLines, languageFor, wrapTokens } from '../../src/pdf/code.ts';
import { contributionStars, displayName, submissionTime } from '../../src/pdf/cover.ts';
import { SubmissionFileError } from '../../src/pdf/errors.ts';
import { splitByCoverage } from '../../src/pdf/fonts.ts';
import { fitInto, imageFormat } from '../../src/pdf/images.ts';
import { wrapWords } from '../../src/pdf/layout.ts';
import { markdownLine, notebookCells, stripAnsi } from '../../src/pdf/notebook.ts';
import { Jimp } from 'jimp';
import { toPng } from '../../src/pdf/raster.ts';
import { sampleGif, sampleJpeg, samplePdf, samplePng } from '../support/sample-files.ts';

const test = suite('pdf: layout rules');
const plain = (text: string) => [{ text, scope: '' }];

test('tabs expand to the next multiple of 4 columns, counted across tokens', () => {
  assert.equal(expandTabs(plain('\tx')), plain('    x'));
  assert.equal(expandTabs(plain('ab\tc')), plain('ab  c'));
  assert.equal(
    expandTabs([
      { text: 'abc', scope: 'keyword' },
      { text: '\t1', scope: '' },
    ]),
    [
      { text: 'abc', scope: 'keyword' },
      { text: ' 1', scope: '' },
    ],
  );
});

test('long lines wrap anywhere at the column limit, keeping each piece its colour', () => {
  assert.equal(
    wrapTokens(
      [
        { text: 'abcd', scope: 'string' },
        { text: 'efg', scope: '' },
      ],
      3,
    ),
    [
      [{ text: 'abc', scope: 'string' }],
      [
        { text: 'd', scope: 'string' },
        { text: 'ef', scope: '' },
      ],
      [{ text: 'g', scope: '' }],
    ],
  );
  assert.equal(wrapTokens([], 10), [[]], 'an empty line is still a row');
  assert.equal(
    wrapTokens(plain('日本語ab'), 2).map((r) => r[0].text),
    ['日本', '語a', 'b'],
    'by characters, not UTF-16 units',
  );
});

test('rows carry the line number on the first row of each source line only; a final newline adds no line', () => {
  const rows = codeRows('one\n\tlong line here\nthree\n', null, 8);
  assert.equal(
    rows.map((r) => [r.number, r.tokens.map((t) => t.text).join('')]),
    [
      [1, 'one'],
      [2, '    long'],
      [null, ' line he'],
      [null, 're'],
      [3, 'three'],
    ],
  );
});

test('highlight.js colours by extension, as the original lexer map; plain text types stay plain', () => {
  assert.is(languageFor('py'), 'python');
  assert.is(languageFor('.CPP'), 'cpp');
  assert.is(languageFor('pas'), 'delphi');
  assert.is(languageFor('ts'), 'typescript');
  assert.is(languageFor('txt'), null);
  assert.is(languageFor('sh'), null);
  assert.is(languageFor('nosuchlanguage'), null);
  const [line] = highlightLines('def f(): return "x<y"', 'python');
  assert.equal(
    line.find((t) => t.text === 'def'),
    { text: 'def', scope: 'keyword' },
  );
  assert.equal(
    line.find((t) => t.scope === 'string'),
    { text: '"x<y"', scope: 'string' },
    'entities decoded',
  );
  const lines = highlightLines('/* a\nb */ int x;', 'c');
  assert.equal(lines[1][0], { text: 'b */', scope: 'comment' }, 'a comment across lines keeps its scope');
  assert.equal(colourOf('keyword'), [0, 0.5, 0]);
  assert.equal(colourOf(''), [0, 0, 0]);
});

test('text wraps at spaces by measured width, and inside a word only when it alone is too wide', () => {
  const measure = (s: string) => s.length;
  assert.equal(wrapWords('the quick brown fox', 10, measure), ['the quick', 'brown fox']);
  assert.equal(wrapWords('abcdefghijkl', 5, measure), ['abcde', 'fghij', 'kl']);
  assert.equal(wrapWords('', 5, measure), ['']);
});

test('each character goes to the first font that has it; none has it: the first', () => {
  const latin = (cp: number) => cp < 0x250;
  const greek = (cp: number) => cp >= 0x370 && cp < 0x400;
  assert.equal(splitByCoverage('Grüße αβ 日', [latin, greek]), [
    { text: 'Grüße ', face: 0 },
    { text: 'αβ', face: 1 },
    { text: ' 日', face: 0 },
  ]);
});

test('notebooks: markdown, code cells numbered with their outputs, errors without ANSI codes; not JSON is the student’s to fix', () => {
  const { language, cells } = notebookCells(
    JSON.stringify({
      metadata: { kernelspec: { language: 'r' } },
      cells: [
        { cell_type: 'markdown', source: '## Intro' },
        { cell_type: 'code', execution_count: null, source: ['x <- 1'], outputs: [{ output_type: 'execute_result', data: { 'text/plain': ['[1] 1'] } }] },
        { cell_type: 'code', execution_count: 7, source: 'stop()', outputs: [{ output_type: 'error', traceback: ['\u001b[31mError\u001b[0m in stop()'] }] },
        { cell_type: 'raw', source: 'raw text' },
      ],
    }),
  );
  assert.is(language, 'r');
  assert.equal(cells, [
    { kind: 'markdown', source: '## Intro' },
    { kind: 'code', number: 1, source: 'x <- 1', outputs: [{ kind: 'text', text: '[1] 1' }] },
    { kind: 'code', number: 7, source: 'stop()', outputs: [{ kind: 'text', text: 'Error in stop()' }] },
    { kind: 'raw', source: 'raw text' },
  ]);
  assert.throws(
    () => notebookCells('not json'),
    (e: unknown) => e instanceof SubmissionFileError,
  );
  assert.throws(
    () => notebookCells('{"nbformat": 4}'),
    (e: unknown) => e instanceof SubmissionFileError,
  );
  assert.is(stripAnsi('\u001b[1;32mok\u001b[0m'), 'ok');
  assert.equal(markdownLine('# Title **x**'), { text: 'Title x', size: 16, bold: true, indent: 0 });
  assert.equal(markdownLine('- item'), { text: '• item', size: 10, bold: false, indent: 12 });
});

test('images: format by signature, fitted into the page without enlarging', () => {
  assert.is(imageFormat(samplePng()), 'png');
  assert.is(imageFormat(sampleJpeg()), 'jpeg');
  assert.is(imageFormat(sampleGif()), 'gif');
  assert.is(imageFormat(Buffer.from('BM0000')), 'bmp');
  assert.is(imageFormat(Buffer.from('49492a0008000000', 'hex')), 'tiff');
  assert.is(imageFormat(samplePdf()), null);
  assert.equal(fitInto(100, 50, 400, 400), { width: 100, height: 50 });
  assert.equal(fitInto(1000, 500, 400, 400), { width: 400, height: 200 });
  assert.equal(fitInto(500, 1000, 400, 400), { width: 200, height: 400 });
});

test('GIF, BMP and TIFF become PNG for pdf-lib (through Jimp); bytes that do not decode are refused', async () => {
  const red = new Jimp({ width: 2, height: 1, color: 0xff0000ff });
  for (const mime of ['image/gif', 'image/bmp', 'image/tiff'] as const) {
    const png = await toPng(await red.getBuffer(mime));
    assert.is(imageFormat(png), 'png', mime);
    const back = await Jimp.read(png);
    assert.equal([back.width, back.height, back.getPixelColor(0, 0)], [2, 1, 0xff0000ff], mime);
  }
  assert.is(imageFormat(await toPng(sampleGif())), 'png');
  await assert_rejects(() => toPng(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')));
});

async function assert_rejects(fn: () => Promise<unknown>): Promise<void> {
  let threw = false;
  await fn().catch(() => (threw = true));
  assert.ok(threw, 'expected a rejection');
}

test('cover wording: LAST NAME in capitals, YYYY/MM/DD HH:MM, five stars of contribution', () => {
  assert.is(displayName({ firstName: 'Ada', lastName: 'Lovelace', username: 'al' }), 'Ada LOVELACE');
  assert.is(submissionTime(new Date(2026, 2, 10, 9, 5)), '2026/03/10 09:05');
  assert.is(contributionStars(3), '★★★☆☆');
  assert.is(contributionStars(null), '☆☆☆☆☆');
  assert.is(contributionStars(9), '★★★★★');
});

test.run();
