import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkCsv, checkImage, checkKind, checkPdf, checkZip, detectMime, notOfKindMessage, notValidMessage } from '../../src/lib/file-kinds.ts';
import { fileNotFoundPdf } from '../../src/lib/placeholder-pdf.ts';
import { sampleGif, sampleJpeg, samplePdf, samplePng, sampleZip, tempFileOf } from '../support/sample-files.ts';

const test = suite('file kinds: judged by content, not by name');

test('real files are detected as what they are, whatever their names say', async () => {
  assert.is(await detectMime(tempFileOf(samplePdf(), 'sheet.pdf')), 'application/pdf');
  assert.is(await detectMime(tempFileOf(samplePng(), 'photo.pdf')), 'image/png');
  assert.is(await detectMime(tempFileOf(sampleJpeg(), 'x.csv')), 'image/jpeg');
  assert.is(await detectMime(tempFileOf(sampleGif(), 'x.zip')), 'image/gif');
  assert.is(await detectMime(tempFileOf(sampleZip(), 'notes.txt')), 'application/zip');
  assert.is(await detectMime(tempFileOf('name,email\nAnn,ann@example.com\n', 'list.pdf')), 'text/plain');
  assert.is(await detectMime(tempFileOf(Buffer.from([1, 0, 2, 0, 3]), 'list.csv')), 'application/octet-stream');
});

test('PDF: a PDF passes; an image or a zip named .pdf does not; a PDF cut short (no %%EOF at its end) does not', async () => {
  assert.equal(await checkPdf(tempFileOf(samplePdf())), { ok: true, detected: 'application/pdf' });
  assert.equal(await checkPdf(tempFileOf(samplePng(), 'sheet.pdf')), { ok: false, detected: 'image/png' });
  assert.equal(await checkPdf(tempFileOf(sampleZip(), 'sheet.pdf')), { ok: false, detected: 'application/zip' });
  const pdf = samplePdf();
  assert.equal(await checkPdf(tempFileOf(pdf.subarray(0, pdf.length - 20))), { ok: false, detected: 'application/pdf' });
  assert.equal(await checkPdf(tempFileOf('')), { ok: false, detected: 'text/plain' });
  // The end marker may be followed by a little trailing data (as many writers leave), but within 4 KiB.
  assert.is((await checkPdf(tempFileOf(Buffer.concat([pdf, Buffer.alloc(100, 0x20)])))).ok, true);
  assert.is((await checkPdf(tempFileOf(Buffer.concat([pdf, Buffer.alloc(5000, 0x20)])))).ok, false);
});

test('the placeholder PDF is itself a valid PDF', async () => {
  assert.is((await checkPdf(tempFileOf(fileNotFoundPdf()))).ok, true);
  assert.ok(fileNotFoundPdf().toString('latin1').includes('(File not found)'));
});

test('image: PNG, JPEG and GIF pass; a PDF or text named .png does not', async () => {
  for (const image of [samplePng(), sampleJpeg(), sampleGif()]) assert.is((await checkImage(tempFileOf(image, 'x.png'))).ok, true);
  assert.equal(await checkImage(tempFileOf(samplePdf(), 'x.png')), { ok: false, detected: 'application/pdf' });
  assert.equal(await checkImage(tempFileOf('hello', 'x.png')), { ok: false, detected: 'text/plain' });
});

test('zip: a zip passes; a PDF or text named .zip does not', async () => {
  assert.equal(await checkZip(tempFileOf(sampleZip())), { ok: true, detected: 'application/zip' });
  assert.equal(await checkZip(tempFileOf(samplePdf(), 'x.zip')), { ok: false, detected: 'application/pdf' });
  assert.equal(await checkZip(tempFileOf('a,b\n', 'x.zip')), { ok: false, detected: 'text/plain' });
});

test('CSV: text passes (with a byte-order mark, CRLF, quotes); a PDF, zip, image or binary named .csv does not', async () => {
  assert.equal(await checkCsv(tempFileOf('\uFEFFname,"note, with comma"\r\nAnn,"two\r\nlines"\r\n', 'x.csv')), { ok: true, detected: 'text/csv' });
  assert.equal(await checkCsv(tempFileOf('ünïcödé,ß\n', 'x.csv')), { ok: true, detected: 'text/csv' });
  assert.equal(await checkCsv(tempFileOf(samplePdf(), 'students.csv')), { ok: false, detected: 'application/pdf' });
  assert.equal(await checkCsv(tempFileOf(sampleZip(), 'students.csv')), { ok: false, detected: 'application/zip' });
  assert.equal(await checkCsv(tempFileOf(samplePng(), 'students.csv')), { ok: false, detected: 'image/png' });
  assert.equal(await checkCsv(tempFileOf(Buffer.from('a,b\n\0\0\0'), 'students.csv')), { ok: false, detected: 'application/octet-stream' });
  assert.is((await checkKind('csv', tempFileOf('a\n'))).ok, true);
});

test("refusals read as the original's", () => {
  assert.is(notOfKindMessage('pdf', 'image/png'), 'File given is not a pdf file - detected image/png');
  assert.is(notOfKindMessage('zip', 'application/pdf'), 'File given is not a zip file - detected application/pdf');
  assert.is(notOfKindMessage('csv', 'application/pdf'), 'File given is not a csv file - detected application/pdf');
  assert.is(notValidMessage('photo.pdf', 'document'), "'photo.pdf' is not a valid document file");
});

test.run();
